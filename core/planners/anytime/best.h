#pragma once

#include "planners/common/planner.h"

namespace usmpx {

// best: the strongest planners within the time limit (default 5 s), returning the best valid plan
// by plan_objective.h (fit, then bytes in preferred pools, then total size).
//
// 0. The input's reference plan (incumbent.h) is the incumbent: when it meets the lower bound it
//    is returned at once; when it ranks above step 1's plan it is the start; no plan that ranks
//    below it is ever returned.
// 1. The greedy portfolio (every order with best and first fit, multi_start.h) gives a start.
// 2. With several pools, or a pool over its size hint, the pool choice is improved
//    (pool_choice.h): repair overflowing pools, then move bytes into preferred pools.
// 3. The exact search re-packs every pool (exact_pools.h), lower bound first, and stops as soon
//    as every pool is proven optimal. On inputs of up to 1000 buffers it leaves 10% of the time
//    limit to step 4.
// 4. Unless step 3 proved optimality: TVM's hill_climb and randomised greedy restarts around the
//    best greedy pass, with the time left; a better valid plan replaces the current one. Inputs
//    too large for the exact search spend all their time here.
// When the plan still does not fit, a diagnostic names the pool, the bytes missing and a small
// set of buffers that cannot fit together (infeasibility.h). Deterministic except for where the
// time limit or cancellation stops the searches.
Plan plan_best(const Problem& problem, const PlannerOptions& options);

}  // namespace usmpx
