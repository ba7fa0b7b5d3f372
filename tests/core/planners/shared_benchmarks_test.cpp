// Facts about the shared benchmark files: their lower bounds and what TVM's planners reach.
#include <gtest/gtest.h>

#include "base/text_file.h"
#include "frontends/problem_files/minimalloc_csv.h"
#include "planners/exact/lower_bound.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

Problem load_csv(const std::string& path) {
  return read_minimalloc_csv(read_text_file(path), path);
}

struct Expected {
  const char* file;
  size_t buffers;
  int64_t lower_bound;
};

class SharedLowerBounds : public ::testing::TestWithParam<Expected> {};

TEST_P(SharedLowerBounds, MaxLiveMatchesTheNotice) {
  USMPX_REQUIRE_SHARED(path, std::string("benchmarks/") + GetParam().file);
  const Problem problem = load_csv(path);
  EXPECT_EQ(problem.buffers.size(), GetParam().buffers);
  const LowerBound lb = total_lower_bound(problem);
  EXPECT_EQ(lb.bytes, GetParam().lower_bound);
  EXPECT_TRUE(lb.exact);
  EXPECT_EQ(problem.memory_pressure, GetParam().lower_bound);
}

INSTANTIATE_TEST_SUITE_P(
    Files, SharedLowerBounds,
    ::testing::Values(
        Expected{"minimalloc/A.1048576.csv", 154, 1048576}, Expected{"minimalloc/B.1048576.csv", 170, 1048576},
        Expected{"minimalloc/C.1048576.csv", 203, 1039360}, Expected{"minimalloc/D.1048576.csv", 213, 986112},
        Expected{"minimalloc/E.1048576.csv", 215, 1048576}, Expected{"minimalloc/F.1048576.csv", 296, 1048576},
        Expected{"minimalloc/G.1048576.csv", 308, 1048576}, Expected{"minimalloc/H.1048576.csv", 316, 1048576},
        Expected{"minimalloc/I.1048576.csv", 374, 1048576}, Expected{"minimalloc/J.1048576.csv", 409, 989184},
        Expected{"minimalloc/K.1048576.csv", 454, 1048576}, Expected{"minimalloc/input.12.csv", 5, 12},
        Expected{"derived/tvm_deep_speech.csv", 184, 100352}, Expected{"derived/tflm_person_detection.csv", 30, 64512},
        Expected{"idealloc/iopddl/G_1.csv", 816, 3030937746},
        Expected{"idealloc/somas_tensors/resnet50.csv", 1042, 1515472556},
        Expected{"idealloc/somas_tensors/pangu_2.6B.csv", 18692, 5530099775}),
    [](const auto& param_info) {
      std::string name = param_info.param.file;
      for (char& c : name)
        c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      return name;
    });

TEST(SharedTvmPlanners, HillClimbWithinFivePercentOnDeepSpeech) {
  // TVM's test_tir_usmp_algo_hill_climb asserts hill_climb within 5% of the max-live bound.
  USMPX_REQUIRE_SHARED(path, "benchmarks/derived/tvm_deep_speech.csv");
  const Problem problem = load_csv(path);
  const Plan plan = testing::plan_with("hill_climb", problem);
  EXPECT_FALSE(plan.has_errors());
  EXPECT_LT(plan.total_size(), 105369);
  EXPECT_GE(plan.total_size(), 100352);
}

TEST(SharedTvmPlanners, MiniMallocExampleWithCapacity12) {
  USMPX_REQUIRE_SHARED(path, "benchmarks/minimalloc/input.12.csv");
  const Problem problem = load_csv(path);
  for (const char* algorithm : {"greedy_by_size", "greedy_by_conflicts", "hill_climb"}) {
    const Plan plan = testing::plan_with(algorithm, problem);
    EXPECT_FALSE(plan.has_errors()) << algorithm;
    EXPECT_GE(plan.total_size(), 12) << algorithm;
  }
}

}  // namespace
}  // namespace usmpx
