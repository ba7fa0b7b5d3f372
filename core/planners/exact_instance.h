#pragma once

// Builds the single-pool instance the exact search works on from some buffers of a Problem.
//
// Lifetime problems become interval instances: time is compressed to the segments between the
// members' lifetime ends, each segment is a section, and neighbours come from a sweep. Problems
// with conflict lists become general instances: the sections are cliques found greedily around
// each buffer (heaviest neighbours first), which is all the section inference needs to be sound.
// Buffers with a fixed offset in the pool (pins, or buffers a caller keeps) become fixed ranges
// the items must avoid. Members without conflicts (no lifetime, or size 0) are not items: they go
// at offset 0.

#include <cstdint>
#include <utility>
#include <vector>

#include "model/problem.h"
#include "planners/exact_search.h"

namespace usmpx::exact {

struct BuiltInstance {
  Instance instance;
  std::vector<int> buffer_of_item;  // Problem buffer index of each item
  std::vector<int> free_members;    // members that conflict with nothing (placed at 0)
};

// Overlapping lifetime pairs beyond which building an instance is not worth it (memory, time).
inline constexpr int64_t kMaxInstancePairs = 4'000'000;

BuiltInstance build_instance(const Problem& problem, const std::vector<int>& members,
                             const std::vector<std::pair<int, int64_t>>& fixed);

}  // namespace usmpx::exact
