// The input's reference plan as the incumbent of `best` and `exact` (planners/anytime/incumbent.h): kept
// without a search when it meets the lower bound, never beaten by a worse plan, ignored when it no
// longer suits the problem; and, over every fixture of tests/ and the bundled examples, `best` and
// `exact` never rank below the plan any planner makes when that plan is the input's reference.
#include <filesystem>
#include <random>

#include <gtest/gtest.h>

#include "inputs/input_file.h"
#include "planners/anytime/incumbent.h"
#include "planners/exact/lower_bound.h"
#include "planners/registry.h"
#include "random_problems.h"
#include "test_support.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;

bool has_note(const Plan& plan, std::string_view code) {
  return std::any_of(plan.diagnostics.begin(), plan.diagnostics.end(),
                     [&](const Diagnostic& d) { return d.code == code; });
}

// A general conflict graph on which one greedy pass (what `best` and `exact` reach with a budget of
// one step) stays more than one alignment above the lower bound while the exact search, given its
// steps, reaches it: the shape of a firmware whose own plan meets the bound where the planners'
// searches do not. The first of a fixed sequence of random graphs that has it.
struct HardCase {
  Problem problem;
  Plan optimal;      // at the lower bound
  int64_t step = 1;  // the largest alignment
};

int64_t one_step_total(const char* planner, const Problem& problem) {
  return run_planner(*make_planner(planner), problem, testing::step_budget(1)).total_size();
}

HardCase hard_case() {
  std::mt19937_64 rng(40);
  for (int attempt = 0; attempt < 2000; ++attempt) {
    testing::RandomProblemSpec spec;
    spec.buffers = 8 + attempt % 8;
    HardCase c{testing::random_graph_problem(rng, spec, 0.5), {}, 1};
    for (const Buffer& b : c.problem.buffers)
      c.step = std::max(c.step, b.alignment);
    const int64_t bound = total_lower_bound(c.problem).bytes;
    if (one_step_total("best", c.problem) <= bound + c.step || one_step_total("exact", c.problem) <= bound + c.step)
      continue;
    c.optimal = testing::plan_with("exact", c.problem);
    if (c.optimal.total_size() == bound) return c;
  }
  ADD_FAILURE() << "no random graph where one greedy pass misses the bound";
  return {};
}

TEST(ReferenceIncumbent, APlanAtTheBoundIsReturnedWithoutASearch) {
  HardCase c = hard_case();
  const int64_t bound = total_lower_bound(c.problem).bytes;
  // The premise: the reference plan is at the bound, one greedy pass is not.
  ASSERT_EQ(c.optimal.total_size(), bound);
  for (const char* name : {"best", "exact"}) {
    SCOPED_TRACE(name);
    const Plan greedy_only = run_planner(*make_planner(name), c.problem, testing::step_budget(1));
    ASSERT_GT(greedy_only.total_size(), bound);
    Problem with_reference = c.problem;
    with_reference.reference_allocations = c.optimal.allocations;
    // With a step budget of one, only a plan kept without any search can be at the bound.
    const Plan p = run_planner(*make_planner(name), with_reference, testing::step_budget(1));
    EXPECT_EQ(p.allocations, c.optimal.allocations);
    EXPECT_EQ(p.total_size(), bound);
    EXPECT_TRUE(p.proven_optimal);
    EXPECT_TRUE(has_note(p, kIncumbentAtBound));
    // The same without any budget: it stops there, it does not search to its limit.
    const Plan unlimited = testing::plan_with(name, with_reference);
    EXPECT_TRUE(has_note(unlimited, kIncumbentAtBound));
    EXPECT_EQ(unlimited.allocations, c.optimal.allocations);
  }
}

