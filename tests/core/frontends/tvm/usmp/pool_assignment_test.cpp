#include "frontends/tvm/usmp/pool_assignment.h"

#include <gtest/gtest.h>

#include "base/config_error.h"

namespace usmpx {
namespace {

const std::vector<std::string> kTargets = {"c -keys=arm_cpu,cpu -mcpu=cortex-m7"};

TEST(PoolAssignment, DefaultPoolsWhenTheUserGivesNone) {
  const PoolAssignment a = assign_pools(PoolOptions{}, kTargets);
  ASSERT_EQ(a.pools.size(), 2u);
  EXPECT_EQ(a.pools[0].name, "global_workspace");
  EXPECT_TRUE(a.pools[0].internal);
  EXPECT_EQ(a.pools[0].targets, (std::vector<PoolTarget>{{kTargets[0], "rw"}}));
  EXPECT_EQ(a.pools[1].name, "global_const_workspace");
  EXPECT_EQ(a.pools[1].kind, PoolKind::kConstant);
  EXPECT_EQ(a.pools[1].targets, (std::vector<PoolTarget>{{kTargets[0], "ro"}}));
  EXPECT_EQ(a.workspace_candidates(kTargets[0]), std::vector<int>{0});
  EXPECT_EQ(a.constant_candidates(kTargets[0]), std::vector<int>{1});
}

TEST(PoolAssignment, UserWorkspacePoolsDropTheDefaultConstantPool) {
  PoolOptions o;
  o.workspace_pools = {"dtcm", "sram"};
  o.workspace_targets = {{"dtcm", "c"}};
  o.workspace_size_hints = {{"dtcm", 65536}};
  const PoolAssignment a = assign_pools(o, kTargets);
  ASSERT_EQ(a.pools.size(), 2u);
  EXPECT_FALSE(a.has_constant_pools());
  EXPECT_EQ(a.pools[0].size_hint_bytes, 65536);
  EXPECT_FALSE(a.pools[0].internal);
  EXPECT_EQ(a.workspace_candidates(kTargets[0]), (std::vector<int>{0, 1}));  // "c" matches the kind
  EXPECT_TRUE(a.workspace_candidates("llvm").empty());                       // pools serve only the model's targets
}

TEST(PoolAssignment, UserConstantPoolsAndErrors) {
  PoolOptions o;
  o.workspace_pools = {"sram"};
  o.constant_pools = {"flash"};
  const PoolAssignment a = assign_pools(o, kTargets);
  EXPECT_EQ(a.constant_candidates(kTargets[0]), std::vector<int>{1});
  PoolOptions bad;
  bad.workspace_targets = {{"nope", "c"}};
  EXPECT_THROW(assign_pools(bad, kTargets), ConfigError);
  PoolOptions capacity;
  capacity.capacity = 4096;
  EXPECT_EQ(assign_pools(capacity, kTargets).pools[0].size_hint_bytes, 4096);
}

}  // namespace
}  // namespace usmpx
