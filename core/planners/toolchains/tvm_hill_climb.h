#pragma once

#include "planners/common/planner.h"

namespace usmpx {

// TVM USMP's hill_climb, reproduced bit for bit (hill_climb.cc, v0.11-v0.19).
//
// Starts from greedy_by_size order and repeats, up to 500 times: place every buffer with a
// gap-filling greedy (placed conflicts walked in offset order, moving up only on a clash), sum
// the pool peaks, accept the result when it is smaller (or, with probability
// 50 * (total - best) / total / attempt percent, when it is not), otherwise undo the last swap.
// Then pick one buffer defining a pool peak and swap two buffers from its first- or second-level
// conflict neighbourhood in the order. Random numbers come from glibc rand_r seeded with 0, drawn
// in TVM's exact order. It stops early at the memory pressure and returns the *last accepted*
// plan. Pinned buffers are placed before the ordered ones and never swapped.
Plan plan_tvm_hill_climb(const Problem& problem, const PlannerOptions& options);

}  // namespace usmpx
