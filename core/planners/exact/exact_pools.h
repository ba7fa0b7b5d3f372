#pragma once

// Runs the anytime exact search (pool_search.h) on every pool of a plan, largest pool first, each
// with an equal share of the time left, and records what it proved: a note per pool, and, when
// every buffer has a single possible pool, the plan's proven lower bound.

#include "model/plan.h"
#include "planners/common/deadline.h"

namespace usmpx {

// Returns whether every pool was proven optimal or, for a pool whose buffers all conflict, stacked
// in closed form (no further search is worth its time there; its note gives the bound and the padding left). With
// `stop_at_fit`, each restricted pool is searched only down to its size hint (see minimize_pool's target) and
// unrestricted pools are left as they are; then it returns whether every pool fits its hint.
bool minimize_pools(const Problem& problem, Plan& plan, Deadline& deadline, bool stop_at_fit = false);

}  // namespace usmpx
