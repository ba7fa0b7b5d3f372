#pragma once

// Choosing each buffer's pool when there are several (candidate lists in order of preference,
// size hints, pins), after a greedy pass has made a first choice. Goals, in order
// (plan_objective.h): (1) every pool within its size hint, (2) as many bytes as possible in the
// buffers' preferred pools, (3) the smallest total.
//
// 1. Repair: a pool over its hint is first re-packed by the exact search within the hint; if that
//    fails, one of its buffers (topmost first, not pinned, with another candidate pool) moves to
//    another candidate, into a gap within that pool's hint if there is one, when that lowers the
//    plan's cost; failing that, one of its topmost buffers is forced into another candidate and
//    every buffer is re-planned greedily around it (so that others can swap pools). Repeated
//    until every pool fits or nothing helps.
// 2. Preference: buffers outside their first-choice pool, largest first, try each more preferred
//    pool: a free gap within the hint, else an exact re-pack of that pool with the buffer added
//    (small node budget). A move is kept only when it improves the plan's cost.
// 3. Ejection: one buffer leaves a pool with a size hint (smallest first) so that several that
//    prefer the pool fit in instead, kept only when the cost improves.
// Pinned buffers never move. Deterministic apart from where the deadline cuts the work.

#include "model/plan.h"
#include "planners/common/deadline.h"
#include "planners/heuristics/greedy_fit.h"

namespace usmpx {

void improve_pool_choice(const GreedyContext& context, std::vector<Allocation>& allocations, Deadline& deadline);

}  // namespace usmpx
