// tflm_greedy on hand-made problems: TFLM's order (size, then higher index first), its gap walk
// over buffers live at the same time, and pinned buffers as TFLM's offline-planned ones.
#include <gtest/gtest.h>

#include "base/text_file.h"
#include "frontends/problem_files/minimalloc_csv.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

Problem lifetimes(const std::vector<std::tuple<int64_t, int64_t, int64_t>>& buffers) {
  Problem p;
  p.pools.push_back(Pool{"arena"});
  p.conflict_source = ConflictSource::kLifetimes;
  for (const auto& [size, first, last] : buffers) {
    Buffer b;
    b.name = "b" + std::to_string(p.buffers.size());
    b.size_bytes = size;
    b.alignment = 16;
    b.pool_candidates = {0};
    b.lifetime = Lifetime::closed(first, last);
    p.buffers.push_back(b);
  }
  return p;
}

std::vector<int64_t> offsets(const Plan& plan) {
  std::vector<int64_t> out;
  for (const Allocation& a : plan.allocations)
    out.push_back(a.offset);
  return out;
}

TEST(TflmGreedy, ChainReusesGapsBelowThePlacedBuffers) {
  // hello_world_int8's four 16-byte buffers: TFLM puts them at 16, 0, 16, 0 (head 32).
  const Problem p = lifetimes({{16, 0, 1}, {16, 1, 2}, {16, 2, 3}, {16, 3, 3}});
  const Plan plan = run_planner(*make_planner("tflm_greedy"), p, PlannerOptions{});
  EXPECT_EQ(offsets(plan), (std::vector<int64_t>{16, 0, 16, 0}));
  EXPECT_EQ(plan.pool_sizes[0], 32);
}

TEST(TflmGreedy, EqualSizesGoHigherIndexFirst) {
  // Order c, b, a: c at 0, b above it, a above both. Lower index first would give 0, 16, 32.
  const Problem p = lifetimes({{16, 0, 1}, {16, 1, 2}, {16, 0, 2}});
  const Plan plan = run_planner(*make_planner("tflm_greedy"), p, PlannerOptions{});
  EXPECT_EQ(offsets(plan), (std::vector<int64_t>{32, 16, 0}));
}

TEST(TflmGreedy, PinnedBuffersAreFixedFirstAndOthersFitAroundThem) {
  Problem p = lifetimes({{16, 0, 5}, {32, 0, 5}, {16, 0, 5}});
  p.buffers[0].pin = Pin{0, 32};
  const Plan plan = run_planner(*make_planner("tflm_greedy"), p, PlannerOptions{});
  // b1 (32 bytes) fits in the gap below the pinned buffer; b2 goes above it.
  EXPECT_EQ(offsets(plan), (std::vector<int64_t>{32, 0, 48}));
  EXPECT_EQ(plan.pool_sizes[0], 64);
  EXPECT_FALSE(plan.has_errors());
}

TEST(TflmGreedy, GapTestIsAtLeastTheSize) {
  // A 32-byte gap between two live buffers holds a 32-byte buffer exactly.
  Problem p = lifetimes({{16, 0, 3}, {16, 0, 3}, {32, 1, 2}});
  p.buffers[0].pin = Pin{0, 0};
  p.buffers[1].pin = Pin{0, 48};
  const Plan plan = run_planner(*make_planner("tflm_greedy"), p, PlannerOptions{});
  EXPECT_EQ(offsets(plan), (std::vector<int64_t>{0, 48, 16}));
}

TEST(TflmGreedy, TflmsPersonDetectionPlannerTestGivesTheCompiledPlannersOffsets) {
  // greedy_memory_planner_test.cc TestPersonDetectionModel's 30 AddBuffer calls (sizes as given,
  // not rounded); TFLM's planner compiled on them gives these offsets and 64,512 bytes.
  USMPX_REQUIRE_SHARED(path, "benchmarks/derived/tflm_person_detection.csv");
  const Problem p = read_minimalloc_csv(read_text_file(path), path);
  const Plan plan = run_planner(*make_planner("tflm_greedy"), p, PlannerOptions{});
  EXPECT_EQ(offsets(plan),
            (std::vector<int64_t>{55296, 0, 2304, 0, 2304, 0, 4608,  0, 4608,  0, 4608,  0, 4608,  0, 4608, 0,
                                  4608,  0, 9216, 0, 9216, 0, 18432, 0, 18432, 0, 36864, 0, 36864, 0}));
  EXPECT_EQ(plan.pool_sizes[0], 64512);
}

}  // namespace
}  // namespace usmpx
