#pragma once

#include <vector>

#include "model/plan.h"
#include "model/problem.h"

namespace usmpx {

// The buffers a plan puts at addresses overlapping `buffer`'s in the same pool while their drawn
// ticks overlap too (live ranges by model/live_ranges.h; constants span the whole run), although
// the checker does not count them as conflicting: `conflicts` are `buffer`'s conflicts, both
// directions. A chart draws these over each other in a valid plan; sorted ascending.
std::vector<int> drawn_over_without_conflict(const Problem& problem, const Plan& plan, int buffer,
                                             const std::vector<int>& conflicts);

}  // namespace usmpx
