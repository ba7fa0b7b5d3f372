// The figures for TFLM's older versions (2023-06-30, 2024-05-29, 2025-02-07) against what TFLM
// itself printed when built at those commits (../shared/tflite/versions/tflm_versions.json,
// x86-64, reference kernels): the recording arena of all 313 operator models and of the shared
// models, the smallest arena of the shared models and 40 operator models, each refusal with that
// version's message, and the proof table each version's figures follow.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/config_error.h"
#include "frontends/tflite/tflm_kernels.h"
#include "frontends/tflite/tflm_min_arena.h"
#include "frontends/tflite/tflm_support.h"
#include "frontends/tflite/tflm_version_rules.h"
#include "planners/registry.h"
#include "test_support.h"
#include "tflm_truth.h"

namespace usmpx {
namespace {

constexpr TflmVersion kOlder[] = {TflmVersion::k2023_06_30, TflmVersion::k2024_05_29, TflmVersion::k2025_02_07};

TflmBuild x86(TflmVersion version) {
  return {TflmKernels::kReference, TflmTarget::kX86_64, version};
}

// A model of ../shared/tflite read once, analysed for each version.
struct ModelBytes {
  std::string path;
  std::string bytes;
};

ModelBytes read_model(const std::string& name) {
  std::string path = testing::shared_path("tflite/ops/models/" + name + ".tflite");
  if (path.empty()) path = testing::shared_path("tflite/models/" + name + ".tflite");
  return {path, path.empty() ? "" : read_tflite_file(path)};
}

TfliteAnalysis analyse(const ModelBytes& m, TflmVersion version) {
  TfliteLoadOptions options;
  options.build = x86(version);
  return analyse_tflite(m.bytes, m.path, options);
}

Plan plan_of(const TfliteAnalysis& a) {
  return a.as_built ? *a.as_built : run_planner(*make_planner("tflm_greedy"), a.problem, {});
}

// TFLM's own message in a 'why' (its first line, up to " | ").
std::string tflm_message(const std::string& why) {
  return why.substr(0, why.find(" | "));
}

class TflmVersions : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string path = testing::shared_path("tflite/versions/tflm_versions.json");
    if (path.empty()) GTEST_SKIP() << "shared data not found: tflite/versions/tflm_versions.json";
    static const nlohmann::json json = [&] {
      std::ifstream in(path);
      return nlohmann::json::parse(in)["versions"];
    }();
    versions_ = &json;
  }
  const nlohmann::json& version(TflmVersion v) const { return (*versions_)[std::string(to_string(v))]; }
  const nlohmann::json* versions_ = nullptr;
};

// Every model a version ran: its recording arena equal (head, tail, total, the tail's categories);
// the variants held per version are the proof table's for that version; a model it refused is
// refused with its message.
TEST_F(TflmVersions, EveryModelEqualsEachVersionsRecordingAndRefusalsQuoteItsMessage) {
  std::map<TflmVersion, std::set<std::string>> seen, failed;
  std::map<TflmVersion, int> equal, refused;
  for (const char* set : {"ops", "models"}) {
    for (const auto& [name, unused] : version(kOlder[0])[set].items()) {
      const ModelBytes m = read_model(name);
      ASSERT_FALSE(m.path.empty()) << name;
      for (TflmVersion v : kOlder) {
        const nlohmann::json& rec = version(v)[set][name]["rec"];
        SCOPED_TRACE(name + " on " + std::string(to_string(v)));
        const TfliteAnalysis a = analyse(m, v);
        if (!rec["runs"].get<bool>()) {
          const std::string why = rec["why"].get<std::string>();
          // The Ethos-U operator needs a build with its driver: the warning says so in its own words.
          if (why.find("op code CUSTOM") != std::string::npos) continue;
          const std::string message = tflm_message(why);
          std::string warnings;
          for (const Diagnostic& d : a.warnings)
            if (d.code == "tflm-refuses") warnings += d.message + "\n";
          EXPECT_NE(warnings.find(message), std::string::npos) << warnings << "TFLM: " << message;
          const char* when = rec["rc"].get<int>() == 5 ? "at Invoke" : "at AllocateTensors";
          EXPECT_NE(warnings.find(when), std::string::npos) << warnings;
          ++refused[v];
          continue;
        }
        const bool ok = testing::expect_equal_to_tflm(a, rec);
        equal[v] += ok ? 1 : 0;
        for (const TflmOperatorTail& op : a.tail.operators) {
          seen[v].insert(op.variant);
          if (!ok) failed[v].insert(op.variant);
        }
      }
    }
  }
  // Models each version runs and refuses, of 313 + 52 (the Ethos-U model not counted; a VAR_HANDLE
  // model is refused in every version, whose driver made no resource-variable store).
  EXPECT_EQ(equal[TflmVersion::k2023_06_30], 318);
  EXPECT_EQ(equal[TflmVersion::k2024_05_29], 334);
  EXPECT_EQ(equal[TflmVersion::k2025_02_07], 340);
  EXPECT_EQ(refused[TflmVersion::k2023_06_30], 46);
  EXPECT_EQ(refused[TflmVersion::k2024_05_29], 30);
  EXPECT_EQ(refused[TflmVersion::k2025_02_07], 24);
  for (TflmVersion v : kOlder) {
    std::vector<std::string> held;
    for (const std::string& variant : seen[v])
      if (!failed[v].count(variant)) held.push_back(variant);
    const std::vector<std::string> proven = tflm_proven_variants(x86(v));
    std::vector<std::string> only_proven, only_held;
    std::set_difference(proven.begin(), proven.end(), held.begin(), held.end(), std::back_inserter(only_proven));
    std::set_difference(held.begin(), held.end(), proven.begin(), proven.end(), std::back_inserter(only_held));
    EXPECT_TRUE(only_proven.empty() && only_held.empty())
        << to_string(v) << ": proven but not held: " << ::testing::PrintToString(only_proven)
        << "; held but not proven: " << ::testing::PrintToString(only_held);
  }
}

