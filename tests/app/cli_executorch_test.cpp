// usmpx on ExecuTorch .pte programs: recognised by the input table, the program's own plan is the
// default (as-built), info and plan say what the firmware needs, export writes a copy that reads
// back as the plan, bad programs exit with 3.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli.h"
#include "cli_run.h"
#include "core/frontends/executorch/et_test_program.h"
#include "frontends/executorch/et_program.h"
#include "test_support.h"

namespace usmpx {
namespace {

using testing::CliRun;
using testing::run_usmpx;

std::string example() {
  return testing::source_path("resources/examples/six_step_chain.pte");
}

TEST(CliExecuTorch, PlanDefaultsToTheProgramsOwnPlan) {
  const CliRun run = run_usmpx({"plan", example()});
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_NE(
      run.out.find("as-built plan of " + example() + ": 7 buffers, 1 pool, fits, total 864 bytes (lower bound 576"),
      std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("planned memory: 864 bytes, ±0 B vs ExecuTorch"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("method 'forward': planned buffers [864] bytes; method allocator 536 bytes on cortex-m, 952 "
                         "bytes on x86-64"),
            std::string::npos)
      << run.out;
  const CliRun best = run_usmpx({"plan", example(), "--algorithm", "best", "--time-limit", "0.5"});
  EXPECT_NE(best.out.find("planned memory: 576 bytes, -288 B vs ExecuTorch"), std::string::npos) << best.out;
  const auto json = nlohmann::json::parse(run_usmpx({"plan", example(), "--json"}).out);
  EXPECT_EQ(json["algorithm"], "as-built");
  EXPECT_EQ(json["pools"][0]["name"], "mem1");
  EXPECT_EQ(json["pools"][0]["size_bytes"], 864);
  const auto& method = json["executorch"]["methods"][0];
  EXPECT_EQ(method["name"], "forward");
  EXPECT_EQ(method["planned_buffer_bytes"], nlohmann::json::array({864}));
  EXPECT_EQ(method["method_allocator"]["x86-64"]["bytes"], 952);
  EXPECT_EQ(method["method_allocator"]["cortex-m"]["bytes"], 536);
  EXPECT_EQ(json["executorch"]["reproduced_by"], "et_greedy");
}

TEST(CliExecuTorch, InfoListsMethodsInstructionsAndTensors) {
  const CliRun run = run_usmpx({"info", example()});
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("(ExecuTorch program): 7 buffers, 1 pool"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("et_greedy reproduces all 7 offsets"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("example::step_4.out"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("[2,3,4,4]"), std::string::npos) << run.out;  // step 4's arguments
}

TEST(CliExecuTorch, ExportWritesACopyThatReadsBackAsThePlan) {
  namespace fs = std::filesystem;
  const fs::path out = fs::temp_directory_path() / "usmpx-cli-executorch-export.pte";
  fs::remove(out);
  const std::string before = read_et_file(example());
  const CliRun run =
      run_usmpx({"export", example(), "--algorithm", "best", "--time-limit", "0.5", "--out", out.string()});
  EXPECT_EQ(run.code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("planned buffers mem1 576 bytes (576 in all, ExecuTorch's plan 864)"), std::string::npos)
      << run.out;
  EXPECT_EQ(read_et_file(example()), before);  // the input is never modified
  const auto copy = nlohmann::json::parse(run_usmpx({"plan", out.string(), "--json"}).out);
  const auto best =
      nlohmann::json::parse(run_usmpx({"plan", example(), "--algorithm", "best", "--time-limit", "0.5", "--json"}).out);
  EXPECT_EQ(copy["allocations"], best["allocations"]);
  EXPECT_EQ(copy["pools"][0]["size_bytes"], 576);
  EXPECT_EQ(copy["executorch"]["methods"][0]["planned_buffer_bytes"], nlohmann::json::array({576}));
  fs::remove(out);
}

TEST(CliExecuTorch, AnotherIdentifierExitsWith3) {
  namespace fs = std::filesystem;
  const fs::path bad = fs::temp_directory_path() / "usmpx-cli-bad.pte";
  {
    std::ofstream f(bad, std::ios::binary);
    f << std::string("\x10\0\0\0ET11garbage", 15);
  }
  const CliRun run = run_usmpx({"info", bad.string()});
  EXPECT_EQ(run.code, 3);
  EXPECT_EQ(run.err, bad.string() +
                         ": not an ExecuTorch program this tool reads: the flatbuffer identifier at bytes 4..8 is "
                         "'ET11', expected 'ET12'\n")
      << run.err;
  fs::remove(bad);
}

TEST(CliExecuTorch, CheckAgainstAHintUsesTheProgramsPlan) {
  const CliRun tight = run_usmpx({"check", example(), "--capacity", "600"});
  EXPECT_EQ(tight.code, 1) << tight.out;
  const CliRun best = run_usmpx({"check", example(), "--capacity", "600", "--algorithm", "best"});
  EXPECT_EQ(best.code, 0) << best.out;
}

// A program whose plan puts two live tensors on the same bytes without a reason the program states
// (softmax's input moved onto its output): check exits 1 naming both and the bytes they share.
TEST(CliExecuTorch, CheckCatchesABrokenPlan) {
  USMPX_REQUIRE_SHARED(path, "executorch/models/softmax.pte");
  std::string bytes = read_et_file(path);
  const std::string low("\x00\x80\x00\x00", 4);  // memory_offset_low = 32768
  const size_t at = bytes.find(low);
  ASSERT_NE(at, std::string::npos);
  bytes[at + 1] = 0;
  namespace fs = std::filesystem;
  const fs::path broken = fs::temp_directory_path() / "usmpx-cli-executorch-broken.pte";
  std::ofstream(broken, std::ios::binary) << bytes;
  const CliRun run = run_usmpx({"check", broken.string(), "--algorithm", "as-built"});
  EXPECT_EQ(run.code, 1) << run.out << run.err;
  const std::string all = run.out + run.err;
  EXPECT_NE(all.find("puts v0 [0, 32768) and v1 [0, 32768) of memory id 1 on the same 32768 bytes [0, 32768)"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("buffers 'v0' [0, 32768) and 'v1' [0, 32768) overlap in pool 'mem1' while both are live"),
            std::string::npos)
      << all;
  const CliRun original = run_usmpx({"check", path, "--algorithm", "as-built"});
  EXPECT_EQ(original.code, 0) << original.out;
  fs::remove(broken);
}

// selftest runs a .pte as it is and re-planned on the project's portable operators.
TEST(CliExecuTorch, SelftestProvesAReplanAndRefusesWhatItCannotRunByName) {
  USMPX_REQUIRE_SHARED(path, "executorch/models/softmax.pte");
  const CliRun run = run_usmpx({"selftest", path, "--algorithm", "best", "--time-limit", "0.5"});
  EXPECT_EQ(run.code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("same outputs (1, byte for byte)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("selftest passed"), std::string::npos) << run.out;
  USMPX_REQUIRE_SHARED(training, "executorch/models/xor_training.pte");
  const CliRun refused = run_usmpx({"selftest", training});
  EXPECT_EQ(refused.code, 1);
  EXPECT_NE(refused.out.find("selftest cannot run this model: operators not implemented by this tool: "
                             "aten::_log_softmax.out"),
            std::string::npos)
      << refused.out;
}

// A program adding int64 tensors: ExecuTorch runs it, the project's add is for floats only. selftest
// says so before running anything, with the refusal's exit code, not as a failed run of the original.
TEST(CliExecuTorch, SelftestRefusesAnOperatorOnAnElementTypeWithoutAKernelHere) {
  namespace fs = std::filesystem;
  const fs::path path = fs::temp_directory_path() / "usmpx-cli-executorch-long-add.pte";
  {
    std::ofstream out(path, std::ios::binary);
    out << testing::et_test_program_bytes(testing::add_on_long_tensors());
  }
  const CliRun run = run_usmpx({"selftest", path.string()});
  EXPECT_EQ(run.code, 1) << run.out << run.err;
  EXPECT_NE(run.out.find("selftest cannot run this model: aten::add.out has no LONG kernel here (implemented: FLOAT)"),
            std::string::npos)
      << run.out;
  // Refused before anything ran, as a delegate is: no verdict on the original.
  EXPECT_EQ(run.out.find("the original did not run"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("same outputs"), std::string::npos) << run.out;
  fs::remove(path);
}

}  // namespace
}  // namespace usmpx
