// usmpx on .tflite models: the input table recognises them, tflm_greedy is their default, info
// lists tensors and operators, export writes the plan into a copy that reads back as-built.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/text_file.h"
#include "cli.h"
#include "cli_run.h"
#include "frontends/tflite/tflite_model.h"
#include "refusal_fixtures.h"
#include "test_support.h"

namespace usmpx {
namespace {

using testing::CliRun;
using testing::run_usmpx;

std::string example() {
  return testing::source_path("resources/examples/tiny_classifier.tflite");
}

// The answer a TFLite user came for, per plan: compare lists each plan's kTensorArenaSize (the
// window's Compare the same), from the figure `plan` prints; --json carries each plan's tflm_arena.
TEST(CliTflite, CompareListsEachPlansKTensorArenaSize) {
  USMPX_REQUIRE_SHARED(model, "tflite/models/hello_world_int8.tflite");
  const CliRun run = run_usmpx({"compare", model, "--algorithms", "tflm_greedy,greedy_by_size"});
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("kTensorArenaSize"), std::string::npos) << run.out;
  // TFLM's own plan of hello_world runs in 1,068 bytes (tflm_min_arena.json, reference, cortex-m).
  std::istringstream lines(run.out);
  bool found = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("tflm_greedy") != std::string::npos) {
      found = true;
      EXPECT_NE(line.find(" 1,068"), std::string::npos) << line;
    }
  }
  EXPECT_TRUE(found) << run.out;
  const CliRun json = run_usmpx({"compare", model, "--algorithms", "tflm_greedy", "--json"});
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["plans"][0]["tflm_arena"]["kTensorArenaSize_min_bytes"], 1068);
}

TEST(CliTflite, PlanDefaultsToTflmGreedyAndShowsTheArenaHead) {
  const CliRun run = run_usmpx({"plan", example()});
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("tflm_greedy plan of " + example() + ": 6 buffers, 1 pool, fits, total 256 bytes"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("arena head (non-persistent): 256 bytes; TFLM's greedy plan: 256 bytes"), std::string::npos)
      << run.out;
  const CliRun json = run_usmpx({"plan", example(), "--json"});
  const auto plan = nlohmann::json::parse(json.out);
  EXPECT_EQ(plan["algorithm"], "tflm_greedy");
  EXPECT_EQ(plan["pools"][0]["name"], "arena");
  EXPECT_EQ(plan["pools"][0]["size_bytes"], 256);
}

TEST(CliTflite, CapacityIsTheArenaHeadLimit) {
  const CliRun tight = run_usmpx({"check", example(), "--capacity", "200"});
  EXPECT_EQ(tight.code, 1) << tight.out;
  const CliRun enough = run_usmpx({"check", example(), "--capacity", "256"});
  EXPECT_EQ(enough.code, 0) << enough.out;
}

TEST(CliTflite, InfoListsTensorsOperatorsAndSubgraphs) {
  const CliRun run = run_usmpx({"info", example()});
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("(TFLite model): 6 buffers, 1 pool"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("FULLY_CONNECTED"), std::string::npos);
  EXPECT_NE(run.out.find("SOFTMAX"), std::string::npos);
  EXPECT_NE(run.out.find("fc1/weights"), std::string::npos);
  EXPECT_NE(run.out.find("constant"), std::string::npos);
  EXPECT_NE(run.out.find("main"), std::string::npos);  // the subgraph's name
}

