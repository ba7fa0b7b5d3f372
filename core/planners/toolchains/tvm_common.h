#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/conflict_graph.h"
#include "model/plan.h"
#include "model/problem.h"

// Pieces shared by the TVM-compatible planners (tvm_greedy, tvm_hill_climb).
namespace usmpx::tvm_compat {

// Buffer indices in greedy_by_size order: size descending, then conflict count descending
// (duplicates and self included), then name descending, byte-wise.
std::vector<int> order_by_size(const Problem& problem, const ConflictLists& conflicts);

// Buffer indices in greedy_by_conflicts order: conflict count, then size, then name, all descending.
std::vector<int> order_by_conflicts(const Problem& problem, const ConflictLists& conflicts);

// Moves pinned buffers to the front, those pinned at an offset first, keeping the relative order
// within each group.
void pinned_first(const Problem& problem, std::vector<int>& order);

// Per pool, while one buffer is placed: whether the pool is still a candidate and the offset
// above the conflicts seen so far (TVM's pool_offset_candidates).
struct PoolCandidates {
  explicit PoolCandidates(size_t pools) : present(pools, 0), offset(pools, 0) {}
  // Starts a buffer of `size` bytes: present in its candidate pools where it fits at 0, all at 0.
  void start(const Problem& problem, const std::vector<int>& candidates, int64_t size);
  // TVM's SelectPlacementPool: the first candidate still present, or -1.
  int select(const std::vector<int>& candidates) const;

  std::vector<char> present;
  std::vector<int64_t> offset;
};

// The text TVM's SelectPlacementPool fails with when no candidate pool has room.
std::string placement_error_text(const Problem& problem, int buffer, size_t conflict_count);

// After a TVM planner gave up on `buffer`, place it anyway so the user sees the overflow: in its
// first candidate pool, above its placed conflicts there (TVM's greedy rule, size hint ignored).
void place_overflowing(const Problem& problem, const ConflictLists& conflicts, const std::vector<bool>& placed,
                       int buffer, Plan& plan);

}  // namespace usmpx::tvm_compat
