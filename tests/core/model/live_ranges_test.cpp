// A buffer's live ranges: merged, spanned by its lifetime, and what "live at the same time" means.
#include <gtest/gtest.h>

#include "inputs/input_file.h"
#include "model/live_ranges.h"
#include "test_support.h"

namespace usmpx {
namespace {

TEST(LiveRanges, SeparateRangesAreKeptTouchingOnesMerged) {
  Buffer b;
  set_live_ranges(b, {Lifetime::closed(20, 25), Lifetime::closed(3, 5), Lifetime::closed(6, 8), {9, 9}});
  EXPECT_EQ(b.lifetime, (Lifetime{3, 26}));
  // [3, 6) and [6, 9) touch: one range; [20, 26) apart; the empty [9, 9) dropped.
  EXPECT_EQ(b.live_ranges, (std::vector<Lifetime>{{3, 9}, {20, 26}}));
  Buffer one;
  set_live_ranges(one, {Lifetime::closed(4, 7), Lifetime::closed(5, 6)});
  EXPECT_EQ(one.lifetime, (Lifetime{4, 8}));
  EXPECT_TRUE(one.live_ranges.empty());
  EXPECT_EQ(live_ranges_of(one), (std::vector<Lifetime>{{4, 8}}));
}

TEST(LiveRanges, LiveAtTheSameTimeOnlyWhereRangesMeet) {
  Buffer twice;
  set_live_ranges(twice, {Lifetime::closed(0, 4), Lifetime::closed(20, 24)});
  Buffer between;
  between.lifetime = Lifetime::closed(6, 18);
  Buffer overlapping;
  overlapping.lifetime = Lifetime::closed(18, 20);
  EXPECT_FALSE(live_at_the_same_time(twice, between));
  EXPECT_TRUE(live_at_the_same_time(twice, overlapping));
  EXPECT_TRUE(live_at_the_same_time(between, overlapping));
}

// An operator called twice (the ESP32 model's T_layout_trans): live in each call, not between,
// where sid_15 lives; the conflicts, computed from the same intervals, agree.
TEST(LiveRanges, TheTirAnalysisKeepsOneRangePerCall) {
  const LoadedInput in = load_input(testing::fixture_path("tir/operator_called_twice.py"));
  const Problem& p = in.problem;
  const Buffer& trans = p.buffers[static_cast<size_t>(*p.find_buffer("T_layout_trans"))];
  const Buffer& sid15 = p.buffers[static_cast<size_t>(*p.find_buffer("sid_15"))];
  ASSERT_EQ(trans.live_ranges.size(), 2u);
  EXPECT_FALSE(live_at_the_same_time(trans, sid15));
  EXPECT_TRUE(trans.lifetime->overlaps(*sid15.lifetime));
  for (size_t a = 0; a < p.buffers.size(); ++a) {
    for (int c : p.buffers[a].conflicts) {
      if (c != static_cast<int>(a))
        EXPECT_TRUE(live_at_the_same_time(p.buffers[a], p.buffers[static_cast<size_t>(c)]))
            << p.buffers[a].name << " / " << p.buffers[static_cast<size_t>(c)].name;
    }
  }
}

}  // namespace
}  // namespace usmpx
