#pragma once

#include <cstdint>
#include <vector>

#include "model/problem.h"

namespace usmpx {

// A lower bound on memory: no valid plan can use fewer bytes.
struct LowerBound {
  int64_t bytes = 0;
  bool exact = false;        // true when it is the maximum clique weight itself, not just a clique
  std::vector<int> witness;  // buffers that must all be live at once (a clique of conflicts)
};

// Bound for the buffers in `subset` sharing one pool. For lifetime problems: the maximum of live
// bytes over time (= maximum clique weight, exact). For conflict lists: the heaviest clique found
// by a greedy search, improved by a branch-and-bound with a fixed work budget (exact when it
// finishes). Conflicts count in either direction. The clique found (the witness) is then raised by
// the padding its buffers' alignments force (clique_pool.h clique_lower_bound).
LowerBound pool_lower_bound(const Problem& problem, const std::vector<int>& subset);

// Bound on the total over all pools: buffers are grouped by the pools they can share, and the
// groups' bounds add up, since buffers of different groups never share a pool. A group of several
// pools gets no alignment padding (a clique may be split among them).
LowerBound total_lower_bound(const Problem& problem);

}  // namespace usmpx
