// Which compared plans are ranked, and the words for those that are not.
#include <gtest/gtest.h>

#include "checks/comparison.h"
#include "planners/registry.h"

namespace usmpx {
namespace {

Problem two_buffers(int64_t hint) {
  Problem p;
  Pool pool;
  pool.name = "sram";
  pool.size_hint_bytes = hint;
  p.pools.push_back(pool);
  for (const char* name : {"a", "b"}) {
    Buffer b;
    b.name = name;
    b.size_bytes = 100;
    b.pool_candidates = {0};
    b.lifetime = Lifetime::closed(0, 1);
    p.buffers.push_back(b);
  }
  p.conflict_source = ConflictSource::kLifetimes;
  return p;
}

Plan placed(const Problem& p, int64_t second_offset) {
  Plan plan;
  plan.algorithm = "x";
  plan.allocations = {{0, 0}, {0, second_offset}};
  finish_plan(p, plan);
  return plan;
}

TEST(Comparison, OnlyPlansThatFitAndAreValidAreRanked) {
  const Problem p = two_buffers(250);
  std::vector<Plan> plans = {placed(p, 100), placed(p, 200), placed(p, 50)};
  Plan refused = placed(p, 100);
  refused.diagnostics.push_back({Severity::kError, "as-built", "the pools were edited", {}, -1, {}});
  plans.push_back(refused);
  const std::vector<ComparedPlan> rows = rank_plans(p, plans);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_TRUE(rows[0].ranked && rows[0].best);
  EXPECT_EQ(rows[0].gap, "0.0%");
  EXPECT_EQ(rows[0].reason, "");
  // 300 bytes in a pool of 250: not ranked, no gap, says by how much.
  EXPECT_FALSE(rows[1].ranked || rows[1].best || rows[1].fits);
  EXPECT_EQ(rows[1].gap, "");
  EXPECT_EQ(rows[1].reason, "does not fit: sram needs 300 B of 250 B");
  // Overlapping conflicting buffers: smaller, but invalid; never the best.
  EXPECT_TRUE(rows[2].fits);
  EXPECT_FALSE(rows[2].valid || rows[2].ranked || rows[2].best);
  EXPECT_EQ(rows[2].reason.rfind("invalid: ", 0), 0u) << rows[2].reason;
  EXPECT_FALSE(rows[3].made || rows[3].ranked);
  EXPECT_EQ(rows[3].reason, "not comparable: the pools were edited");
}

}  // namespace
}  // namespace usmpx
