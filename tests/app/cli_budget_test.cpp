// usmpx under a time limit or a step budget: the lower bound is a property of the problem (the
// same in two runs with different time limits and for every planner), check and best with --steps
// give the same verdict and plan on any machine, and "undecided" has its own exit code.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "test_support.h"

namespace usmpx {
namespace {

using testing::run_usmpx;

// Everything of a plan --json but its wall time.
nlohmann::json without_time(nlohmann::json json) {
  json.erase("runtime_ms");
  if (json.contains("plan")) json["plan"].erase("runtime_ms");
  return json;
}

TEST(CliBudget, TheBoundIsTheSameWhateverTheTimeLimit) {
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

TEST(CliBudget, StepsGiveTheSameVerdictAndPlanAndUndecidedHasItsOwnExitCode) {
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

}  // namespace
}  // namespace usmpx
