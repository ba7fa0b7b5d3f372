#pragma once

#include <cstdint>
#include <vector>

#include "model/problem.h"

namespace usmpx {

using ConflictLists = std::vector<std::vector<int>>;

// The conflict lists as TVM's planners read them: the explicit, one-directional lists, or, for
// lifetime problems, every other buffer whose lifetime overlaps, in ascending index order.
ConflictLists conflict_lists(const Problem& problem);

// Both directions merged, duplicates and self-conflicts removed, sorted ascending. Two buffers
// must not overlap in a valid plan when either lists the other.
ConflictLists symmetric_conflicts(const Problem& problem);

// Number of unordered pairs of buffers with overlapping lifetimes (for sizing decisions).
int64_t count_lifetime_overlaps(const Problem& problem);

}  // namespace usmpx
