// Invariants of the project's own planners (beyond TVM) on thousands of random problems: lifetime
// problems and general conflict graphs, pins, mixed alignments, several pools, size hints.
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "planners/common/validator.h"
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

bool searching(const std::string& planner) {
  return planner == "exact" || planner == "best" || planner == "multi_start";
}

// Searching planners get a small step budget (no clock: the same plans on any machine): some
// small random problems keep a search busy for minutes (no proof of optimality), and a valid
// plan is due at any budget.
PlannerOptions options_for(const std::string& planner) {
  return testing::step_budget(planner == "multi_start" ? 2'000 : searching(planner) ? 20'000 : -1);
}

std::set<std::string> error_codes(const Plan& plan) {
  std::set<std::string> codes;
  for (const Diagnostic& d : plan.diagnostics) {
    if (d.severity == Severity::kError) codes.insert(d.code);
  }
  return codes;
}

std::string describe(const Plan& plan) {
  std::string text;
  for (const Diagnostic& d : plan.diagnostics)
    text += d.code + ": " + d.message + "\n";
  return text;
}

class ProjectPlanner : public ::testing::TestWithParam<std::string> {
 protected:
  Plan plan(const Problem& problem) const {
    auto planner = make_planner(GetParam());
    EXPECT_NE(planner, nullptr);
    return run_planner(*planner, problem, options_for(GetParam()));
  }
  int rounds(int many) const { return searching(GetParam()) ? many / 4 : many; }
};

TEST_P(ProjectPlanner, ValidOnLifetimeProblemsWithPinsAndMixedAlignments) {
  std::mt19937_64 rng(2024);
  for (int round = 0; round < rounds(2000); ++round) {
    testing::RandomProblemSpec spec;
    spec.buffers = 1 + round % 30;
    spec.pools = 1 + round % 3;
    spec.mixed_alignment = round % 2 == 0;
    spec.pin_fraction = round % 3 == 0 ? 0.25 : 0.0;
    spec.explicit_conflicts = round % 4 == 1;
    const Problem problem = testing::random_interval_problem(rng, spec);
    const Plan p = plan(problem);
    ASSERT_TRUE(plan_fits(problem, p)) << "round " << round << "\n" << describe(p);
    ASSERT_TRUE(error_codes(p).empty()) << "round " << round << "\n" << describe(p);
    ASSERT_GE(p.total_size(), p.lower_bound_bytes) << "round " << round;
  }
}

TEST_P(ProjectPlanner, ValidOnGeneralConflictGraphs) {
  std::mt19937_64 rng(77);
  for (int round = 0; round < rounds(1000); ++round) {
    testing::RandomProblemSpec spec;
    spec.buffers = 2 + round % 25;
    spec.pools = 1 + round % 2;
    spec.mixed_alignment = round % 3 == 0;
    spec.pin_fraction = round % 5 == 0 ? 0.2 : 0.0;
    const Problem problem = testing::random_graph_problem(rng, spec, 0.1 + 0.05 * (round % 10));
    const Plan p = plan(problem);
    ASSERT_TRUE(plan_fits(problem, p)) << "round " << round << "\n" << describe(p);
    ASSERT_TRUE(error_codes(p).empty()) << "round " << round << "\n" << describe(p);
    ASSERT_GE(p.total_size(), p.lower_bound_bytes) << "round " << round;
  }
}

// With size hints a plan either fits and is valid, or its only errors are pools over their hint
// (and, for best, the explanation of why).
TEST_P(ProjectPlanner, SizeHintsGiveAFittingPlanOrOnlyOverflows) {
  std::mt19937_64 rng(31337);
  int fitting = 0;
  int overflowing = 0;
  for (int round = 0; round < rounds(2000); ++round) {
    testing::RandomProblemSpec spec;
    spec.buffers = 1 + round % 25;
    spec.pools = 1 + round % 3;
    spec.capacities = true;
    spec.mixed_alignment = round % 2 == 1;
    spec.pin_fraction = round % 4 == 0 ? 0.2 : 0.0;
    const Problem problem =
        round % 5 == 4 ? testing::random_graph_problem(rng, spec, 0.3) : testing::random_interval_problem(rng, spec);
    const Plan p = plan(problem);
    std::set<std::string> codes = error_codes(p);
    codes.erase("infeasible");
    if (plan_fits(problem, p)) {
      ++fitting;
      ASSERT_TRUE(codes.empty()) << "round " << round << "\n" << describe(p);
    } else {
      ++overflowing;
      ASSERT_EQ(codes, std::set<std::string>{"pool-overflow"}) << "round " << round << "\n" << describe(p);
    }
  }
  EXPECT_GT(fitting, 0);
  EXPECT_GT(overflowing, 0);
}

// Same input, options and step budget, same plan: every run is compared, those the budget cut
// included.
TEST_P(ProjectPlanner, Deterministic) {
  std::mt19937_64 rng(5);
  auto planner = make_planner(GetParam());
  const PlannerOptions options = testing::step_budget(GetParam() == "multi_start" ? 20'000 : 200'000);
  int cut = 0;
  const int total = 200;
  for (int round = 0; round < total; ++round) {
    testing::RandomProblemSpec spec;
    spec.buffers = 4 + round % 12;
    spec.pools = 1 + round % 3;
    spec.capacities = round % 2 == 0;
    spec.pin_fraction = 0.1;
    spec.mixed_alignment = round % 3 == 0;
    const Problem problem = testing::random_interval_problem(rng, spec);
    const Plan first = run_planner(*planner, problem, options);
    const Plan second = run_planner(*planner, problem, options);
    ASSERT_EQ(first.allocations, second.allocations) << "round " << round;
    ASSERT_EQ(first.diagnostics, second.diagnostics) << "round " << round;
    cut += std::any_of(first.diagnostics.begin(), first.diagnostics.end(),
                       [](const Diagnostic& d) { return d.message.find("step budget") != std::string::npos; });
  }
  std::printf("%s: %d of %d runs cut by the step budget\n", std::string(GetParam()).c_str(), cut, total);
}

INSTANTIATE_TEST_SUITE_P(Catalog, ProjectPlanner, ::testing::ValuesIn(kProjectPlanners),
                         [](const auto& param_info) { return std::string(param_info.param); });

// best keeps everything the portfolio finds: never worse than any single greedy planner, nor
// than TVM's (when their plans are valid).
TEST(BestPlanner, NeverWorseThanAnyGreedyPlanner) {
  std::mt19937_64 rng(11);
  auto best = make_planner("best");
  const PlannerOptions options = testing::step_budget(20'000);
  for (int round = 0; round < 40; ++round) {
    testing::RandomProblemSpec spec;
    spec.buffers = 10 + round % 40;
    spec.mixed_alignment = round % 2 == 0;
    const Problem problem = testing::random_interval_problem(rng, spec);
    const Plan b = run_planner(*best, problem, options);
    for (const char* name : {"first_fit", "best_fit_size", "best_fit_breadth", "greedy_by_size", "hill_climb"}) {
      const Plan other = testing::plan_with(name, problem);
      if (other.has_errors()) continue;  // TVM's planners may misalign with mixed alignments
      ASSERT_LE(b.total_size(), other.total_size()) << name << " round " << round;
    }
  }
}

}  // namespace
}  // namespace usmpx
