// Anytime behaviour (a valid plan at any time limit), cancellation, progress reports, and what the
// project's planners reach on the shared benchmark files.
#include <algorithm>
#include <atomic>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "base/text_file.h"
#include "frontends/problem_files/minimalloc_csv.h"
#include "planners/registry.h"
#include "random_problems.h"
#include "test_support.h"

namespace usmpx {
namespace {

const std::vector<std::string> kProjectPlanners = {"first_fit",
                                                   "best_fit_size",
                                                   "best_fit_size_duration",
                                                   "best_fit_duration_size",
                                                   "best_fit_area",
                                                   "best_fit_breadth",
                                                   "multi_start",
                                                   "exact",
                                                   "best"};

// Step budgets (PlannerOptions::step_budget) for the exact search on MiniMalloc's B: a small one
// that stops it on its way down, and one that reaches the optimum and proves it.
constexpr int64_t kSmallBudget = 20'000;
constexpr int64_t kSmallBudgetReaches = 1'106'944;
constexpr int64_t kLargeBudget = 100'000'000;
// Enough steps for every search in SharedBenchmarks to end where it ends (proof or exhausted passes).
constexpr int64_t kBenchmarkBudget = 400'000'000;

Problem load_csv(const std::string& path) {
  return read_minimalloc_csv(read_text_file(path), path);
}

// A lifetime problem with many long-lived buffers of awkward sizes: hard for the exact search.
Problem hard_problem(int buffers, uint64_t seed) {
  std::mt19937_64 rng(seed);
  testing::RandomProblemSpec spec;
  spec.buffers = buffers;
  spec.max_size = 100000;
  spec.horizon = buffers / 2;
  return testing::random_interval_problem(rng, spec);
}

Plan run(const std::string& name, const Problem& problem, double seconds) {
  PlannerOptions options;
  options.time_limit_seconds = seconds;
  return run_planner(*make_planner(name), problem, options);
}

class Anytime : public ::testing::TestWithParam<std::string> {};

TEST_P(Anytime, TinyTimeLimitStillGivesAValidPlan) {
  for (uint64_t seed : {1, 2, 3}) {
    const Problem problem = hard_problem(400, seed);
    const Plan plan = run(GetParam(), problem, 1e-6);
    EXPECT_TRUE(plan_fits(problem, plan)) << "seed " << seed;
    EXPECT_FALSE(plan.has_errors()) << "seed " << seed;
    EXPECT_GE(plan.total_size(), plan.lower_bound_bytes);
  }
}

// Cancelled before it starts, a planner stops at its next check: a greedy pass checks the flag
// before each placement, so nothing is placed, and the plan says that it stopped. Nothing here
// depends on how fast the machine is.
TEST_P(Anytime, CancelledBeforeTheStartStopsAtTheFirstCheck) {
  const Problem problem = hard_problem(600, 9);
  std::atomic<bool> cancel{true};
  PlannerOptions options;
  options.time_limit_seconds = 1e9;
  options.cancel = &cancel;
  int reports = 0;
  options.progress = [&](const PlannerProgress&) { ++reports; };
  const Plan plan = run_planner(*make_planner(GetParam()), problem, options);
  ASSERT_EQ(plan.allocations.size(), problem.buffers.size());
  const auto placed =
      std::count_if(plan.allocations.begin(), plan.allocations.end(), [](const Allocation& a) { return a.placed(); });
  EXPECT_EQ(placed, 0) << GetParam();
  EXPECT_EQ(reports, 0) << GetParam();
  EXPECT_TRUE(std::any_of(plan.diagnostics.begin(), plan.diagnostics.end(), [](const Diagnostic& d) {
    return d.code == "stopped";
  })) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Catalog, Anytime, ::testing::ValuesIn(kProjectPlanners),
                         [](const auto& param_info) { return std::string(param_info.param); });

// A search cancelled from its first progress report (it has a complete plan then) stops at its
// next check: it returns that valid plan or a better one, and reports nothing more. The step
// budget only guards the test against a planner that would never report.
class CancelledSearch : public ::testing::TestWithParam<std::string> {};

TEST_P(CancelledSearch, ReturnsAValidPlanAndStopsReporting) {
  const Problem problem = hard_problem(600, 9);
  std::atomic<bool> cancel{false};
  PlannerOptions options = testing::step_budget(50'000'000);
  options.cancel = &cancel;
  int reports_after_cancel = 0;
  int64_t reported = -1;
  options.progress = [&](const PlannerProgress& p) {
    if (cancel.load()) ++reports_after_cancel;
    if (p.best_total_bytes > 0 && reported < 0) {
      reported = p.best_total_bytes;
      cancel.store(true);
    }
  };
  const Plan plan = run_planner(*make_planner(GetParam()), problem, options);
  ASSERT_GT(reported, 0) << GetParam() << " never reported a plan";
  EXPECT_EQ(reports_after_cancel, 0);
  EXPECT_TRUE(plan_fits(problem, plan));
  EXPECT_FALSE(plan.has_errors());
  EXPECT_LE(plan.total_size(), reported);
  EXPECT_GE(plan.total_size(), plan.lower_bound_bytes);
  EXPECT_TRUE(std::any_of(plan.diagnostics.begin(), plan.diagnostics.end(), [](const Diagnostic& d) {
    return d.message.find("search cancelled") != std::string::npos;
  })) << "the note says the search was cancelled";
}

INSTANTIATE_TEST_SUITE_P(Reporting, CancelledSearch, ::testing::Values("exact", "best"),
                         [](const auto& param_info) { return std::string(param_info.param); });

// Progress reports only ever get better and end with the plan returned; a step budget bounds the
// search, so the same budget gives the same reports and plan on any machine, and a larger one
// reaches MiniMalloc's optimum of B.
TEST(Anytime, SearchReportsProgressWithinAStepBudget) {
  USMPX_REQUIRE_SHARED(path, "benchmarks/minimalloc/B.1048576.csv");
  const Problem problem = load_csv(path);
  auto run_with = [&](int64_t steps, std::vector<int64_t>& reported) {
    PlannerOptions options = testing::step_budget(steps);
    options.progress = [&](const PlannerProgress& p) { reported.push_back(p.best_total_bytes); };
    return run_planner(*make_planner("exact"), problem, options);
  };
  std::vector<int64_t> first;
  std::vector<int64_t> again;
  const Plan small = run_with(kSmallBudget, first);
  const Plan same = run_with(kSmallBudget, again);
  EXPECT_EQ(first, again);
  EXPECT_EQ(small.allocations, same.allocations);
  ASSERT_FALSE(first.empty());
  EXPECT_TRUE(std::is_sorted(first.rbegin(), first.rend()));  // only ever better
  EXPECT_EQ(first.back(), small.total_size());
  EXPECT_EQ(small.total_size(), kSmallBudgetReaches);
  EXPECT_FALSE(small.proven_optimal);

  std::vector<int64_t> enough;
  const Plan optimum = run_with(kLargeBudget, enough);
  EXPECT_EQ(optimum.total_size(), 1048576);
  EXPECT_TRUE(optimum.proven_optimal);
  ASSERT_FALSE(enough.empty());
  EXPECT_EQ(enough.back(), 1048576);
  EXPECT_TRUE(std::is_sorted(enough.rbegin(), enough.rend()));
}

struct Reached {
  const char* file;
  const char* planner;
  int64_t size;
  bool optimal;
};

class SharedBenchmarks : public ::testing::TestWithParam<Reached> {};

TEST_P(SharedBenchmarks, PlannerReaches) {
  USMPX_REQUIRE_SHARED(path, std::string("benchmarks/") + GetParam().file);
  const Problem problem = load_csv(path);
  const Plan plan = run_planner(*make_planner(GetParam().planner), problem, testing::step_budget(kBenchmarkBudget));
  EXPECT_FALSE(plan.has_errors());
  EXPECT_EQ(plan.total_size(), GetParam().size);
  EXPECT_EQ(plan.proven_optimal, GetParam().optimal);
}

INSTANTIATE_TEST_SUITE_P(Files, SharedBenchmarks,
                         ::testing::Values(
                             // TVM's deep_speech and TFLM's person detection: the lower bound.
                             Reached{"derived/tvm_deep_speech.csv", "best", 100352, true},
                             Reached{"derived/tvm_deep_speech.csv", "exact", 100352, true},
                             Reached{"derived/tvm_deep_speech.csv", "first_fit", 100352, true},
                             Reached{"derived/tvm_deep_speech.csv", "best_fit_size", 100352, true},
                             Reached{"derived/tvm_deep_speech.csv", "best_fit_duration_size", 139264, false},
                             Reached{"derived/tflm_person_detection.csv", "best", 64512, true},
                             Reached{"derived/tflm_person_detection.csv", "first_fit", 64512, true},
                             // MiniMalloc's example (optimum 12) and two challenging files the search closes quickly.
                             Reached{"minimalloc/input.12.csv", "best", 12, true},
                             Reached{"minimalloc/input.12.csv", "exact", 12, true},
                             Reached{"minimalloc/A.1048576.csv", "first_fit", 1352704, false},
                             Reached{"minimalloc/A.1048576.csv", "exact", 1048576, true},
                             Reached{"minimalloc/C.1048576.csv", "exact", 1039360, true},
                             Reached{"minimalloc/C.1048576.csv", "best", 1039360, true},
                             // idealloc's ResNet-50 trace: the lower bound (MiniMalloc needs 12 s on this machine).
                             Reached{"idealloc/somas_tensors/resnet50.csv", "exact", 1515472556, true}),
                         [](const auto& param_info) {
                           std::string name = std::string(param_info.param.file) + "_" + param_info.param.planner;
                           for (char& c : name)
                             c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

TEST(SharedBenchmarks, Y1FirstFitPlansEverything) {
  USMPX_REQUIRE_SHARED(path, "benchmarks/idealloc/iopddl/Y_1.csv");
  const Problem problem = load_csv(path);
  ASSERT_EQ(problem.buffers.size(), 62185u);
  const Plan plan = run("first_fit", problem, 5.0);
  EXPECT_TRUE(plan_fits(problem, plan));
  EXPECT_FALSE(plan.has_errors());
  EXPECT_EQ(plan.total_size(), 499031546849);
}

}  // namespace
}  // namespace usmpx
