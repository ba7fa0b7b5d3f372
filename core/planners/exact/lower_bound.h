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

// One meaning everywhere (CLI, explorer, reports): a lower bound is what no valid plan of the
// problem can go below, and the gap is how far a plan is above it.
//
// Per pool: the bound of the buffers every valid plan puts there (those whose only candidate it is,
// or pinned there). Buffers that may choose another pool count for none, so a pool holding them may
// sit above its bound in an optimal plan.
std::vector<int64_t> pool_lower_bounds(const Problem& problem);

// Per pool, the buffers every valid plan puts there (their only candidate pool).
std::vector<std::vector<int>> confined_buffers(const Problem& problem);

// Per pool: no buffer may choose between it and another pool, so every valid plan puts the same
// buffers there, and what a search proves about them bounds the pool itself.
std::vector<char> closed_pools(const Problem& problem);

// Bound on the total over all pools: buffers are grouped by the pools they can share, and the
// groups' bounds add up, since buffers of different groups never share a pool. A group's bound is
// the larger of its clique's (split among its pools, so its alignment padding counts less: each
// pool's top may hide some) and the sum of its pools' bounds. `pool_bounds`, when given, are per
// pool bounds a planner proved (at least pool_lower_bounds); the total is then at least their sum.
LowerBound total_lower_bound(const Problem& problem);
LowerBound total_lower_bound(const Problem& problem, const std::vector<int64_t>& pool_bounds);

}  // namespace usmpx
