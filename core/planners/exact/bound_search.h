#pragma once

// The lower bound as a property of the problem: the same input gives the same bound on any
// machine, however busy, whatever time limit the plan search had.
//
// Per pool, the buffers every valid plan puts there (lower_bound.h) are handed to the exact
// search (exact_search.h) at the pool's static bound: MiniMalloc's round robin of the orders WAT,
// TAW and TWA, the node limit doubling after each round. A search that exhausts proves the capacity
// too small and raises the bound by one granule; a packing found at the bound ends it (the bound is
// then the optimum of those buffers). The search stops after a fixed number of nodes, never at a
// time: the plan search keeps its time limit for finding plans, and what it proves on the way is
// not used for the bound.

#include <cstdint>
#include <vector>

#include "model/problem.h"

namespace usmpx {

// The work each pool's bound search may do, in search nodes times the buffers searched (a node
// costs about as much as its buffers): 10,000 nodes for 200 buffers, 25,000 for 80.
inline constexpr int64_t kBoundSearchNodes = 2'000'000;

// Per pool: at least pool_lower_bounds(problem), raised by the bound search. Results are kept in a
// small process-wide cache keyed by the pool's buffers, so planning the same problem again (an
// edit elsewhere, another algorithm) does not search again.
std::vector<int64_t> searched_pool_bounds(const Problem& problem, int64_t work = kBoundSearchNodes);

}  // namespace usmpx
