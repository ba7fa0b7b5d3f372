// usmpx as issue 34 asked: the lower bound is a property of the problem (the same in two runs
// with different time limits), check and best take a deterministic step budget (--steps: the same
// verdict and plan on any machine), "undecided" has its own exit code, info gives .tflite and .pte
// inputs their memory pressure, and --help names every input family.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "inputs/input_file.h"
#include "model/live_bytes.h"
#include "test_support.h"
#include "text_table.h"

namespace usmpx {
namespace {

using testing::run_usmpx;

// Everything of a plan --json but its wall time.
nlohmann::json without_time(nlohmann::json json) {
  json.erase("runtime_ms");
  if (json.contains("plan")) json["plan"].erase("runtime_ms");
  return json;
}

TEST(CliRound5, TheBoundIsTheSameWhateverTheTimeLimit) {
  // MiniMalloc's C: best's search proves more or less within its time; the bound it reports does not.
  USMPX_REQUIRE_SHARED(path, "benchmarks/minimalloc/C.1048576.csv");
  const auto quick = run_usmpx({"plan", path, "--algorithm", "best", "--time-limit", "0.05", "--json"});
  const auto longer = run_usmpx({"plan", path, "--algorithm", "best", "--time-limit", "1.5", "--json"});
  ASSERT_EQ(quick.code, 0) << quick.out << quick.err;
  ASSERT_EQ(longer.code, 0) << longer.out << longer.err;
  const auto a = nlohmann::json::parse(quick.out);
  const auto b = nlohmann::json::parse(longer.out);
  EXPECT_GT(a["lower_bound_bytes"].get<int64_t>(), 0);
  EXPECT_EQ(a["lower_bound_bytes"], b["lower_bound_bytes"]);
  EXPECT_EQ(a["pools"][0]["lower_bound_bytes"], b["pools"][0]["lower_bound_bytes"]);
  // And another planner on the same problem reports the same bound.
  const auto greedy = run_usmpx({"plan", path, "--algorithm", "greedy_by_size", "--json"});
  EXPECT_EQ(nlohmann::json::parse(greedy.out)["lower_bound_bytes"], a["lower_bound_bytes"]);
}

TEST(CliRound5, StepsGiveTheSameVerdictAndPlanAndUndecidedHasItsOwnExitCode) {
  // D below MiniMalloc's best known 1,045,504 but above its lower bound: neither a plan nor a
  // proof within 20,000 steps.
  USMPX_REQUIRE_SHARED(path, "benchmarks/minimalloc/D.1048576.csv");
  const std::vector<std::string> args = {"check", path, "--capacity", "1000000", "--steps", "20000", "--json"};
  const auto first = run_usmpx(args);
  const auto second = run_usmpx(args);
  EXPECT_EQ(first.code, 4) << first.out << first.err;
  EXPECT_EQ(second.code, 4);
  const auto a = nlohmann::json::parse(first.out);
  EXPECT_EQ(a["verdict"], "undecided");
  EXPECT_EQ(a["steps"], 20000);
  EXPECT_TRUE(a["time_limit_seconds"].is_null());
  EXPECT_EQ(without_time(a), without_time(nlohmann::json::parse(second.out)));
  const auto text = run_usmpx({"check", path, "--capacity", "1000000", "--steps", "20000"});
  EXPECT_EQ(text.code, 4);
  EXPECT_NE(text.out.find("check FAILED: undecided: "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("nothing proves that no plan fits within --steps 20000"), std::string::npos) << text.out;
  // best with a step budget: the same plan twice.
  const std::vector<std::string> plan = {"plan", path, "--algorithm", "best", "--steps", "50000", "--json"};
  EXPECT_EQ(without_time(nlohmann::json::parse(run_usmpx(plan).out)),
            without_time(nlohmann::json::parse(run_usmpx(plan).out)));
  // A budget that is not a number is a usage error.
  EXPECT_EQ(run_usmpx({"check", path, "--steps", "many"}).code, 2);
}

TEST(CliRound5, HelpNamesTheExitCodesAndEveryInputFamily) {
  const auto help = run_usmpx({"--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_EQ(help.out.find("for TVM models (USMP)"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("TFLite Micro models and ExecuTorch programs"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("4 undecided"), std::string::npos) << help.out;
  const auto check = run_usmpx({"check", "--help"});
  EXPECT_NE(check.out.find("(exit 4;"), std::string::npos) << check.out;
  EXPECT_NE(check.out.find("--steps N"), std::string::npos) << check.out;
}

// info's memory pressure for a .tflite and a .pte is the peak of bytes live at once.
void expect_pressure_is_peak(const std::string& path) {
  const LoadedInput input = load_input(path);
  const int64_t peak = lifetime_memory_pressure(input.problem);
  ASSERT_GT(peak, 0) << path;
  const auto run = run_usmpx({"info", path});
  ASSERT_EQ(run.code, 0) << run.out << run.err;
  const std::string first = run.out.substr(0, run.out.find('\n'));
  EXPECT_NE(first.find("memory pressure " + cli::format_bytes(peak) + " bytes"), std::string::npos) << first;
  EXPECT_EQ(first.find("memory pressure 0 bytes"), std::string::npos) << first;
}

TEST(CliRound5, InfoGivesTfliteAndPteTheirMemoryPressure) {
  USMPX_REQUIRE_SHARED(tflite, "tflite/models/hello_world_int8.tflite");
  expect_pressure_is_peak(tflite);
  USMPX_REQUIRE_SHARED(pte, "executorch/models/arduino_kws.pte");
  expect_pressure_is_peak(pte);
}

}  // namespace
}  // namespace usmpx
