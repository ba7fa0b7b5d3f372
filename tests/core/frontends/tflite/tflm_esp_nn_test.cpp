// The figures for Espressif's esp-tflite-micro (TFLM 90b983c) on the ESP32 targets, with its
// ESP-NN kernels (esp-nn 1.2.3) and with the reference kernels, against what that tree printed in
// the ESP32 data layout (../shared/tflite/tflm_esp_nn.json): every shared model's head, tail and
// each ESP-NN scratch request, for the S3, the generic optimised path and the ANSI C fallback.
#include <fstream>
#include <regex>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/config_error.h"
#include "frontends/tflite/tflm_kernels.h"
#include "planners/registry.h"
#include "test_support.h"
#include "tflm_truth.h"

namespace usmpx {
namespace {

// The file's builds: its key, the kernels and the targets it holds for (the reference kernels
// depend on the layout only, so each ESP32 target must give the same figures).
struct EspCase {
  const char* key;
  TflmKernels kernels;
  std::vector<TflmTarget> targets;
};

const std::vector<EspCase>& esp_cases() {
  static const std::vector<EspCase> cases = {
      {"reference", TflmKernels::kReference, {TflmTarget::kEsp32S3, TflmTarget::kEsp32, TflmTarget::kEspAnsi}},
      {"ansi", TflmKernels::kEspNn, {TflmTarget::kEspAnsi}},
      {"opt", TflmKernels::kEspNn, {TflmTarget::kEsp32}},
      {"s3", TflmKernels::kEspNn, {TflmTarget::kEsp32S3}},
  };
  return cases;
}

// "conv in=48x48x8 ... -> 320": the size function's result.
int64_t query_result(const std::string& query) {
  static const std::regex result(R"(-> (\d+)$)");
  std::smatch m;
  if (!std::regex_search(query, m, result)) return -1;
  return std::stoll(m[1]);
}

// The ESP-NN scratch requests of every operator, in Prepare order (the file lists those, not the
// reference kernels' of MEAN, SVDF or LSTM): unrounded (the rules') and as planned.
struct Requests {
  std::vector<int64_t> asked, planned;
};

Requests scratch_requests(const TfliteAnalysis& a) {
  Requests r;
  for (const TfliteOperatorInfo& info : a.operators) {
    const TfliteSubgraph& g = a.model.subgraphs[static_cast<size_t>(info.subgraph)];
    const ScratchNeed need = scratch_need(a.model, g, g.operators[static_cast<size_t>(info.index)], a.build);
    if (need.rule.rfind("ESP-NN", 0) != 0) continue;
    r.asked.insert(r.asked.end(), need.bytes.begin(), need.bytes.end());
    for (int b : info.scratch_buffers)
      r.planned.push_back(a.problem.buffers[static_cast<size_t>(b)].size_bytes);
  }
  return r;
}

class TflmEspNn : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string path = testing::shared_path("tflite/tflm_esp_nn.json");
    if (path.empty()) GTEST_SKIP() << "shared data not found: tflite/tflm_esp_nn.json";
    static const nlohmann::json json = [&] {
      std::ifstream in(path);
      return nlohmann::json::parse(in)["models"];
    }();
    models_ = &json;
  }
  const nlohmann::json* models_ = nullptr;
};