TEST(ReferenceIncumbent, ASearchCutShortNeverReturnsLessThanTheReference) {
  HardCase c = hard_case();
  // A reference above the bound but below one greedy pass: the optimal plan with every buffer
  // moved up by the largest alignment (still valid, one alignment above the bound).
  Problem with_reference = c.problem;
  std::vector<Allocation> shifted = c.optimal.allocations;
  for (Allocation& a : shifted)
    a.offset += c.step;
  with_reference.reference_allocations = shifted;
  const PlanCost reference = plan_cost(c.problem, shifted);
  for (const char* name : {"best", "exact"}) {
    SCOPED_TRACE(name);
    const Plan greedy_only = run_planner(*make_planner(name), c.problem, testing::step_budget(1));
    ASSERT_GT(greedy_only.total_size(), reference.total);  // the premise: greedy alone is worse
    const Plan p = run_planner(*make_planner(name), with_reference, testing::step_budget(1));
    EXPECT_FALSE(has_note(p, kIncumbentAtBound));
    EXPECT_EQ(p.total_size(), reference.total);
    EXPECT_TRUE(has_note(p, "reference-kept") || p.allocations == shifted);
    EXPECT_FALSE(p.has_errors());
  }
}

TEST(ReferenceIncumbent, AReferenceThatNoLongerSuitsTheProblemIsIgnored) {
  HardCase c = hard_case();
  Problem overlapping = c.problem;
  overlapping.reference_allocations.assign(c.problem.buffers.size(), Allocation{0, 0});  // all on one byte
  EXPECT_FALSE(problem_incumbent(overlapping).has_value());
  Problem short_list = c.problem;
  short_list.reference_allocations = c.optimal.allocations;
  short_list.reference_allocations.pop_back();  // a buffer added since
  EXPECT_FALSE(problem_incumbent(short_list).has_value());
  for (const Problem* p : {&overlapping, &short_list}) {
    const Plan best = testing::plan_with("best", *p);
    EXPECT_FALSE(best.has_errors());
    EXPECT_FALSE(has_note(best, kIncumbentAtBound));
    EXPECT_FALSE(has_note(best, "reference-kept"));
  }
}

// Every input of tests/fixtures and resources/examples that loads.
std::vector<std::string> fixture_inputs() {
  std::vector<std::string> paths;
  auto add_children = [&](const std::string& folder) {
    if (!fs::is_directory(folder)) return;
    for (const auto& entry : fs::directory_iterator(folder))
      paths.push_back(entry.path().string());
  };
  for (const char* f : {"mlf", "tir", "tvm_examples", "firmware", "export"})
    add_children(testing::fixture_path(f));
  add_children(testing::source_path("resources/examples"));
  std::sort(paths.begin(), paths.end());
  return paths;
}

TEST(ReferenceIncumbent, BestAndExactNeverRankBelowAnyPlannersPlanOnEveryFixture) {
  int inputs = 0, references = 0;
  for (const std::string& path : fixture_inputs()) {
    std::optional<LoadedInput> input;
    try {
      input = load_input(path);
    } catch (const std::exception&) {
      continue;  // not an input (a NOTICE, a script) or one made to be refused
    }
    ++inputs;
    const Problem& problem = input->problem;
    // The reference load_input set: what best and exact see when planning the input as it is.
    std::vector<std::vector<Allocation>> candidates = {problem.reference_allocations};
    for (const PlannerInfo& info : planner_catalog()) {
      if (!planner_applies(info, input->reference) || info.name == "best" || info.name == "exact") continue;
      candidates.push_back(info.make()->plan(problem, testing::step_budget(20'000)).allocations);
    }
    for (const std::vector<Allocation>& reference : candidates) {
      Problem with_reference = problem;
      with_reference.reference_allocations = reference;
      const std::optional<Incumbent> incumbent = problem_incumbent(with_reference);
      if (!incumbent) continue;
      ++references;
      for (const char* name : {"best", "exact"}) {
        const Plan p = run_planner(*make_planner(name), with_reference, testing::step_budget(2'000));
        const PlanCost cost = plan_cost(problem, p.allocations);
        EXPECT_FALSE(incumbent->cost < cost)
            << name << " on " << path << ": " << cost.total << " bytes, reference " << incumbent->cost.total;
        if (incumbent->cost.overflow_bytes == 0 && problem.pools.size() == 1)
          EXPECT_LE(p.total_size(), incumbent->cost.total) << name << " on " << path;
      }
    }
  }
  EXPECT_GE(inputs, 40);
  EXPECT_GE(references, 300);
}

}  // namespace
}  // namespace usmpx
