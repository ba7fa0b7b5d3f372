// An Ethos-U model (Vela's output: one ethos-u custom operator over an offline plan that overlaps
// input, output, scratch and scratch_fast on purpose) against what TFLM 90b983c with its real
// ethos_u kernel printed (../shared/tflite/tflm_ethos_u.json): the recording head and tail by
// category, every planned buffer, and the smallest arena, on Cortex-M55, Cortex-M4 and x86-64.
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/config_error.h"
#include "frontends/tflite/tflm_min_arena.h"
#include "planners/common/validator.h"
#include "test_support.h"
#include "tflm_truth.h"

namespace usmpx {
namespace {

struct EthosBuild {
  const char* key;  // the build's entry in tflm_ethos_u.json ("cortex_m4" is "same_as" cortex_m55)
  const char* figures;
  TflmBuild build;
};

constexpr EthosBuild kBuilds[] = {
    {"cortex_m55", "cortex_m55", {TflmKernels::kReference, TflmTarget::kCortexM55}},
    {"cortex_m4", "cortex_m55", {TflmKernels::kReference, TflmTarget::kCortexM}},
    {"x86_64", "x86_64", {TflmKernels::kReference, TflmTarget::kX86_64}},
};

TEST(TflmEthosU, VelaModelEqualsTflmWithItsEthosUKernelInEveryBuild) {
  const std::string json = testing::shared_path("tflite/tflm_ethos_u.json");
  const std::string model = testing::shared_path("tflite/models/person_detect_vela.tflite");
  if (json.empty() || model.empty()) GTEST_SKIP() << "shared data not found: tflite/tflm_ethos_u.json";
  std::ifstream in(json);
  const nlohmann::json truth = nlohmann::json::parse(in)["models"]["person_detect_vela"];
  for (const EthosBuild& b : kBuilds) {
    SCOPED_TRACE(b.key);
    const nlohmann::json& t = truth[b.figures];
    const TfliteAnalysis a = testing::analyse_tflite_file(model, b.build);
    ASSERT_TRUE(a.as_built);
    EXPECT_TRUE(a.unknown_scratch.empty());
    EXPECT_TRUE(a.tail.exact);
    EXPECT_TRUE(a.warnings.empty()) << a.warnings.front().message;  // Vela's overlaps are its intent
    EXPECT_TRUE(validate(a.problem, *a.as_built).empty());
    EXPECT_EQ(a.as_built->pool_sizes[0], t["head"].get<int64_t>());
    EXPECT_EQ(a.tail.bytes, t["tail"].get<int64_t>());
    for (const TflmTailCategory& c : a.tail.categories) {
      EXPECT_EQ(c.used, t["categories"][c.name]["used"].get<int64_t>()) << c.name;
      EXPECT_EQ(c.requested, t["categories"][c.name]["requested"].get<int64_t>()) << c.name;
      EXPECT_EQ(c.count, t["categories"][c.name]["count"].get<int64_t>()) << c.name;
    }
    ASSERT_EQ(a.problem.buffers.size(), t["buffers"].size());
    for (const auto& buf : t["buffers"]) {
      const auto id = buf["id"].get<size_t>();
      EXPECT_EQ(a.problem.buffers[id].size_bytes, buf["size"].get<int64_t>()) << "buffer " << id;
      EXPECT_EQ(a.as_built->allocations[id].offset, buf["offset"].get<int64_t>()) << "buffer " << id;
      EXPECT_EQ(a.problem.buffers[id].lifetime->first(), buf["first"].get<int64_t>()) << "buffer " << id;
      EXPECT_EQ(a.problem.buffers[id].lifetime->last(), buf["last"].get<int64_t>()) << "buffer " << id;
    }
    EXPECT_EQ(tflm_min_arena(a.tail, a.as_built->pool_sizes[0]), truth[b.key]["min_arena"].get<int64_t>());
  }
}

TEST(TflmEthosU, CmsisNnOnCortexM55IsRefused) {
  EXPECT_THROW(tflm_build_from("cmsis_nn", "cortex-m55"), ConfigError);
  EXPECT_EQ(tflm_build_from("reference", "cortex-m55").target, TflmTarget::kCortexM55);
  EXPECT_EQ(to_string(TflmTarget::kCortexM55), "cortex-m55");
}

}  // namespace
}  // namespace usmpx
