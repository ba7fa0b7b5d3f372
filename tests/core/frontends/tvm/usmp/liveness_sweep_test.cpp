#include "frontends/tvm/usmp/liveness_sweep.h"

#include <gtest/gtest.h>

namespace usmpx {
namespace {

TEST(LivenessSweep, ClosedIntervalsAndMemoryPressure) {
  // a [0,2], b [2,4], c [5,6]: a and b share tick 2.
  const LivenessResult r = sweep_liveness({10, 20, 40}, {false, false, false}, {{0, 0, 2}, {1, 2, 4}, {2, 5, 6}});
  EXPECT_EQ(r.conflicts[0], std::vector<int>{1});
  EXPECT_EQ(r.conflicts[1], std::vector<int>{0});
  EXPECT_TRUE(r.conflicts[2].empty());
  EXPECT_EQ(r.memory_pressure, 40);
}

TEST(LivenessSweep, SecondCallGivesDuplicatesAndSelfConflicts) {
  // y [0,9] is open while x is live in two calls, [1,3] and [2,6]: the second START of x meets
  // y again and x itself.
  const LivenessResult r = sweep_liveness({8, 4}, {false, false}, {{0, 1, 3}, {0, 2, 6}, {1, 0, 9}});
  EXPECT_EQ(r.conflicts[0], (std::vector<int>{1, 1, 0}));
  EXPECT_EQ(r.conflicts[1], (std::vector<int>{0, 0}));
  // Live bytes count both STARTs of x: 4 + 8 + 8.
  EXPECT_EQ(r.memory_pressure, 20);
}

TEST(LivenessSweep, ConstantsConflictOnlyWithConstants) {
  const LivenessResult r = sweep_liveness({4, 6, 100, 3}, {true, true, false, true},
                                          {{0, 0, 9}, {2, 1, 2}, {3, 5, 5}});  // buffer 1 never accessed
  EXPECT_EQ(r.conflicts[0], (std::vector<int>{1, 3}));
  EXPECT_EQ(r.conflicts[1], (std::vector<int>{0, 3}));
  EXPECT_TRUE(r.conflicts[2].empty());
  EXPECT_EQ(r.conflicts[3], (std::vector<int>{0, 1}));
  EXPECT_EQ(r.memory_pressure, 104);
}

}  // namespace
}  // namespace usmpx
