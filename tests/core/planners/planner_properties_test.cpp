// Invariants of every planner on thousands of random interval problems.
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "planners/common/validator.h"
#include "planners/registry.h"
#include "random_problems.h"
#include "test_support.h"

namespace usmpx {
namespace {

constexpr int kProblemsPerCase = 2000;

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

class EveryPlanner : public ::testing::TestWithParam<std::string> {
 protected:
  Plan plan(const Problem& problem) const {
    auto planner = make_planner(GetParam());
    return run_planner(*planner, problem, PlannerOptions{});
  }
};

TEST_P(EveryPlanner, ValidOnUnrestrictedPoolsWithPins) {
  std::mt19937_64 rng(1234);
  for (int round = 0; round < kProblemsPerCase; ++round) {
    testing::RandomProblemSpec spec;
    spec.buffers = 1 + round % 30;
    spec.pools = 1 + round % 3;
    spec.pin_fraction = round % 4 == 0 ? 0.2 : 0.0;
    spec.explicit_conflicts = round % 2 == 1;
    const Problem problem = testing::random_interval_problem(rng, spec);
    const Plan p = plan(problem);
    ASSERT_TRUE(plan_fits(problem, p)) << "round " << round << "\n" << describe(p);
    ASSERT_TRUE(error_codes(p).empty()) << "round " << round << "\n" << describe(p);
    ASSERT_GE(p.total_size(), p.lower_bound_bytes);
    // One meaning of the bound: per pool and in total, no valid plan goes below it.
    ASSERT_EQ(p.pool_lower_bounds.size(), problem.pools.size());
    int64_t pools_bound = 0;
    for (size_t q = 0; q < problem.pools.size(); ++q) {
      ASSERT_GE(p.pool_sizes[q], p.pool_lower_bounds[q]) << "round " << round << " pool " << q;
      pools_bound += p.pool_lower_bounds[q];
    }
    ASSERT_LE(pools_bound, p.lower_bound_bytes) << "round " << round;
  }
}

TEST_P(EveryPlanner, MixedAlignmentsOnlyEverMisalignAsTvmRoundsWithTheConflictsAlignment) {
  std::mt19937_64 rng(99);
  for (int round = 0; round < kProblemsPerCase; ++round) {
    testing::RandomProblemSpec spec;
    spec.buffers = 1 + round % 25;
    spec.pools = 1 + round % 2;
    spec.mixed_alignment = true;
    const Problem problem = testing::random_interval_problem(rng, spec);
    const Plan p = plan(problem);
    ASSERT_TRUE(plan_fits(problem, p)) << "round " << round;
    const auto codes = error_codes(p);
    ASSERT_TRUE(codes.empty() || codes == std::set<std::string>{"misaligned"}) << "round " << round << "\n"
                                                                               << describe(p);
  }
}

TEST_P(EveryPlanner, Deterministic) {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 300; ++round) {
    testing::RandomProblemSpec spec;
    spec.buffers = 5 + round % 40;
    spec.pools = 1 + round % 3;
    spec.capacities = round % 2 == 0;
    spec.pin_fraction = 0.1;
    const Problem problem = testing::random_interval_problem(rng, spec);
    const Plan first = plan(problem);
    const Plan second = plan(problem);
    ASSERT_EQ(first.allocations, second.allocations) << "round " << round;
    ASSERT_EQ(first.diagnostics, second.diagnostics) << "round " << round;
  }
}

INSTANTIATE_TEST_SUITE_P(Catalog, EveryPlanner,
                         ::testing::Values("greedy_by_size", "greedy_by_conflicts", "hill_climb"),
                         [](const auto& param_info) { return param_info.param; });

// What `best` proves about a pool (its exact search exhausted) must hold for every other plan:
// no planner's valid plan gives a pool fewer bytes than best's bound for it, nor a smaller total.
TEST(BestProperties, ProvenBoundsHoldForEveryPlanner) {
  std::mt19937_64 rng(4321);
  const PlannerOptions options = testing::step_budget(50'000);
  for (int round = 0; round < 150; ++round) {
    testing::RandomProblemSpec spec;
    spec.buffers = 2 + round % 14;
    spec.pools = 1 + round % 3;
    spec.mixed_alignment = round % 2 == 0;
    spec.pin_fraction = round % 5 == 0 ? 0.2 : 0.0;
    const Problem problem = testing::random_interval_problem(rng, spec);
    const Plan best = run_planner(*make_planner("best"), problem, options);
    ASSERT_EQ(best.pool_lower_bounds.size(), problem.pools.size());
    for (const char* other : {"greedy_by_size", "greedy_by_conflicts", "hill_climb", "first_fit"}) {
      const Plan plan = run_planner(*make_planner(other), problem, options);
      if (!plan_fits(problem, plan) || plan.has_errors()) continue;
      ASSERT_GE(plan.total_size(), best.lower_bound_bytes) << "round " << round << " " << other;
      for (size_t q = 0; q < problem.pools.size(); ++q)
        ASSERT_GE(plan.pool_sizes[q], best.pool_lower_bounds[q]) << "round " << round << " " << other << " pool " << q;
    }
  }
}

TEST(HillClimbProperties, CapacitiesGiveAValidPlanOrTvmsError) {
  std::mt19937_64 rng(77);
  auto planner = make_planner("hill_climb");
  int failures = 0;
  for (int round = 0; round < kProblemsPerCase; ++round) {
    testing::RandomProblemSpec spec;
    spec.buffers = 1 + round % 25;
    spec.pools = 1 + round % 3;
    spec.capacities = true;
    const Problem problem = testing::random_interval_problem(rng, spec);
    const Plan p = run_planner(*planner, problem, PlannerOptions{});
    const auto codes = error_codes(p);
    if (codes.count("planner-error")) {
      ++failures;
      ASSERT_FALSE(plan_fits(problem, p)) << "round " << round;
      continue;
    }
    ASSERT_TRUE(codes.empty()) << "round " << round << "\n" << describe(p);
    ASSERT_TRUE(plan_fits(problem, p)) << "round " << round;
  }
  // The capacities are drawn so that both outcomes occur.
  EXPECT_GT(failures, 0);
  EXPECT_LT(failures, kProblemsPerCase);
}

TEST(GreedyProperties, CapacitiesGiveAFittingPlanOrTvmsError) {
  std::mt19937_64 rng(78);
  for (const char* name : {"greedy_by_size", "greedy_by_conflicts"}) {
    auto planner = make_planner(name);
    for (int round = 0; round < kProblemsPerCase; ++round) {
      testing::RandomProblemSpec spec;
      spec.buffers = 1 + round % 25;
      spec.pools = 1 + round % 3;
      spec.capacities = true;
      const Problem problem = testing::random_interval_problem(rng, spec);
      const Plan p = run_planner(*planner, problem, PlannerOptions{});
      const auto codes = error_codes(p);
      if (codes.count("planner-error")) {
        ASSERT_FALSE(plan_fits(problem, p)) << name << " round " << round;
      } else {
        // Fits; overlaps are only possible through TVM's erase/re-insert quirk.
        ASSERT_TRUE(plan_fits(problem, p)) << name << " round " << round << "\n" << describe(p);
        ASSERT_TRUE(codes.empty() || codes == std::set<std::string>{"overlap"}) << name << " round " << round;
      }
    }
  }
}

}  // namespace
}  // namespace usmpx
