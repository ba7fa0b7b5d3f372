#pragma once

#include "planners/common/planner.h"

namespace usmpx {

// First fit into gaps, as TFLite Micro's GreedyMemoryPlanner: buffers by size, largest first
// (ties: lower index), each at the lowest offset where it fits between the placed buffers it
// conflicts with, above them all only when no gap holds it. Unlike TVM's greedy planners it fills
// gaps, and it reads conflicts in both directions. Pools, pins and size hints as in greedy_fit.h.
// O(n log n) for lifetime problems (time-indexed gap queries), so 60k-buffer traces take well
// under a second; general conflict graphs cost O(sum of degrees * log).
Plan plan_first_fit(const Problem& problem, const PlannerOptions& options);

}  // namespace usmpx
