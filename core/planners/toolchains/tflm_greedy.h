#pragma once

#include "planners/common/planner.h"

namespace usmpx {

// TFLite Micro's GreedyMemoryPlanner, bit for bit (tflite-micro 90b983c,
// memory_planner/greedy_memory_planner.cc; facts in reference/tflm-memory-planning.md §1):
// buffers pinned to an offset (TFLM's offline-planned buffers) first, in index order, each at its
// pin; then the others by size, largest first, ties to the higher index; each walks the placed
// buffers in offset order, looking only at those live at the same time, and takes the first gap
// that holds it (or the top). Lifetimes are closed intervals, as TFLM's first/last use.
//
// Over any problem: each buffer goes into its pinned pool or its first candidate, pools are
// planned one by one; problems with conflict lists use them (both directions) instead of
// lifetimes; an offset is rounded up to the buffer's alignment (a no-op on TFLM's sizes, which
// its caller already rounds to 16). Pool size hints do not steer it, as TFLM knows none.
Plan plan_tflm_greedy(const Problem& problem, const PlannerOptions& options);

}  // namespace usmpx