TEST(CliTflite, ExportWritesACopyThatReadsBackAsBuilt) {
  namespace fs = std::filesystem;
  const fs::path out = fs::temp_directory_path() / "usmpx-cli-tflite-export.tflite";
  fs::remove(out);
  const std::string before = read_tflite_file(example());
  const CliRun run =
      run_usmpx({"export", example(), "--algorithm", "best", "--time-limit", "0.2", "--out", out.string()});
  EXPECT_EQ(run.code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("OfflineMemoryAllocation with 12 offsets (6 tensors placed, the others -1)"),
            std::string::npos)
      << run.out;
  // The arena the firmware needs with the written plan: the smallest a plain MicroInterpreter runs
  // in, which for this small model is what AllocateTensors needs while it plans.
  EXPECT_NE(run.out.find("kTensorArenaSize = 1420 bytes (head 256 + persistent 832, planning needs 1420; TFLM "
                         "90b983c, reference, cortex-m)"),
            std::string::npos)
      << run.out;
  EXPECT_EQ(read_tflite_file(example()), before);  // the input is never modified
  const CliRun as_built = run_usmpx({"plan", out.string(), "--algorithm", "as-built", "--json"});
  EXPECT_EQ(as_built.code, 0) << as_built.err;
  const CliRun best = run_usmpx({"plan", example(), "--algorithm", "best", "--time-limit", "0.2", "--json"});
  const auto a = nlohmann::json::parse(as_built.out);
  const auto b = nlohmann::json::parse(best.out);
  EXPECT_EQ(a["allocations"], b["allocations"]);
  EXPECT_EQ(a["pools"][0]["size_bytes"], b["pools"][0]["size_bytes"]);
  const CliRun again = run_usmpx({"export", example(), "--out", out.string()});
  EXPECT_EQ(again.code, 2);
  EXPECT_NE(again.err.find("exists; use --force"), std::string::npos);
  const CliRun self = run_usmpx({"export", out.string(), "--out", out.string(), "--force"});
  EXPECT_EQ(self.code, 2);
  fs::remove(out);
}

TEST(CliTflite, BadModelExitsWith3) {
  namespace fs = std::filesystem;
  const fs::path bad = fs::temp_directory_path() / "usmpx-cli-bad.tflite";
  {
    std::ofstream f(bad, std::ios::binary);
    f << "\x10\0\0\0TFL3garbage";
  }
  const CliRun run = run_usmpx({"info", bad.string()});
  EXPECT_EQ(run.code, 3);
  EXPECT_EQ(run.err.rfind(bad.string() + ": ", 0), 0u) << run.err;
  fs::remove(bad);
}

TEST(CliTflite, TflmLogGivesScratchSizesAndTheArenaSize) {
  USMPX_REQUIRE_SHARED(model, "tflite/models/keyword_scrambled.tflite");
  USMPX_REQUIRE_SHARED(json_path, "tflite/tflm_plans.json");
  std::ifstream in(json_path);
  const auto plans = nlohmann::json::parse(in);
  // TFLM's printout of the model, with the scratch buffers of a kernel flavour asking twice as much.
  std::ostringstream log;
  log << "[RecordingMicroAllocator] Arena allocation total 14472 bytes\n"
      << "[RecordingMicroAllocator] Arena allocation head 672 bytes\n"
      << "[RecordingMicroAllocator] Arena allocation tail 13800 bytes\n";
  for (const auto& b : plans["models"]["keyword_scrambled"]["buffers"]) {
    const int64_t size = b["tensor"].is_null() ? 2 * b["size"].get<int64_t>() : b["size"].get<int64_t>();
    log << "x (id=" << b["id"] << "): size=" << size << ", offset=" << b["offset"] << ", first_used=" << b["first_used"]
        << " last_used=" << b["last_used"] << "\n";
  }
  const auto path = std::filesystem::temp_directory_path() / "usmpx-kws-memory-plan.txt";
  {
    std::ofstream f(path);
    f << log.str();
  }
  const CliRun run = run_usmpx({"plan", model, "--tflm-log", path.string(), "--json"});
  EXPECT_EQ(run.code, 0) << run.err;
  const auto plan = nlohmann::json::parse(run.out);
  ASSERT_EQ(plan["allocations"].size(), 30u);
  EXPECT_EQ(plan["allocations"][16]["size_bytes"], 512);
  EXPECT_EQ(plan["allocations"][16]["buffer"], "SVDF#1/scratch0");
  const CliRun text = run_usmpx({"plan", model, "--tflm-log", path.string()});
  EXPECT_NE(text.out.find("kTensorArenaSize >= "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("persistent 13800 as the TFLM log measured it"), std::string::npos) << text.out;
  // Totals only: the scratch sizes come from the kernel rules, the tail from the log.
  {
    std::ofstream f(path);
    f << "[RecordingMicroAllocator] Arena allocation tail 13800 bytes\n";
  }
  const CliRun totals = run_usmpx({"plan", model, "--tflm-log", path.string(), "--json"});
  EXPECT_EQ(nlohmann::json::parse(totals.out)["allocations"][16]["size_bytes"], 256);
  const CliRun arena = run_usmpx({"plan", model, "--tflm-log", path.string()});
  // The log's tail wins over the model's own figure.
  EXPECT_NE(arena.out.find("kTensorArenaSize >= 14472 bytes (head 672 + persistent 13800 as the TFLM log measured it; "
                           "TFLM 90b983c, reference, cortex-m)"),
            std::string::npos)
      << arena.out;
  std::filesystem::remove(path);
}

TEST(CliTflite, InfoSaysWhatTflmRefuses) {
  namespace fs = std::filesystem;
  const fs::path model = fs::temp_directory_path() / "usmpx-cli-hybrid-conv.tflite";
  write_file_atomically(model.string(), testing::hybrid_conv_tflite());
  const CliRun run = run_usmpx({"info", model.string()});
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("\nwarning: TFLM (tflite-micro 90b983c, reference kernels) refuses operator 0 of subgraph 0 "
                         "(CONV_2D) at AllocateTensors: hybrid model (FLOAT32 input, INT8 weights), and TFLM has no "
                         "hybrid kernels (\"Hybrid models are not supported on TFLite Micro.\")\n"),
            std::string::npos)
      << run.out;
  fs::remove(model);

  // The kernel set named on the command line is the one the warning is for.
  write_file_atomically(model.string(), testing::hybrid_conv_tflite());
  const CliRun cmsis = run_usmpx({"info", model.string(), "--tflm-kernels", "cmsis_nn"});
  EXPECT_NE(cmsis.out.find("\nwarning: TFLM (tflite-micro 90b983c, CMSIS-NN kernels) refuses operator 0 of subgraph 0 "
                           "(CONV_2D) at AllocateTensors: "),
            std::string::npos)
      << cmsis.out;
  fs::remove(model);
}

