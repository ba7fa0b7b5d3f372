#pragma once

#include <string>
#include <vector>

#include "model/plan.h"
#include "model/problem.h"

namespace usmpx {

// How well re-planning reproduces a plan read from generated code.
struct AsBuiltMatch {
  std::string algorithm;       // the TVM algorithm that agrees with the most buffers
  int matching = 0;            // buffers it puts in the same pool at the same offset
  int total = 0;               // buffers the as-built plan places
  std::vector<int> differing;  // the buffers it places elsewhere
};

// Re-plans the problem with each of TVM's algorithms (greedy_by_size, greedy_by_conflicts,
// hill_climb) and reports the one whose placements agree with `as_built` for the most buffers;
// on a tie, the first in that order. Pins are ignored (this checks the analysis, not the edits),
// except those of reserved bytes, which are not counted.
AsBuiltMatch match_as_built(const Problem& problem, const Plan& as_built);

}  // namespace usmpx
