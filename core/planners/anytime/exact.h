#pragma once

#include "planners/common/planner.h"

namespace usmpx {

// exact: an anytime exact search, MiniMalloc's method written from its published description.
//
// 1. The greedy portfolio (multi_start.h, deterministic passes only) gives a valid starting plan
//    and an upper bound; pools are chosen there (preferred pools first, within size hints). The
//    input's reference plan (incumbent.h) replaces it when it ranks above it, and is returned at
//    once, without a search, when it already meets the lower bound.
// 2. Every pool is then re-packed by the exact search (pool_search.h): lower bound first, then
//    capacities below the best size found, until the time limit, cancellation, or a proof of
//    optimality. The plan can only get better than the starting plan, never worse.
// Lifetime problems use time slices as sections (with decomposition at cuts); conflict-list
// problems use cliques found greedily (no decomposition), so general graphs are searched too.
// The plan reports the proven lower bound (raised by exhausted searches) and whether it is proven
// optimal; when it does not fit, why (infeasibility.h). Pools too large for the search (over 4M overlapping pairs, or
// 3000 buffers in a general graph) keep the portfolio's placement; a note says so.
Plan plan_exact(const Problem& problem, const PlannerOptions& options);

}  // namespace usmpx