// An Ethos-U model (Vela): one figure in info, plan and export, equal to what TFLM with its ethos_u
// kernel needs (tflm_ethos_u.json: 74,936 on Cortex-M55 and M4, 75,272 on x86-64); Vela's
// overlapping layout is its intent, so plan and check exit 0.
TEST(CliTflite, VelaModelHasOneFigureInInfoPlanAndExport) {
  USMPX_REQUIRE_SHARED(vela, "tflite/models/person_detect_vela.tflite");
  const std::string line =
      "kTensorArenaSize = 74936 bytes (head 74544 + persistent 388, planning needs 872; TFLM 90b983c, reference, ";
  const std::string assumes =
      "; assumes the firmware registers the Ethos-U kernel (MicroMutableOpResolver::AddEthosU, a TFLM build with "
      "CO_PROCESSOR=ethos_u))\n";
  const CliRun info = run_usmpx({"info", vela});
  EXPECT_EQ(info.code, 0) << info.err;
  EXPECT_NE(info.out.find(line + "cortex-m" + assumes), std::string::npos) << info.out;
  EXPECT_EQ(info.out.find("warning:"), std::string::npos) << info.out;
  const CliRun plan = run_usmpx({"plan", vela});
  EXPECT_EQ(plan.code, 0) << plan.out;
  EXPECT_NE(plan.out.find(line + "cortex-m" + assumes), std::string::npos) << plan.out;
  EXPECT_EQ(plan.out.find("error:"), std::string::npos) << plan.out;
  const CliRun m55 = run_usmpx({"plan", vela, "--tflm-target", "cortex-m55"});
  EXPECT_NE(m55.out.find(line + "cortex-m55" + assumes), std::string::npos) << m55.out;
  const CliRun host = run_usmpx({"info", vela, "--tflm-target", "x86-64", "--json"});
  ASSERT_EQ(host.code, 0) << host.err;
  const auto arena = nlohmann::json::parse(host.out)["tflm_arena"];
  EXPECT_EQ(arena["head_bytes"], 74560);
  EXPECT_EQ(arena["kTensorArenaSize_min_bytes"], 75272);
  EXPECT_EQ(arena["exact"], true);
  namespace fs = std::filesystem;
  const fs::path copy = fs::temp_directory_path() / "usmpx-cli-vela-copy.tflite";
  const CliRun exported = run_usmpx({"export", vela, "--out", copy.string()});
  EXPECT_EQ(exported.code, 0) << exported.out << exported.err;
  EXPECT_NE(exported.out.find(line + "cortex-m" + assumes), std::string::npos) << exported.out;
  const CliRun reread = run_usmpx({"info", copy.string()});
  EXPECT_NE(reread.out.find(line + "cortex-m" + assumes), std::string::npos) << reread.out;
  fs::remove(copy);
}