// The smallest arena a plain MicroInterpreter runs in, on the shared models and 40 operator
// models, equal to each version's (never below it).
TEST_F(TflmVersions, TheSmallestArenaEqualsEachVersionsAndIsNeverBelowIt) {
  int checked = 0;
  for (const auto& [name, unused] : version(kOlder[0])["models"].items()) {
    const ModelBytes m = read_model(name);
    for (TflmVersion v : kOlder) {
      const nlohmann::json& min = version(v)["models"][name]["min"];
      if (!min["runs"].get<bool>()) continue;
      SCOPED_TRACE(name + " on " + std::string(to_string(v)));
      const TfliteAnalysis a = analyse(m, v);
      const int64_t minimum = tflm_min_arena(a.tail, plan_of(a).pool_sizes[0]);
      const int64_t truth = min["min_arena"].get<int64_t>();
      EXPECT_GE(minimum, truth);
      if (name == "FULLY_CONNECTED_128to10_int8_perchannel" && v == TflmVersion::k2025_02_07) {
        // As on 90b983c (tflm_ops_test.cpp): its per-channel arrays are allocated while the
        // kernel's temporary tensors are held, and the replay asks 16 bytes more than TFLM.
        EXPECT_EQ(minimum, truth + 16);
      } else {
        EXPECT_EQ(minimum, truth);
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 48 + 49 + 50);
}

}  // namespace
}  // namespace usmpx

