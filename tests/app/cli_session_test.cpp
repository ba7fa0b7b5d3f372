// --session: a session saved in the explorer drives plan and export (pools, pins, algorithm).
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/text_file.h"
#include "cli_run.h"
#include "test_support.h"

namespace usmpx {
namespace {

using testing::run_usmpx;
namespace fs = std::filesystem;

// Splits the workspace into dtcm (16 KiB, preferred) and an added sram, pins PaddedInput2 to sram,
// algorithm best; its input is the bundled kws_dscnn dump (found relative to the session).
std::string session() {
  return testing::source_path("examples/firmware/kws_dscnn.usmpx.json");
}

const nlohmann::json* allocation(const nlohmann::json& plan, const std::string& buffer) {
  for (const auto& a : plan["allocations"]) {
    if (a["buffer"] == buffer) return &a;
  }
  return nullptr;
}

TEST(CliSession, ExportTakesThePoolsPinsAndAlgorithmOfTheSession) {
  const fs::path out = fs::temp_directory_path() / "usmpx-cli-session-export";
  fs::remove_all(out);
  const auto run = run_usmpx({"export", "--session", session(), "--out", out.string()});
  ASSERT_EQ(run.code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("best plan: total 37,168 bytes"), std::string::npos) << run.out;
  const auto plan = nlohmann::json::parse(read_text_file((out / "codegen/host/usmpx_plan.json").string()));
  EXPECT_EQ(plan["algorithm"], "best");
  ASSERT_EQ(plan["pools"].size(), 3u);
  EXPECT_EQ(plan["pools"][0]["name"], "dtcm");
  EXPECT_EQ(plan["pools"][0]["size_hint_bytes"], 16384);
  EXPECT_LE(plan["pools"][0]["size_bytes"].get<int64_t>(), 16384);
  EXPECT_EQ(plan["pools"][1]["name"], "sram");
  EXPECT_EQ(plan["pools"][1]["size_bytes"], 12096);  // PaddedInput2 alone, as pinned
  ASSERT_NE(allocation(plan, "PaddedInput2"), nullptr);
  EXPECT_EQ((*allocation(plan, "PaddedInput2"))["pool"], "sram");
  // The session's linker section for dtcm reaches the fragment.
  EXPECT_NE(read_text_file((out / "codegen/host/usmpx_pools.ld").string()).find(".bss.dtcm"), std::string::npos);
  fs::remove_all(out);
}

TEST(CliSession, TheTflmBuildOfTheSessionApplies) {
  // A session saved in the explorer after Plan > TFLM Build > CMSIS-NN.
  const fs::path file = fs::temp_directory_path() / "usmpx-cli-session-tflm.usmpx.json";
  {
    std::ofstream out(file);
    out << nlohmann::json{{"format", "usmpx-session"},
                          {"version", 1},
                          {"input", testing::source_path("resources/examples/tiny_classifier.tflite")},
                          {"runtime_kernels", "cmsis_nn"},
                          {"runtime_target", "cortex-m"},
                          {"algorithm", "tflm_greedy"},
                          {"time_limit_seconds", 5},
                          {"pools",
                           {{{"name", "arena"},
                             {"kind", "workspace"},
                             {"size_hint_bytes", -1},
                             {"alignment", 16},
                             {"targets", {{"tflm", "rw"}}},
                             {"internal", false},
                             {"base", "arena"}}}},
                          {"pins", nlohmann::json::array()}}
               .dump();
  }
  const auto run = run_usmpx({"plan", "--session", file.string(), "--json"});
  ASSERT_EQ(run.code, 0) << run.out << run.err;
  EXPECT_EQ(nlohmann::json::parse(run.out)["tflm_arena"]["kernels"], "cmsis_nn");
  // The command line wins.
  const auto given = run_usmpx({"plan", "--session", file.string(), "--json", "--tflm-kernels", "reference"});
  EXPECT_EQ(nlohmann::json::parse(given.out)["tflm_arena"]["kernels"], "reference");
  // An ESP32 build named on the command line replaces the session's pair.
  const auto esp =
      run_usmpx({"plan", "--session", file.string(), "--json", "--tflm-kernels", "esp_nn", "--tflm-target", "esp32s3"});
  ASSERT_EQ(esp.code, 0) << esp.err;
  EXPECT_EQ(nlohmann::json::parse(esp.out)["tflm_arena"]["kernels"], "esp_nn");
  EXPECT_EQ(nlohmann::json::parse(esp.out)["tflm_arena"]["target"], "esp32s3");
  fs::remove(file);
}

TEST(CliSession, TheCommandLineWinsOverTheSession) {
  const std::string input = testing::source_path("resources/examples/kws_dscnn.tvmscript.py");
  const auto run =
      run_usmpx({"plan", input, "--session", session(), "--algorithm", "first_fit", "--pin", "sid_1=sram", "--json"});
  ASSERT_EQ(run.code, 0) << run.out << run.err;
  const auto plan = nlohmann::json::parse(run.out);
  EXPECT_EQ(plan["algorithm"], "first_fit");
  EXPECT_EQ((*allocation(plan, "sid_1"))["pool"], "sram");
  EXPECT_EQ((*allocation(plan, "PaddedInput2"))["pool"], "sram");
}

TEST(CliSession, ConflictsAndBrokenFilesAreRefused) {
  const auto pools = run_usmpx({"plan", "--session", session(), "--workspace-pools", "x"});
  EXPECT_EQ(pools.code, 2);
  EXPECT_NE(pools.err.find("pool options cannot be combined with it"), std::string::npos) << pools.err;
  // The as-built plan belongs to the input's own pools; a post-USMP dump with edited pools has none.
  const auto as_built = run_usmpx({"plan", testing::source_path("resources/examples/kws_dscnn.planned.tvmscript.py"),
                                   "--session", session(), "--algorithm", "as-built"});
  EXPECT_EQ(as_built.code, 2);
  EXPECT_NE(as_built.err.find("the as-built plan belongs to the input's own pools"), std::string::npos) << as_built.err;
  const fs::path broken = fs::temp_directory_path() / "usmpx-cli-broken.usmpx.json";
  std::ofstream(broken) << "{\n  \"format\": \"usmpx-session\",\n  \"version\": 2\n}\n";
  const auto bad = run_usmpx({"plan", "--session", broken.string()});
  EXPECT_EQ(bad.code, 3);
  EXPECT_NE(bad.err.find(broken.string() + ":3:"), std::string::npos) << bad.err;
  fs::remove(broken);
}

}  // namespace
}  // namespace usmpx
