#include "planners/exact/lower_bound.h"
#include "planners/exact/clique_pool.h"

#include "model/conflict_graph.h"

#include <random>

#include <gtest/gtest.h>

#include "random_problems.h"

namespace usmpx {
namespace {

Problem explicit_problem(const std::vector<int64_t>& sizes, const std::vector<std::pair<int, int>>& edges) {
  Problem p;
  p.pools.push_back(Pool{.name = "p"});
  for (size_t i = 0; i < sizes.size(); ++i) {
    p.buffers.push_back(Buffer{.name = "b" + std::to_string(i), .size_bytes = sizes[i], .pool_candidates = {0}});
  }
  for (auto [a, b] : edges)
    p.buffers[static_cast<size_t>(a)].conflicts.push_back(b);  // one direction only
  return p;
}

TEST(LowerBound, MaxLiveBytesForLifetimes) {
  Problem p;
  p.conflict_source = ConflictSource::kLifetimes;
  p.pools.push_back(Pool{.name = "p"});
  p.buffers.push_back(Buffer{.name = "a", .size_bytes = 10, .pool_candidates = {0}, .lifetime = Lifetime{0, 5}});
  p.buffers.push_back(Buffer{.name = "b", .size_bytes = 20, .pool_candidates = {0}, .lifetime = Lifetime{5, 9}});
  p.buffers.push_back(Buffer{.name = "c", .size_bytes = 7, .pool_candidates = {0}, .lifetime = Lifetime{4, 6}});
  const LowerBound lb = total_lower_bound(p);
  EXPECT_EQ(lb.bytes, 27);  // half-open: a ends where b starts
  EXPECT_TRUE(lb.exact);
  EXPECT_EQ(lb.witness, (std::vector<int>{1, 2}));
}

TEST(LowerBound, HeaviestCliqueOfAConflictGraph) {
  // A 5-cycle of weight-10 vertices (max clique 20) plus a triangle 3-4-5 weighing 3+4+5 = 12
  // and a heavy pair 6-7 (9 + 9 = 18), conflicts listed one way only.
  const Problem p =
      explicit_problem({10, 10, 10, 10, 10, 3, 9, 9}, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}, {4, 5}, {5, 0}, {6, 7}});
  const LowerBound lb = total_lower_bound(p);
  EXPECT_EQ(lb.bytes, 23);  // 0-4-5 is a triangle: 10 + 10 + 3
  EXPECT_TRUE(lb.exact);
  EXPECT_EQ(lb.witness, (std::vector<int>{0, 4, 5}));
}

TEST(LowerBound, SeparatePoolGroupsAddUp) {
  Problem p = explicit_problem({100, 50}, {});
  p.pools.push_back(Pool{.name = "flash", .kind = PoolKind::kConstant});
  p.buffers[1].pool_candidates = {1};
  p.buffers[1].kind = BufferKind::kConstant;
  EXPECT_EQ(total_lower_bound(p).bytes, 150);
}

TEST(LowerBound, CliqueBoundEqualsMaxLiveOnIntervalGraphs) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 200; ++round) {
    testing::RandomProblemSpec spec;
    spec.buffers = 3 + round % 40;
    Problem intervals = testing::random_interval_problem(rng, spec);
    // Alignment 1: the two searches may find different cliques of the same weight, whose
    // alignment padding differs (the bounds then differ, both valid).
    for (Buffer& b : intervals.buffers) {
      b.pool_candidates = {0};
      b.alignment = 1;
    }
    intervals.pools.resize(1);
    Problem lists = intervals;
    const auto conflicts = conflict_lists(intervals);
    lists.conflict_source = ConflictSource::kExplicit;
    for (size_t i = 0; i < conflicts.size(); ++i)
      lists.buffers[i].conflicts = conflicts[i];
    const LowerBound a = total_lower_bound(intervals);
    const LowerBound b = total_lower_bound(lists);
    ASSERT_EQ(a.bytes, b.bytes) << "round " << round;
    ASSERT_TRUE(b.exact);
  }
}

Problem two_pool_problem() {
  Problem p;
  p.conflict_source = ConflictSource::kLifetimes;
  p.pools.push_back(Pool{.name = "dtcm"});
  p.pools.push_back(Pool{.name = "sram"});
  return p;
}