namespace usmpx {
namespace {

// No older version was measured on Cortex-M: a kernel whose structs differ there is named
// unverified and counted with the larger of its two sizes; kernels whose rules are the same, or
// differ only in target-independent bytes (scratch requests, int32 arrays), stay exact.
TEST(TflmVersionsOnCortexM, StructsThatDifferAreUnverifiedAndTakeTheLargerSize) {
  USMPX_REQUIRE_SHARED(person, "tflite/models/person_detect.tflite");
  const TflmBuild m4_2023{TflmKernels::kReference, TflmTarget::kCortexM, TflmVersion::k2023_06_30};
  const TfliteAnalysis old = testing::analyse_tflite_file(person, m4_2023);
  const TfliteAnalysis now = testing::analyse_tflite_file(person, TflmBuild{});
  EXPECT_FALSE(old.tail.exact);
  EXPECT_EQ(old.tail.unproven, std::vector<std::string>(14, "CONV_2D INT8>INT8 per-channel"));
  // CONV_2D's options struct was 24 bytes in 2023, 28 now: the figure counts 28.
  EXPECT_EQ(old.tail.bytes, now.tail.bytes);
  EXPECT_EQ(tflm_min_arena(old.tail, 55296), 82296);
  // MEAN int8 on 2025-02-07: one scratch buffer fewer than 90b983c's and an op data of 40 bytes
  // (counted as 44): unverified, the head its own.
  USMPX_REQUIRE_SHARED(mean, "tflite/ops/models/MEAN_int8.tflite");
  const TflmBuild m4_2025{TflmKernels::kReference, TflmTarget::kCortexM, TflmVersion::k2025_02_07};
  const TfliteAnalysis mean_old = testing::analyse_tflite_file(mean, m4_2025);
  EXPECT_EQ(mean_old.tail.unproven, std::vector<std::string>{"MEAN INT8>INT8"});
  EXPECT_EQ(mean_old.operators[0].scratch_buffers.size(), 1u);
  // CONCATENATION int8 on 2024-05-29: two more int32 arrays, the same on every target: exact.
  USMPX_REQUIRE_SHARED(concat, "tflite/ops/models/CONCATENATION_int8.tflite");
  const TflmBuild m4_2024{TflmKernels::kReference, TflmTarget::kCortexM, TflmVersion::k2024_05_29};
  const TfliteAnalysis concat_old = testing::analyse_tflite_file(concat, m4_2024);
  const TfliteAnalysis concat_now = testing::analyse_tflite_file(concat, TflmBuild{});
  EXPECT_TRUE(concat_old.tail.exact);
  EXPECT_EQ(concat_old.tail.bytes, concat_now.tail.bytes + 32);
  // CMSIS-NN's own kernels were measured on 90b983c only.
  const TflmBuild cmsis_2025{TflmKernels::kCmsisNn, TflmTarget::kCortexM, TflmVersion::k2025_02_07};
  const TfliteAnalysis cmsis_old = testing::analyse_tflite_file(person, cmsis_2025);
  EXPECT_FALSE(cmsis_old.tail.exact);
  // Which kernels those are is said by their entries (TflmKernel::cmsis_nn): CONV_2D is one,
  // RESHAPE is not.
  EXPECT_EQ(tflm_version_unverified("CONV_2D INT8>INT8 per-channel", cmsis_2025),
            "CMSIS-NN measured on TFLM 90b983c only");
  EXPECT_EQ(tflm_version_unverified("RESHAPE INT8>INT8", cmsis_2025), "");
  // The variants the versions' recordings hold no figure of are listed by their entries too
  // (TflmChange::kNotMeasured): NEG INT8 fails at Invoke everywhere, NEG FLOAT32 was measured.
  EXPECT_EQ(tflm_version_unverified("NEG INT8>INT8", m4_2024), "not measured on TFLM 2024-05-29");
  EXPECT_EQ(tflm_version_unverified("NEG FLOAT32>FLOAT32", m4_2024), "");
  EXPECT_EQ(tflm_version_unverified("NEG INT8>INT8", TflmBuild{}), "");
}

// A date between two known versions: a kernel whose rules agree in both keeps them (hello_world
// on x86-64 between 2025-02-07 and 90b983c: 2025-02-07's exact figure); one whose rules differ is
// counted with the larger (MEAN: 90b983c's three scratch buffers) and named; what only one of the
// two refuses is a warning, not a certain refusal.
TEST(TflmVersionsBetween, AgreeingRulesStayAndDifferingOnesTakeTheLargerNamed) {
  USMPX_REQUIRE_SHARED(hello, "tflite/models/hello_world_int8.tflite");
  const TflmBuild between = tflm_build_from("reference", "x86-64", "2025-06-01");
  EXPECT_EQ(between.version, TflmVersion::k2025_02_07);
  EXPECT_EQ(between.newer, TflmVersion::k90b983c);
  EXPECT_EQ(describe(between), "TFLM tflite-micro of 2025-06-01 (between 2025-02-07 and 90b983c), reference, x86-64");
  const TfliteAnalysis hello_between = testing::analyse_tflite_file(hello, between);
  const TfliteAnalysis hello_2025 = testing::analyse_tflite_file(hello, x86(TflmVersion::k2025_02_07));
  EXPECT_TRUE(hello_between.tail.exact);
  EXPECT_EQ(hello_between.tail.bytes, hello_2025.tail.bytes);
  USMPX_REQUIRE_SHARED(mean, "tflite/ops/models/MEAN_int8.tflite");
  const TfliteAnalysis mean_between = testing::analyse_tflite_file(mean, between);
  const TfliteAnalysis mean_now = testing::analyse_tflite_file(mean, x86(TflmVersion::k90b983c));
  EXPECT_EQ(mean_between.tail.unproven, std::vector<std::string>{"MEAN INT8>INT8"});
  EXPECT_EQ(mean_between.operators[0].scratch_buffers.size(), 3u);
  EXPECT_EQ(plan_of(mean_between).pool_sizes[0], plan_of(mean_now).pool_sizes[0]);
  EXPECT_EQ(tflm_version_unverified("MEAN INT8>INT8", between),
            "may differ between TFLM 2025-02-07 and 90b983c (the larger rule taken)");
  // Per-channel FULLY_CONNECTED: 2024-05-29 refuses it, 2025-02-07 runs it.
  USMPX_REQUIRE_SHARED(fc, "tflite/ops/models/FULLY_CONNECTED_int8_perchannel.tflite");
  const TfliteAnalysis fc_between =
      testing::analyse_tflite_file(fc, tflm_build_from("reference", "cortex-m", "2024-09-01"));
  EXPECT_TRUE(tflm_certain_refusals(fc_between.warnings).empty());
  ASSERT_FALSE(fc_between.warnings.empty());
  EXPECT_NE(fc_between.warnings.front().message.find("perhaps (TFLM 2024-05-29 refuses it at AllocateTensors)"),
            std::string::npos)
      << fc_between.warnings.front().message;
  EXPECT_FALSE(fc_between.tail.exact);
  EXPECT_THROW(tflm_build_from("reference", "cortex-m", "2022-01-01"), ConfigError);
  EXPECT_THROW(tflm_build_from("reference", "cortex-m", "2027-01-01"), ConfigError);
}

}  // namespace
}  // namespace usmpx
