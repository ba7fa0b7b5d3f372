#include "config/pool_options.h"

#include <gtest/gtest.h>

#include "base/config_error.h"

namespace usmpx {
namespace {

Problem two_kind_problem() {
  Problem p;
  p.pools.push_back(Pool{.name = "global_workspace", .internal = true});
  p.pools.push_back(Pool{.name = "global_const_workspace", .kind = PoolKind::kConstant, .internal = true});
  p.buffers.push_back(Buffer{.name = "a", .size_bytes = 8, .pool_candidates = {0}});
  p.buffers.push_back(Buffer{.name = "w", .size_bytes = 4, .kind = BufferKind::kConstant, .pool_candidates = {1}});
  return p;
}

TEST(PoolOptions, ParsesTvmcStyleValues) {
  EXPECT_EQ(parse_name_list("--workspace-pools", "sram,dtcm"), (std::vector<std::string>{"sram", "dtcm"}));
  EXPECT_EQ(parse_size_hints("--x", "sram:262144,dtcm:64k,big:1M,free:-1"),
            (NamedValues<int64_t>{{"sram", 262144}, {"dtcm", 65536}, {"big", 1048576}, {"free", -1}}));
  EXPECT_EQ(parse_targets("--x", "sram:c,dtcm:llvm"), (NamedValues<std::string>{{"sram", "c"}, {"dtcm", "llvm"}}));
  EXPECT_THROW(parse_name_list("--workspace-pools", "a,,b"), ConfigError);
  EXPECT_THROW(parse_name_list("--workspace-pools", "a,a"), ConfigError);
  EXPECT_THROW(parse_size_hints("--x", "sram"), ConfigError);
  EXPECT_THROW(parse_size_hints("--x", "sram:12q"), ConfigError);
  EXPECT_THROW(parse_size_hints("--x", "sram:-5"), ConfigError);
}

TEST(PoolOptions, WorkspacePoolsReplaceCandidatesInOrder) {
  Problem p = two_kind_problem();
  PoolOptions o;
  o.workspace_pools = {"dtcm", "sram"};
  o.workspace_size_hints = {{"dtcm", 65536}};
  o.workspace_targets = {{"sram", "c"}};
  apply_pool_options(p, o);
  ASSERT_EQ(p.pools.size(), 3u);
  EXPECT_EQ(p.pools[0].name, "dtcm");
  EXPECT_EQ(p.pools[0].size_hint_bytes, 65536);
  EXPECT_EQ(p.pools[1].name, "sram");
  EXPECT_EQ(p.pools[1].targets, (std::vector<PoolTarget>{{"c", "rw"}}));
  EXPECT_EQ(p.pools[2].name, "global_const_workspace");
  EXPECT_EQ(p.buffers[0].pool_candidates, (std::vector<int>{0, 1}));
  EXPECT_EQ(p.buffers[1].pool_candidates, std::vector<int>{2});
}

TEST(PoolOptions, CapacityLimitsTheOnlyUnrestrictedWorkspacePool) {
  Problem p = two_kind_problem();
  PoolOptions o;
  o.capacity = 1000;
  apply_pool_options(p, o);
  EXPECT_EQ(p.pools[0].size_hint_bytes, 1000);
  EXPECT_FALSE(p.pools[1].restricted());
}

TEST(PoolOptions, Errors) {
  Problem p = two_kind_problem();
  PoolOptions unknown;
  unknown.workspace_size_hints = {{"nope", 4}};
  EXPECT_THROW(apply_pool_options(p, unknown), ConfigError);
  PoolOptions wrong_kind;
  wrong_kind.workspace_size_hints = {{"global_const_workspace", 4}};
  EXPECT_THROW(apply_pool_options(p, wrong_kind), ConfigError);
  Problem pinned = two_kind_problem();
  pinned.buffers[0].pin = Pin{0, std::nullopt};
  PoolOptions removes;
  removes.workspace_pools = {"sram"};
  try {
    apply_pool_options(pinned, removes);
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), "buffer 'a' is pinned to pool 'global_workspace', which the pool options remove");
  }
}

}  // namespace
}  // namespace usmpx
