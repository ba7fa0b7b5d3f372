// Re-planning after an edit: which pools keep their placement, that they do, and the closed form
// for pools whose buffers all conflict.
#include "planners/incremental.h"

#include <gtest/gtest.h>

#include "model_problems.h"
#include "planners/common/validator.h"
#include "planners/exact/clique_pool.h"
#include "planners/exact/infeasibility.h"
#include "planners/exact/lower_bound.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

std::vector<Allocation> in_pool(const Plan& plan, int pool) {
  std::vector<Allocation> out;
  for (const Allocation& a : plan.allocations)
    out.push_back(a.pool == pool ? a : Allocation{});
  return out;
}

class Incremental : public ::testing::Test {
 protected:
  Problem before = testing::model_shaped_problem(300, 1 << 20);  // dtcm 0, sram 1, flash 2
  Plan planned = testing::plan_with("best", before);
};

TEST_F(Incremental, ResizingTheConstantPoolKeepsTheWorkspacePools) {
  Problem after = before;
  after.pools[2].size_hint_bytes = 2 << 20;
  EXPECT_EQ(unchanged_pools(before, planned, after), (std::vector<bool>{true, true, false}));
  const Plan plan = run_planner_keeping(*make_planner("best"), after, planned, {true, true, false}, {});
  EXPECT_TRUE(validate(after, plan).empty());
  EXPECT_EQ(in_pool(plan, 0), in_pool(planned, 0));
  EXPECT_EQ(in_pool(plan, 1), in_pool(planned, 1));
  EXPECT_TRUE(std::any_of(plan.diagnostics.begin(), plan.diagnostics.end(), [](const Diagnostic& d) {
    return d.code == "kept-pools" && d.message == "pools the edit did not change keep their placement: 'dtcm', 'sram'";
  }));
}

TEST_F(Incremental, PoolsSharingBuffersChangeTogether) {
  // dtcm and sram are both candidates of every activation: resizing one re-plans both.
  Problem after = before;
  after.pools[0].size_hint_bytes = 64 * 1024;
  EXPECT_EQ(unchanged_pools(before, planned, after), (std::vector<bool>{false, false, true}));
  // A pinned constant touches only its pool.
  Problem pinned = before;
  pinned.buffers[0].pin = Pin{2, std::nullopt};
  EXPECT_EQ(unchanged_pools(before, planned, pinned), (std::vector<bool>{true, true, false}));
  // No previous plan that fits: nothing is kept.
  Plan broken = planned;
  broken.allocations[1] = Allocation{};
  EXPECT_EQ(unchanged_pools(before, broken, after), (std::vector<bool>{false, false, false}));
}

TEST_F(Incremental, QuickPlanIsCompleteAndKeepsPools) {
  Problem after = before;
  after.pools[0].size_hint_bytes = 100 * 1024;
  const Plan quick = quick_plan_keeping(*make_planner("best_fit_size"), after, planned, {false, false, true});
  EXPECT_TRUE(validate(after, quick).empty());
  EXPECT_EQ(in_pool(quick, 2), in_pool(planned, 2));
  EXPECT_EQ(quick.lower_bound_bytes, total_lower_bound(after).bytes);
  EXPECT_GT(quick.total_size(), 0);
}

TEST(CliquePool, ConstantsAreStackedAndProvenOptimal) {
  const Problem problem = testing::model_shaped_problem(160, 1 << 20);  // 20 constants, all live throughout
  std::vector<Allocation> allocations(problem.buffers.size());
  std::vector<int> constants;
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    if (problem.buffers[b].kind == BufferKind::kConstant) {
      allocations[b].pool = 2;
      constants.push_back(static_cast<int>(b));
    }
  }
  ASSERT_EQ(constants.size(), size_t{20});
  EXPECT_TRUE(all_conflict(problem, constants));
  const std::optional<int64_t> size = stack_clique_pool(problem, allocations, 2);
  ASSERT_TRUE(size);
  EXPECT_EQ(*size, 20 * ((1 << 20) / 20 / 16 * 16));
  Plan plan;
  plan.allocations = allocations;
  for (Allocation& a : plan.allocations) {
    if (!a.placed()) a = Allocation{1, 0};  // activations out of the way for the check below
  }
  EXPECT_TRUE(std::none_of(constants.begin(), constants.end(), [&](int b) {
    return std::any_of(constants.begin(), constants.end(), [&](int c) {
      const Allocation& x = allocations[static_cast<size_t>(b)];
      const Allocation& y = allocations[static_cast<size_t>(c)];
      return b != c && x.offset < y.offset + problem.buffers[static_cast<size_t>(c)].size_bytes &&
             y.offset < x.offset + problem.buffers[static_cast<size_t>(b)].size_bytes;
    });
  }));
  // best proves the constant pool through it.
  const Plan best = testing::plan_with("best", problem);
  EXPECT_TRUE(std::any_of(best.diagnostics.begin(), best.diagnostics.end(), [](const Diagnostic& d) {
    return d.message == "pool 'flash': 1,048,320 bytes, proven optimal";
  }));
  // Two activations with disjoint lifetimes are no clique.
  EXPECT_FALSE(all_conflict(problem, {1, 2, 3, 4, 5, 6, 7, 9, 10}));
}

TEST(Infeasibility, ABufferLargerThanItsPoolIsNamed) {
  // 'big' may go to a or b, both restricted; the plan put it into a, which it alone overflows.
  Problem p;
  p.conflict_source = ConflictSource::kLifetimes;
  p.pools = {Pool{.name = "a", .size_hint_bytes = 100}, Pool{.name = "b", .size_hint_bytes = 120}};
  Buffer big{.name = "big", .size_bytes = 110};
  big.lifetime = Lifetime{0, 2};
  big.pool_candidates = {0, 1};
  Buffer other{.name = "other", .size_bytes = 60};
  other.lifetime = Lifetime{0, 2};
  other.pool_candidates = {1};
  p.buffers = {big, other};
  const std::vector<Allocation> allocations = {{0, 0}, {1, 0}};
  const PlannerOptions options;
  Deadline deadline(options);
  const std::vector<Diagnostic> found = explain_infeasibility(p, allocations, deadline);
  ASSERT_EQ(found.size(), size_t{1});
  EXPECT_EQ(found[0].code, "buffer-too-large");
  EXPECT_EQ(found[0].message,
            "pool 'a' is 10 bytes short (size hint 100, the best plan found needs 110): 'big' alone needs 110 bytes, "
            "more than the pool holds; enlarge the pool or move 'big' to another pool");
  EXPECT_EQ(found[0].buffers, std::vector<int>{0});
}

}  // namespace
}  // namespace usmpx
