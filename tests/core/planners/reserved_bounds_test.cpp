// Lower bounds that see blocks pinned at fixed offsets (the reserved bytes of operators the tool
// cannot read): buffers too large for the gaps below the highest block lie above it, so the bound
// rises to what the best plan needs and `best` proves it instead of searching to its limit.
#include <gtest/gtest.h>

#include <random>

#include "planners/common/validator.h"
#include "planners/exact/lower_bound.h"
#include "planners/registry.h"
#include "random_problems.h"
#include "test_support.h"

namespace usmpx {
namespace {

Buffer block(const std::string& name, int64_t size, int64_t offset, Lifetime lifetime) {
  Buffer b;
  b.name = name;
  b.size_bytes = size;
  b.alignment = 1;
  b.kind = BufferKind::kReserved;
  b.pool_candidates = {0};
  b.pin = Pin{0, offset};
  b.lifetime = lifetime;
  return b;
}

Buffer tensor(const std::string& name, int64_t size, Lifetime lifetime, int64_t alignment = 16) {
  Buffer b;
  b.name = name;
  b.size_bytes = size;
  b.alignment = alignment;
  b.pool_candidates = {0};
  b.lifetime = lifetime;
  return b;
}

// A reserved block at [100, 600), live throughout, and two tensors live together that fit
// neither below it: the pool needs 608 (600 aligned to 16) + 1200 + 300 bytes; the bytes live
// together say 2000.
Problem blocked_pool(ConflictSource source) {
  Problem p;
  p.conflict_source = source;
  p.pools.push_back(Pool{.name = "sram"});
  p.buffers = {block("reserved_sram_100", 500, 100, {0, 10}), tensor("a", 1200, {2, 6}), tensor("b", 300, {3, 8}),
               tensor("c", 64, {0, 2})};
  if (source == ConflictSource::kExplicit) {
    p.buffers[0].conflicts = {1, 2, 3};
    p.buffers[1].conflicts = {2};
  }
  return p;
}

TEST(ReservedBounds, BuffersTooLargeForTheGapsLieAboveTheBlocks) {
  for (ConflictSource source : {ConflictSource::kLifetimes, ConflictSource::kExplicit}) {
    SCOPED_TRACE(source == ConflictSource::kLifetimes ? "lifetimes" : "conflict lists");
    const Problem p = blocked_pool(source);
    EXPECT_EQ(pool_lower_bound(p, {0, 1, 2, 3}).bytes, 2108);
    EXPECT_EQ(pool_lower_bounds(p), std::vector<int64_t>{2108});
    EXPECT_EQ(total_lower_bound(p).bytes, 2108);
    const Plan best = run_planner(*make_planner("best"), p, testing::step_budget(100'000));
    EXPECT_TRUE(validate(p, best).empty());
    EXPECT_EQ(best.total_size(), 2108);
    EXPECT_TRUE(best.proven_optimal);
  }
}

TEST(ReservedBounds, SmallBuffersFillTheGapsFirst) {
  // Gaps [0, 100) and [600, 700) below the top block's end 1000 hold 200 bytes: of three 96-byte
  // tensors live together, at most 200 bytes lie below, so 88 lie above.
  Problem p;
  p.conflict_source = ConflictSource::kLifetimes;
  p.pools.push_back(Pool{.name = "sram"});
  p.buffers = {block("r1", 500, 100, {0, 10}), block("r2", 300, 700, {0, 10}), tensor("x", 96, {1, 5}, 1),
               tensor("y", 96, {1, 5}, 1), tensor("z", 96, {1, 5}, 1)};
  EXPECT_EQ(pool_lower_bound(p, {0, 1, 2, 3, 4}).bytes, 1088);
  // Aligned to 128, a 96-byte tensor fits only the gap at 0 (640 + 96 passes 700), which holds
  // 128 of the three tensors' 384 bytes counted in 128-byte units; above 1024 lie the other 256
  // less the highest one's 32 bytes of rounding, as the best plan puts them.
  for (size_t b = 2; b < 5; ++b)
    p.buffers[b].alignment = 128;
  EXPECT_EQ(pool_lower_bound(p, {0, 1, 2, 3, 4}).bytes, 1024 + 128 + 96);
  // 101 bytes fit neither gap: all three lie above, 128 bytes apart, as every plan puts them.
  for (size_t b = 2; b < 5; ++b)
    p.buffers[b].size_bytes = 101;
  EXPECT_EQ(pool_lower_bound(p, {0, 1, 2, 3, 4}).bytes, 1024 + 2 * 128 + 101);
  const Plan best = run_planner(*make_planner("best"), p, testing::step_budget(100'000));
  EXPECT_EQ(best.total_size(), 1024 + 2 * 128 + 101);
  EXPECT_TRUE(best.proven_optimal);
}

TEST(ReservedBounds, AlignedBuffersAboveTheBlocksKeepTheirRounding) {
  // A block at [0, 100) and three 20-byte tensors aligned to 16, live together: above 112 they
  // start 32 bytes apart, so the pool ends at 112 + 32 + 32 + 20 = 196, not at 112 + 60.
  for (ConflictSource source : {ConflictSource::kLifetimes, ConflictSource::kExplicit}) {
    SCOPED_TRACE(source == ConflictSource::kLifetimes ? "lifetimes" : "conflict lists");
    Problem p;
    p.conflict_source = source;
    p.pools.push_back(Pool{.name = "sram"});
    p.buffers = {block("r", 100, 0, {0, 10}), tensor("x", 20, {1, 5}), tensor("y", 20, {2, 6}),
                 tensor("z", 20, {3, 7})};
    if (source == ConflictSource::kExplicit) {
      p.buffers[0].conflicts = {1, 2, 3};
      p.buffers[1].conflicts = {2, 3};
      p.buffers[2].conflicts = {3};
    }
    EXPECT_EQ(pool_lower_bound(p, {0, 1, 2, 3}).bytes, 196);
    const Plan best = run_planner(*make_planner("best"), p, testing::step_budget(100'000));
    EXPECT_TRUE(validate(p, best).empty());
    EXPECT_EQ(best.total_size(), 196);
    EXPECT_TRUE(best.proven_optimal);
  }
}

TEST(ReservedBounds, BlocksSomeBuffersMayOverlapAreNoWall) {
  // The block is not live while `late` is: late may go below its end, so only the block's own
  // end bounds the pool.
  Problem p;
  p.conflict_source = ConflictSource::kLifetimes;
  p.pools.push_back(Pool{.name = "sram"});
  p.buffers = {block("r", 500, 100, {0, 4}), tensor("early", 64, {1, 3}), tensor("late", 800, {5, 9})};
  EXPECT_EQ(pool_lower_bound(p, {0, 1, 2}).bytes, 800);
  const Plan plan = testing::plan_with("greedy_by_size", p);
  EXPECT_GE(plan.total_size(), 800);
}

// The bound holds for every plan: on random problems with pins, no valid plan of any planner goes
// below it.
TEST(ReservedBounds, NoValidPlanGoesBelowTheBound) {
  std::mt19937_64 rng(99);
  for (int round = 0; round < 300; ++round) {
    testing::RandomProblemSpec spec;
    spec.buffers = 3 + round % 12;
    spec.pin_fraction = 0.3;
    spec.mixed_alignment = round % 2 == 0;
    spec.explicit_conflicts = round % 3 == 0;
    Problem p = testing::random_interval_problem(rng, spec);
    // Pinned blocks live throughout, as reserved bytes are.
    for (Buffer& b : p.buffers) {
      if (b.pin && b.pin->offset) b.lifetime = Lifetime{0, spec.horizon + 1};
    }
    if (spec.explicit_conflicts) continue;  // their lists were written before the lifetimes changed
    std::vector<int> all(p.buffers.size());
    for (size_t i = 0; i < all.size(); ++i)
      all[i] = static_cast<int>(i);
    const int64_t bound = pool_lower_bound(p, all).bytes;
    for (const char* name : {"greedy_by_size", "first_fit", "best_fit_size"}) {
      const Plan plan = testing::plan_with(name, p);
      if (!validate(p, plan).empty()) continue;
      ASSERT_GE(plan.total_size(), bound) << "round " << round << " " << name;
    }
    const Plan best = run_planner(*make_planner("best"), p, testing::step_budget(20'000));
    if (validate(p, best).empty()) ASSERT_GE(best.total_size(), bound) << "round " << round;
  }
}

// The shape the bound is made for: blocks pinned throughout, tensors with odd sizes and 8-, 16- or
// 32-byte alignment around them. On small random pools the exact search finds the optimum; the
// bound never exceeds it, and meets it on many of them.
TEST(ReservedBounds, TheBoundNeverExceedsTheOptimumOfBlockedPools) {
  std::mt19937_64 rng(2026);
  int tight = 0;
  int solved = 0;
  for (int round = 0; round < 200; ++round) {
    Problem p;
    p.conflict_source = ConflictSource::kLifetimes;
    p.pools.push_back(Pool{.name = "sram"});
    int64_t at = static_cast<int64_t>(rng() % 64);
    const int blocks = 1 + static_cast<int>(rng() % 3);
    for (int k = 0; k < blocks; ++k) {
      const int64_t size = 20 + static_cast<int64_t>(rng() % 100);
      p.buffers.push_back(block("r" + std::to_string(k), size, at, {0, 12}));
      at += size + static_cast<int64_t>(rng() % 160);
    }
    const int tensors = 3 + static_cast<int>(rng() % 6);
    for (int i = 0; i < tensors; ++i) {
      const int64_t begin = static_cast<int64_t>(rng() % 10);
      p.buffers.push_back(tensor("t" + std::to_string(i), 9 + static_cast<int64_t>(rng() % 200),
                                 {begin, begin + 1 + static_cast<int64_t>(rng() % 3)}, int64_t{8} << (rng() % 3)));
    }
    std::vector<int> all(p.buffers.size());
    for (size_t i = 0; i < all.size(); ++i)
      all[i] = static_cast<int>(i);
    const int64_t bound = pool_lower_bound(p, all).bytes;
    const Plan exact = run_planner(*make_planner("exact"), p, testing::step_budget(200'000));
    if (!validate(p, exact).empty()) continue;
    ASSERT_GE(exact.total_size(), bound) << "round " << round;
    if (!exact.proven_optimal) continue;
    ++solved;
    tight += exact.total_size() == bound ? 1 : 0;
  }
  // Measured: all 200 solved, the bound exact on 88 (on 5,000 rounds: 2,195, never above).
  EXPECT_GE(solved, 190);
  EXPECT_GE(tight, 80) << tight << " of " << solved;
}

}  // namespace
}  // namespace usmpx
