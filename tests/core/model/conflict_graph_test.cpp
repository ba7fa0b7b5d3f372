#include "model/conflict_graph.h"

#include <gtest/gtest.h>

namespace usmpx {
namespace {

TEST(ConflictGraph, LifetimeOverlapsAreClosedIntervalsInTicks) {
  Problem p;
  p.conflict_source = ConflictSource::kLifetimes;
  p.buffers.push_back(Buffer{.name = "a", .lifetime = Lifetime::closed(0, 3)});
  p.buffers.push_back(Buffer{.name = "b", .lifetime = Lifetime::closed(3, 5)});  // shares tick 3 with a
  p.buffers.push_back(Buffer{.name = "c", .lifetime = Lifetime::closed(6, 6)});
  p.buffers.push_back(Buffer{.name = "d"});                              // no lifetime: never live
  p.buffers.push_back(Buffer{.name = "e", .lifetime = Lifetime{5, 5}});  // empty
  const ConflictLists lists = conflict_lists(p);
  EXPECT_EQ(lists[0], std::vector<int>{1});
  EXPECT_EQ(lists[1], std::vector<int>{0});
  EXPECT_TRUE(lists[2].empty());
  EXPECT_TRUE(lists[3].empty());
  EXPECT_TRUE(lists[4].empty());
  EXPECT_EQ(count_lifetime_overlaps(p), 1);
}

TEST(ConflictGraph, ExplicitListsAreKeptAsGivenAndSymmetrisedOnRequest) {
  Problem p;
  p.buffers.push_back(Buffer{.name = "a", .conflicts = {2, 2, 0}});
  p.buffers.push_back(Buffer{.name = "b", .conflicts = {}});
  p.buffers.push_back(Buffer{.name = "c", .conflicts = {1}});
  const ConflictLists lists = conflict_lists(p);
  EXPECT_EQ(lists[0], (std::vector<int>{2, 2, 0}));
  const ConflictLists both = symmetric_conflicts(p);
  EXPECT_EQ(both[0], std::vector<int>{2});
  EXPECT_EQ(both[1], std::vector<int>{2});
  EXPECT_EQ(both[2], (std::vector<int>{0, 1}));
}

}  // namespace
}  // namespace usmpx