// Every model the tree ran: head (TFLM's greedy plan with the scratch buffers), tail and total
// equal, the scratch requests those of the file's queries in order, and the figure exact.
TEST_F(TflmEspNn, EveryModelsHeadTailAndScratchEqualTheFileOnEachTarget) {
  int compared = 0;
  std::set<std::string> seen;
  for (const auto& [name, builds] : models_->items()) {
    const std::string path = testing::shared_path("tflite/models/" + name + ".tflite");
    ASSERT_FALSE(path.empty()) << name;
    for (const EspCase& c : esp_cases()) {
      const nlohmann::json& truth = builds[c.key];
      if (!truth["runs"].get<bool>()) continue;  // the Vela model: no Ethos-U kernel in esp-tflite-micro
      for (const TflmTarget target : c.targets) {
        const TflmBuild build{c.kernels, target};
        SCOPED_TRACE(name + " " + c.key + " " + describe(build));
        const TfliteAnalysis a = testing::analyse_tflite_file(path, build);
        ASSERT_TRUE(a.unknown_scratch.empty()) << a.unknown_scratch.front();
        const Plan plan = run_planner(*make_planner("tflm_greedy"), a.problem, PlannerOptions{});
        EXPECT_EQ(plan.pool_sizes[0], truth["head"].get<int64_t>());
        EXPECT_EQ(a.tail.bytes, truth["tail"].get<int64_t>());
        EXPECT_EQ(plan.pool_sizes[0] + a.tail.bytes, truth["total"].get<int64_t>());
        std::vector<int64_t> expected;
        for (const auto& query : truth["scratch"])
          expected.push_back(query_result(query.get<std::string>()));
        const Requests requests = scratch_requests(a);
        EXPECT_EQ(requests.asked, expected);
        ASSERT_EQ(requests.planned.size(), expected.size());
        for (size_t k = 0; k < expected.size(); ++k)
          EXPECT_EQ(requests.planned[k], (expected[k] + 15) / 16 * 16) << "scratch buffer " << k;
        for (const TflmOperatorTail& op : a.tail.operators)
          seen.insert(op.variant);
        EXPECT_TRUE(a.tail.exact) << (a.tail.unproven.empty() ? "" : a.tail.unproven.front());
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, 11 * 6);  // 11 models that run, reference on three targets and ESP-NN on each
  // The variants the kernel entries hold on the ESP32 layout are those the file holds.
  const std::vector<std::string> held = tflm_proven_variants(TflmBuild{TflmKernels::kEspNn, TflmTarget::kEsp32S3});
  EXPECT_EQ(std::vector<std::string>(seen.begin(), seen.end()), held);
}

// The S3's int8 convolutions are what the file holds: person_detect asks for 40,160 more bytes of
// head than the reference kernels (the issue's figure), and a code path the file does not cover
// keeps the figure "at least", naming the variant.
TEST_F(TflmEspNn, PersonDetectOnTheS3AndAnUncoveredPathIsNamed) {
  const std::string path = testing::shared_path("tflite/models/person_detect.tflite");
  const TfliteAnalysis s3 = testing::analyse_tflite_file(path, {TflmKernels::kEspNn, TflmTarget::kEsp32S3});
  const TfliteAnalysis ref = testing::analyse_tflite_file(path, {TflmKernels::kReference, TflmTarget::kEsp32S3});
  const auto head = [](const TfliteAnalysis& a) {
    return run_planner(*make_planner("tflm_greedy"), a.problem, PlannerOptions{}).pool_sizes[0];
  };
  EXPECT_EQ(head(s3), 95456);
  EXPECT_EQ(head(ref), 55296);
  EXPECT_EQ(s3.tail.bytes, 27228);
  EXPECT_FALSE(tflm_variant_proven("DEPTHWISE_CONV_2D INT8>INT8 per-channel esp_nn:s3-3x3-strips",
                                   TflmBuild{TflmKernels::kEspNn, TflmTarget::kEsp32S3}));
  EXPECT_TRUE(tflm_variant_proven("DEPTHWISE_CONV_2D INT8>INT8 per-channel esp_nn:s3-3x3",
                                  TflmBuild{TflmKernels::kEspNn, TflmTarget::kEsp32S3}));
  // A variant held on Cortex-M is not held on the ESP32 layout, nor an ESP32 one on Cortex-M.
  EXPECT_FALSE(tflm_variant_proven("ADD FLOAT32>FLOAT32", TflmBuild{TflmKernels::kReference, TflmTarget::kEsp32}));
  EXPECT_TRUE(tflm_variant_proven("ADD FLOAT32>FLOAT32", TflmBuild{TflmKernels::kReference, TflmTarget::kCortexM}));
}

// ESP-NN is Espressif's, for the ESP32 targets and TFLM 90b983c only; CMSIS-NN is not for them.
TEST(TflmEspNnBuild, RefusesPairsNoFirmwareBuilds) {
  EXPECT_EQ(describe(tflm_build_from("esp_nn", "esp32s3")),
            "TFLM tflite-micro 90b983c, esp_nn (esp-nn 1.2.3), esp32s3");
  EXPECT_EQ(tflm_build_from("esp_nn", "esp32c3").target, TflmTarget::kEsp32);
  EXPECT_THROW(tflm_build_from("esp_nn", "cortex-m"), ConfigError);
  EXPECT_THROW(tflm_build_from("cmsis_nn", "esp32"), ConfigError);
  EXPECT_THROW(tflm_build_from("esp_nn", "esp32s3", "2024-05-29"), ConfigError);
}

}  // namespace
}  // namespace usmpx
