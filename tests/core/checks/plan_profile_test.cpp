#include "checks/plan_profile.h"

#include <gtest/gtest.h>

namespace usmpx {
namespace {

TEST(PlanProfile, LiveBytesPerPoolAsSteps) {
  Problem p;
  p.pools = {Pool{.name = "a"}, Pool{.name = "b"}};
  p.buffers.push_back(Buffer{.name = "x", .size_bytes = 10, .lifetime = Lifetime{0, 4}});
  p.buffers.push_back(Buffer{.name = "y", .size_bytes = 5, .lifetime = Lifetime{2, 6}});
  p.buffers.push_back(Buffer{.name = "z", .size_bytes = 7, .lifetime = Lifetime{4, 5}});
  p.buffers.push_back(Buffer{.name = "other", .size_bytes = 99, .lifetime = Lifetime{0, 9}});
  Plan plan;
  plan.allocations = {{0, 0}, {0, 16}, {0, 0}, {1, 0}};
  EXPECT_EQ(live_bytes_profile(p, plan, 0), (std::vector<LiveStep>{{0, 10}, {2, 15}, {4, 12}, {5, 5}, {6, 0}}));
  EXPECT_EQ(tick_range(p), (std::pair<int64_t, int64_t>{0, 9}));
}

TEST(PlanProfile, ConstantsSpanTheWholeRun) {
  Problem p;
  p.pools = {Pool{.name = "flash", .kind = PoolKind::kConstant}};
  p.buffers.push_back(Buffer{.name = "w", .size_bytes = 8, .kind = BufferKind::kConstant, .lifetime = Lifetime{3, 4}});
  p.buffers.push_back(Buffer{.name = "x", .size_bytes = 1, .lifetime = Lifetime{0, 10}});
  EXPECT_EQ(display_lifetime(p, p.buffers[0]), (Lifetime{0, 10}));
  EXPECT_EQ(display_lifetime(p, p.buffers[1]), (Lifetime{0, 10}));
  Plan plan;
  plan.allocations = {{0, 0}, {}};
  EXPECT_EQ(live_bytes_profile(p, plan, 0), (std::vector<LiveStep>{{0, 8}, {10, 0}}));
}

TEST(PlanProfile, Roles) {
  EXPECT_EQ(buffer_role(Buffer{.name = "sid_1", .origin = {"tvmgen_default___tvm_main__", {}}}),
            BufferRole::kIntermediate);
  EXPECT_EQ(buffer_role(Buffer{.name = "PaddedInput", .origin = {"tvmgen_default_fused_conv2d", {}}}),
            BufferRole::kOperatorInternal);
  EXPECT_EQ(buffer_role(Buffer{.name = "w", .kind = BufferKind::kConstant}), BufferRole::kConstant);
  EXPECT_EQ(buffer_role(Buffer{.name = "in", .kind = BufferKind::kInput}), BufferRole::kInputOutput);
}

}  // namespace
}  // namespace usmpx
