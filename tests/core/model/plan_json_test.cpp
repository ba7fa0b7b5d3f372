#include "model/plan_json.h"

#include <gtest/gtest.h>

namespace usmpx {
namespace {

TEST(PlanJson, ExactShapeOfDesign) {
  Problem p;
  p.pools.push_back(Pool{.name = "sram", .size_hint_bytes = 100});
  p.pools.push_back(Pool{.name = "flash", .kind = PoolKind::kConstant});
  p.buffers.push_back(Buffer{.name = "a", .size_bytes = 10, .pool_candidates = {0}});
  p.buffers.push_back(Buffer{.name = "w", .size_bytes = 3, .kind = BufferKind::kConstant, .pool_candidates = {1}});
  p.buffers.push_back(Buffer{.name = "lost", .size_bytes = 4, .pool_candidates = {}});
  Plan plan;
  plan.algorithm = "greedy_by_size";
  plan.runtime_ms = 0.1234567;
  plan.allocations = {{0, 16}, {1, 0}, {}};
  plan.lower_bound_bytes = 13;
  compute_pool_sizes(p, plan);
  EXPECT_EQ(write_plan_json(p, plan), R"({
  "algorithm": "greedy_by_size",
  "runtime_ms": 0.123,
  "fits": false,
  "lower_bound_bytes": 13,
  "pools": [
    {
      "name": "sram",
      "kind": "workspace",
      "size_bytes": 26,
      "size_hint_bytes": 100
    },
    {
      "name": "flash",
      "kind": "constant",
      "size_bytes": 3,
      "size_hint_bytes": -1
    }
  ],
  "allocations": [
    {
      "buffer": "a",
      "pool": "sram",
      "offset": 16,
      "size_bytes": 10
    },
    {
      "buffer": "w",
      "pool": "flash",
      "offset": 0,
      "size_bytes": 3
    },
    {
      "buffer": "lost",
      "pool": null,
      "offset": null,
      "size_bytes": 4
    }
  ]
}
)");
}

}  // namespace
}  // namespace usmpx
