#include "planners/common/validator.h"

#include <gtest/gtest.h>

namespace usmpx {
namespace {

// Two workspace pools; a, b, c with lifetimes a:[0,4], b:[3,6], c:[7,9].
Problem sample_problem() {
  Problem p;
  p.conflict_source = ConflictSource::kLifetimes;
  p.pools.push_back(Pool{.name = "sram", .size_hint_bytes = 100});
  p.pools.push_back(Pool{.name = "dtcm"});
  p.buffers.push_back(Buffer{
      .name = "a", .size_bytes = 40, .alignment = 8, .pool_candidates = {0, 1}, .lifetime = Lifetime::closed(0, 4)});
  p.buffers.push_back(Buffer{
      .name = "b", .size_bytes = 30, .alignment = 1, .pool_candidates = {0}, .lifetime = Lifetime::closed(3, 6)});
  p.buffers.push_back(Buffer{
      .name = "c", .size_bytes = 50, .alignment = 1, .pool_candidates = {0}, .lifetime = Lifetime::closed(7, 9)});
  return p;
}

Plan plan_of(std::vector<Allocation> allocations) {
  Plan plan;
  plan.allocations = std::move(allocations);
  return plan;
}

std::vector<std::string> codes(const std::vector<Diagnostic>& diagnostics) {
  std::vector<std::string> out;
  for (const Diagnostic& d : diagnostics)
    out.push_back(d.code);
  return out;
}

TEST(Validator, AcceptsAValidPlan) {
  // a and c share offset 0 but are never live together.
  EXPECT_TRUE(validate(sample_problem(), plan_of({{0, 0}, {0, 40}, {0, 0}})).empty());
}

TEST(Validator, ReportsOverlapOfLiveBuffers) {
  const auto found = validate(sample_problem(), plan_of({{0, 0}, {0, 32}, {0, 0}}));
  ASSERT_EQ(codes(found), std::vector<std::string>{"overlap"});
  EXPECT_EQ(found[0].buffers, (std::vector<int>{0, 1}));
  EXPECT_EQ(found[0].pool, 0);
  EXPECT_EQ(found[0].message, "buffers 'a' [0, 40) and 'b' [32, 62) overlap in pool 'sram' while both are live");
}

TEST(Validator, NoOverlapAcrossPools) {
  EXPECT_TRUE(validate(sample_problem(), plan_of({{1, 0}, {0, 0}, {0, 0}})).empty());
}

TEST(Validator, ReportsMisalignmentCandidatesAndUnplaced) {
  const auto found = validate(sample_problem(), plan_of({{0, 44}, {1, 0}, {}}));
  EXPECT_EQ(codes(found), (std::vector<std::string>{"misaligned", "not-a-candidate", "unplaced"}));
  EXPECT_EQ(found[0].message, "buffer 'a' at offset 44 is not aligned to 8 bytes");
}

TEST(Validator, ReportsPoolOverflowWithCulprits) {
  const auto found = validate(sample_problem(), plan_of({{0, 0}, {0, 40}, {0, 56}}));
  ASSERT_EQ(codes(found), std::vector<std::string>{"pool-overflow"});
  EXPECT_EQ(found[0].message, "pool 'sram' needs 106 bytes but its size hint is 100 (6 bytes over)");
  EXPECT_EQ(found[0].buffers, std::vector<int>{2});
}

TEST(Validator, ReportsViolatedPins) {
  Problem p = sample_problem();
  p.buffers[2].pin = Pin{0, 8};
  const auto found = validate(p, plan_of({{0, 0}, {0, 40}, {0, 0}}));
  EXPECT_EQ(codes(found), std::vector<std::string>{"pin-violated"});
  p.buffers[2].pin = Pin{1, std::nullopt};
  EXPECT_EQ(codes(validate(p, plan_of({{0, 0}, {0, 40}, {0, 0}}))), std::vector<std::string>{"not-a-candidate"});
}

TEST(Validator, ExplicitListsCountInEitherDirection) {
  Problem p;
  p.pools.push_back(Pool{.name = "p"});
  p.buffers.push_back(Buffer{.name = "x", .size_bytes = 10, .pool_candidates = {0}, .conflicts = {}});
  p.buffers.push_back(Buffer{.name = "y", .size_bytes = 10, .pool_candidates = {0}, .conflicts = {0, 0}});
  const auto found = validate(p, plan_of({{0, 0}, {0, 5}}));
  ASSERT_EQ(codes(found), std::vector<std::string>{"overlap"});  // reported once despite the duplicate
  p.buffers[1].conflicts.clear();
  EXPECT_TRUE(validate(p, plan_of({{0, 0}, {0, 5}})).empty());
}

TEST(Validator, ZeroSizedBuffersNeverOverlap) {
  Problem p = sample_problem();
  p.buffers[1].size_bytes = 0;
  EXPECT_TRUE(validate(p, plan_of({{0, 0}, {0, 0}, {0, 0}})).empty());
}

}  // namespace
}  // namespace usmpx
