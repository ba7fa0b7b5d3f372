#pragma once

#include "planners/planner.h"

namespace usmpx {

// best: the strongest planners within the time limit (default 5 s), returning the best valid plan
// by plan_objective.h (fit, then bytes in preferred pools, then total size).
//
// 1. The greedy portfolio (every order with best and first fit) gives a starting plan; on inputs
//    of at most 2000 buffers TVM's hill_climb competes too (its plan is used only when valid).
// 2. With several pools, or a pool over its size hint, the pool choice is improved
//    (pool_choice.h): repair overflowing pools, then move bytes into preferred pools.
// 3. The exact search re-packs every pool with the time left (exact_pools.h), lower bound first;
//    it stops early when every pool is proven optimal.
// 4. Pools too large for the exact search spend the time left on randomised greedy restarts.
// When the plan still does not fit, a diagnostic names the pool, the bytes missing and a small
// set of buffers that cannot fit together (infeasibility.h). Deterministic except for where the
// time limit or cancellation stops the search.
class BestPlanner final : public Planner {
 public:
  std::string_view name() const override { return "best"; }
  Plan plan(const Problem& problem, const PlannerOptions& options) const override;
};

}  // namespace usmpx
