#include "planners/lower_bound.h"

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

}  // namespace
}  // namespace usmpx