TEST(LowerBound, PoolBoundsCountOnlyBuffersThatCanGoNowhereElse) {
  Problem p = two_pool_problem();
  p.buffers.push_back(Buffer{.name = "a", .size_bytes = 30, .pool_candidates = {0}, .lifetime = Lifetime{0, 4}});
  p.buffers.push_back(Buffer{.name = "b", .size_bytes = 40, .pool_candidates = {1}, .lifetime = Lifetime{0, 4}});
  p.buffers.push_back(Buffer{.name = "c", .size_bytes = 100, .pool_candidates = {0, 1}, .lifetime = Lifetime{0, 4}});
  EXPECT_EQ(pool_lower_bounds(p), (std::vector<int64_t>{30, 40}));
  EXPECT_EQ(total_lower_bound(p).bytes, 170);  // all three live together
  // Pinned into a pool, c counts for it.
  p.buffers[2].pin = Pin{1, std::nullopt};
  EXPECT_EQ(pool_lower_bounds(p), (std::vector<int64_t>{30, 140}));
  EXPECT_EQ(closed_pools(p), (std::vector<char>{1, 1}));
}

TEST(LowerBound, TotalIsAtLeastTheSumOfThePoolsBounds) {
  // a and b never live together, so the group's peak (110) is below what the two pools must hold
  // in any plan (100 each).
  Problem p = two_pool_problem();
  p.buffers.push_back(Buffer{.name = "a", .size_bytes = 100, .pool_candidates = {0}, .lifetime = Lifetime{0, 5}});
  p.buffers.push_back(Buffer{.name = "b", .size_bytes = 100, .pool_candidates = {1}, .lifetime = Lifetime{5, 10}});
  p.buffers.push_back(Buffer{.name = "c", .size_bytes = 10, .pool_candidates = {0, 1}, .lifetime = Lifetime{0, 10}});
  EXPECT_EQ(pool_lower_bounds(p), (std::vector<int64_t>{100, 100}));
  EXPECT_EQ(total_lower_bound(p).bytes, 200);
  EXPECT_EQ(closed_pools(p), (std::vector<char>{0, 0}));
  // A planner's proven pool bounds raise the total too.
  EXPECT_EQ(total_lower_bound(p, {100, 130}).bytes, 230);
}

TEST(LowerBound, APoolNoBufferMayUseChangesNothing) {
  Problem p = two_pool_problem();
  p.buffers.push_back(
      Buffer{.name = "a", .size_bytes = 1, .alignment = 16, .pool_candidates = {0}, .lifetime = Lifetime{0, 4}});
  p.buffers.push_back(
      Buffer{.name = "b", .size_bytes = 1, .alignment = 16, .pool_candidates = {0}, .lifetime = Lifetime{0, 4}});
  const int64_t before = total_lower_bound(p).bytes;
  EXPECT_EQ(before, 17);  // one of them waits 15 bytes of padding for the other
  p.pools.push_back(Pool{.name = "unused"});
  EXPECT_EQ(total_lower_bound(p).bytes, before);
  EXPECT_EQ(pool_lower_bounds(p), (std::vector<int64_t>{17, 0, 0}));
}

TEST(LowerBound, AlignmentPaddingSplitAmongPoolsCountsLess) {
  // Three 1-byte buffers aligned to 16, all live together. In one pool two of them wait for
  // padding: 33 bytes. Free to use two pools, each top hides one padding: 1 + 16 + 1 = 18 (a, b in
  // one pool, c alone in the other), which the bound allows and no less.
  Problem p = two_pool_problem();
  for (const char* name : {"a", "b", "c"}) {
    p.buffers.push_back(
        Buffer{.name = name, .size_bytes = 1, .alignment = 16, .pool_candidates = {0, 1}, .lifetime = Lifetime{0, 4}});
  }
  EXPECT_EQ(clique_lower_bound(p, {0, 1, 2}), 33);
  EXPECT_EQ(clique_lower_bound(p, {0, 1, 2}, 2), 18);
  EXPECT_EQ(total_lower_bound(p).bytes, 18);
  EXPECT_EQ(pool_lower_bounds(p), (std::vector<int64_t>{0, 0}));
}

}  // namespace
}  // namespace usmpx
