// Every builtin kernel TFLM 90b983c registers, in every type variant its kernels take, against
// TFLM's own figures for 313 single-operator models (../shared/tflite/ops/tflm_ops_arena.json) in
// its three builds; the kernel entries' proven variants (kernels/*.cpp) against what these tests and the real models of
// ../shared/tflite/models hold; the smallest
// arena a plain MicroInterpreter runs in (../shared/tflite/tflm_min_arena.json).
#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "frontends/tflite/kernels/tflm_kernel_registry.h"
#include "frontends/tflite/tflm_kernels.h"
#include "frontends/tflite/tflm_min_arena.h"
#include "planners/registry.h"
#include "test_support.h"
#include "tflm_truth.h"

namespace usmpx {
namespace {

using testing::kTflmBuilds;

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

class TflmOps : public ::testing::Test {
 protected:
  void SetUp() override {
    json_ = testing::shared_path("tflite/ops/tflm_ops_arena.json");
    if (json_.empty()) GTEST_SKIP() << "shared data not found: tflite/ops/tflm_ops_arena.json";
  }
  static std::string model_path(const std::string& name) {
    return testing::shared_path("tflite/ops/models/" + name + ".tflite");
  }
  std::string json_;
};

TEST_F(TflmOps, EveryOperatorModelEqualsTflmInEveryBuildAndTheProofTableIsWhatThatHolds) {
  const nlohmann::json models = read_json(json_)["models"];
  // Per kernel set, the variants seen and those seen in a model that did not match.
  std::map<TflmKernels, std::set<std::string>> seen, failed;
  int checked = 0;
  for (const auto& [name, model] : models.items()) {
    for (const testing::TflmBuildCase& b : kTflmBuilds) {
      const nlohmann::json& truth = model[b.key];
      if (!truth.contains("head")) continue;  // TFLM refused it in AllocateTensors
      SCOPED_TRACE(name + " " + b.key);
      const TfliteAnalysis a = testing::analyse_tflite_file(model_path(name), b.build);
      const bool equal = testing::expect_equal_to_tflm(a, truth);
      for (const TflmOperatorTail& op : a.tail.operators) {
        seen[b.build.kernels].insert(op.variant);
        if (!equal) failed[b.build.kernels].insert(op.variant);
      }
      if (equal) {
        EXPECT_TRUE(a.tail.exact) << "equal to TFLM but not proven";
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 3 * 305 + 3 * 3);  // 305 models TFLM runs, 3 more it refuses at Invoke only
  // The real models of ../shared/tflite/models hold their variants too.
  const std::string real = testing::shared_path("tflite/tflm_arena.json");
  ASSERT_FALSE(real.empty());
  const nlohmann::json real_models = read_json(real)["models"];
  for (const auto& [name, model] : real_models.items()) {
    for (const testing::TflmBuildCase& b : kTflmBuilds) {
      const nlohmann::json& truth = model[b.key];
      if (!truth["runs"].get<bool>()) continue;
      SCOPED_TRACE(name + " " + b.key);
      const TfliteAnalysis a =
          testing::analyse_tflite_file(testing::shared_path("tflite/models/" + name + ".tflite"), b.build);
      const bool equal = testing::expect_equal_to_tflm(a, truth);
      for (const TflmOperatorTail& op : a.tail.operators) {
        seen[b.build.kernels].insert(op.variant);
        if (!equal) failed[b.build.kernels].insert(op.variant);
      }
    }
  }
  // The Ethos-U model (reference kernels; TflmEthosU.* holds every figure): what TFLM printed with
  // its ethos_u kernel on a Cortex-M.
  const std::string ethos = testing::shared_path("tflite/tflm_ethos_u.json");
  ASSERT_FALSE(ethos.empty());
  const nlohmann::json vela = read_json(ethos)["models"]["person_detect_vela"]["cortex_m55"];
  const TfliteAnalysis npu = testing::analyse_tflite_file(
      testing::shared_path("tflite/models/person_detect_vela.tflite"), {TflmKernels::kReference, TflmTarget::kCortexM});
  const bool npu_equal = npu.as_built && npu.as_built->pool_sizes[0] == vela["head"].get<int64_t>() &&
                         npu.tail.bytes == vela["tail"].get<int64_t>();
  for (const TflmOperatorTail& op : npu.tail.operators) {
    seen[TflmKernels::kReference].insert(op.variant);
    if (!npu_equal) failed[TflmKernels::kReference].insert(op.variant);
  }
  std::map<TflmKernels, std::vector<std::string>> held;
  for (TflmKernels kernels : {TflmKernels::kReference, TflmKernels::kCmsisNn})
    for (const std::string& v : seen[kernels])
      if (!failed[kernels].count(v)) held[kernels].push_back(v);
  // The entries' proven lists as they should read: a variant held by one kernel set only is
  // prefixed with its name.
  std::string table;
  std::set<std::string> all(held[TflmKernels::kReference].begin(), held[TflmKernels::kReference].end());
  all.insert(held[TflmKernels::kCmsisNn].begin(), held[TflmKernels::kCmsisNn].end());
  for (const std::string& v : all) {
    const bool reference = std::count(held[TflmKernels::kReference].begin(), held[TflmKernels::kReference].end(), v);
    const bool cmsis = std::count(held[TflmKernels::kCmsisNn].begin(), held[TflmKernels::kCmsisNn].end(), v);
    const size_t space = v.find(' ');
    table += v.substr(0, space) + ": \"" +
             (reference && cmsis ? ""
              : reference        ? "reference: "
                                 : "cmsis_nn: ") +
             v.substr(space + 1) + "\"\n";
  }
  for (TflmKernels kernels : {TflmKernels::kReference, TflmKernels::kCmsisNn})
    EXPECT_EQ(tflm_proven_variants(kernels), held[kernels]) << "the entries' proven lists should read:\n" << table;
}

TEST_F(TflmOps, NoBuiltinKernelIsLeftWithoutARule) {
  // The 99 builtins of the table are every operator the ground truth holds but none other.
  const nlohmann::json models = read_json(json_)["models"];
  std::set<std::string> ops;
  for (const auto& [name, model] : models.items())
    for (const auto& op : model["reference_cortex_m4"].value("operators", nlohmann::json::array()))
      ops.insert(op["op"].get<std::string>());
  std::set<std::string> table;
  for (const TflmKernel* e : tflm_kernels())
    if (!e->custom) table.insert(std::string(e->name));
  EXPECT_EQ(table.size(), 99u);
  EXPECT_EQ(table, ops);
}

TEST_F(TflmOps, ModelsTflmRefusesAreWarnedWithItsReason) {
  const nlohmann::json models = read_json(json_)["models"];
  int refused = 0;
  for (const auto& [name, model] : models.items()) {
    for (const testing::TflmBuildCase& b : kTflmBuilds) {
      const nlohmann::json& truth = model[b.key];
      if (truth["runs"].get<bool>() || !truth.contains("why")) continue;
      SCOPED_TRACE(name + " " + b.key);
      const std::string why = truth["why"].get<std::string>();
      const TfliteAnalysis a = testing::analyse_tflite_file(model_path(name), b.build);
      ASSERT_EQ(a.warnings.size(), 1u);
      const std::string& warning = a.warnings[0].message;
      EXPECT_NE(warning.find(why.rfind("exit 4", 0) == 0 ? "at AllocateTensors" : "at Invoke"), std::string::npos)
          << warning;
      // TFLM's own message, as it prints it (after "exit N: ", up to its first " | ").
      const std::string message = why.substr(why.find(": ") + 2, why.find(" | ") - why.find(": ") - 2);
      EXPECT_NE(warning.find(message), std::string::npos) << warning << "\nTFLM: " << message;
      ++refused;
    }
  }
  EXPECT_EQ(refused, 8 * 3);
}

TEST(TflmMinArena, TheSmallestArenaEqualsTflmsOnEveryModelAndBuild) {
  const std::string json = testing::shared_path("tflite/tflm_min_arena.json");
  if (json.empty()) GTEST_SKIP() << "shared data not found: tflite/tflm_min_arena.json";
  const nlohmann::json builds = read_json(json)["builds"];
  int checked = 0;
  for (const testing::TflmBuildCase& b : kTflmBuilds) {
    for (const auto& [name, m] : builds[b.key].items()) {
      SCOPED_TRACE(name + " " + b.key);
      const std::string set = m["model_set"].get<std::string>();
      const TfliteAnalysis a =
          testing::analyse_tflite_file(testing::shared_path("tflite/" + set + name + ".tflite"), b.build);
      const Plan plan = a.as_built ? *a.as_built : run_planner(*make_planner("tflm_greedy"), a.problem, {});
      EXPECT_EQ(plan.pool_sizes[0], m["recording_head"].get<int64_t>());
      const int64_t minimum = tflm_min_arena(a.tail, plan.pool_sizes[0]);
      const int64_t truth = m["min_arena"].get<int64_t>();
      if (name == "FULLY_CONNECTED_128to10_int8_perchannel") {
        // The one model whose minimum the kernel's temporary tensors decide while it allocates its
        // per-channel arrays: the replay asks 16 bytes more than TFLM (never fewer).
        EXPECT_EQ(minimum, truth + 16);
      } else {
        EXPECT_EQ(minimum, truth);
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 3 * 51);
}

}  // namespace
}  // namespace usmpx