TEST(CliTflite, ArenaForANamedBuildFromTheModelAlone) {
  USMPX_REQUIRE_SHARED(model, "tflite/models/person_detect.tflite");
  // TFLM's own accounting (tflm_arena.json): head 55,296; tail 27,092 with the reference kernels
  // on a Cortex-M4, 27,124 with CMSIS-NN, 29,936 on x86-64.
  const CliRun info = run_usmpx({"info", model, "--json"});
  ASSERT_EQ(info.code, 0) << info.err;
  const auto arena = nlohmann::json::parse(info.out)["tflm_arena"];
  EXPECT_EQ(arena["kernels"], "reference");
  EXPECT_EQ(arena["target"], "cortex-m");
  EXPECT_EQ(arena["tflm_version"], "tflite-micro 90b983c");
  EXPECT_EQ(arena["head_bytes"], 55296);
  EXPECT_EQ(arena["tail_bytes"], 27092);
  EXPECT_EQ(arena["arena_bytes"], 82388);
  EXPECT_EQ(arena["exact"], true);
  EXPECT_TRUE(arena["unknown"].empty());
  const CliRun cmsis = run_usmpx({"plan", model, "--json", "--tflm-kernels", "cmsis_nn"});
  ASSERT_EQ(cmsis.code, 0) << cmsis.err;
  EXPECT_EQ(nlohmann::json::parse(cmsis.out)["tflm_arena"]["tail_bytes"], 27124);
  EXPECT_EQ(nlohmann::json::parse(cmsis.out)["tflm_arena"]["kernels"], "cmsis_nn");
  const CliRun host = run_usmpx({"plan", model, "--json", "--tflm-target", "x86-64"});
  EXPECT_EQ(nlohmann::json::parse(host.out)["tflm_arena"]["tail_bytes"], 29936);
  // The text ends with the one line a firmware engineer copies.
  const CliRun text = run_usmpx({"plan", model});
  ASSERT_EQ(text.code, 0) << text.err;
  // The smallest arena TFLM runs it in (tflm_min_arena.json: 82,296), not head + tail as TFLM's
  // recording interpreter counts them (82,388): a plain interpreter's allocator objects are smaller.
  EXPECT_EQ(arena["kTensorArenaSize_min_bytes"], 82296);
  const std::string last =
      "kTensorArenaSize = 82296 bytes (head 55296 + persistent 26996, planning needs 30424; TFLM 90b983c, "
      "reference, cortex-m)\n";
  ASSERT_GE(text.out.size(), last.size());
  EXPECT_EQ(text.out.substr(text.out.size() - last.size()), last) << text.out;
}

TEST(CliTflite, CheckFailsForAModelTflmRefuses) {
  // EXP on int8: TFLM's exp.cc refuses it at AllocateTensors; GATHER on int32 params likewise;
  // NEG on int8 passes AllocateTensors and fails at Invoke.
  for (const char* name : {"EXP_int8", "GATHER_int32", "NEG_int8"}) {
    SCOPED_TRACE(name);
    USMPX_REQUIRE_SHARED(model, std::string("tflite/ops/models/") + name + ".tflite");
    const CliRun run = run_usmpx({"check", model});
    EXPECT_EQ(run.code, 1) << run.out;
    EXPECT_NE(run.out.find("check fails: TFLM refuses this model"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find(std::string(name) == "NEG_int8" ? " at Invoke: " : " at AllocateTensors: "),
              std::string::npos)
        << run.out;
  }
  // A model TFLM runs passes.
  const CliRun ok = run_usmpx({"check", example()});
  EXPECT_EQ(ok.code, 0) << ok.out;
}

TEST(CliTflite, ArenaOptionsAreChecked) {
  const CliRun bad = run_usmpx({"plan", example(), "--tflm-kernels", "xtensa"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--tflm-kernels: 'xtensa' is not one of reference, cmsis_nn"), std::string::npos) << bad.err;
  const CliRun host_cmsis = run_usmpx({"plan", example(), "--tflm-kernels", "cmsis_nn", "--tflm-target", "x86-64"});
  EXPECT_EQ(host_cmsis.code, 2);
  EXPECT_NE(host_cmsis.err.find("CMSIS-NN's optimized code paths are for Arm Cortex-M cores"), std::string::npos)
      << host_cmsis.err;
}

}  // namespace
}  // namespace usmpx
