#pragma once

// Anytime use of the exact search (exact_search.h) on one pool of a plan.
//
// minimize_pool: the buffers a plan put into a pool are re-placed to lower the pool's size. Two
// activities share the search nodes equally:
// - the lower bound itself, MiniMalloc's round robin of the static orders WAT, TAW and TWA with a
//   node limit that doubles after each round;
// - descent passes: capacities below the best size found so far, lowest first, some just below
//   it (best - g, - 2g, - 3g, - 5g, - 8g, where g is the granularity of sizes, alignments and
//   pinned offsets) and some drawn across the gap to the bound (a golden-ratio sequence). After a
//   pass that found nothing, the three closest are first probed with every order at a small
//   limit. The passes' node limit doubles while they find nothing.
// A solution at capacity C usually peaks below C; an exhausted search without solution proves C
// too small and raises the lower bound. It stops at the deadline, or when the size reaches the
// (raised) lower bound: then the pool is proven optimal. Results depend on the wall clock only
// through how much of this fits before the deadline.
//
// fit_pool: the same search as a yes/no question with a node budget: can these buffers go into
// the pool below a capacity, around the buffers already there?

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "model/plan.h"
#include "planners/common/deadline.h"

namespace usmpx {

struct PoolSearchOutcome {
  bool searched = false;    // false when the pool was too large or trivial for the exact search
  int64_t size = 0;         // the pool's size after the search
  int64_t lower_bound = 0;  // proven: no placement of these buffers in this pool is smaller
  bool optimal = false;     // size == lower_bound
  // The buffers all conflict and were stacked in closed form; the padding between the bound and
  // the stack is left (no search places them closer than the best stacking order).
  bool clique = false;
};

//
// With a `target`, the search answers "can the pool be at most `target`?" instead: it tries that
// capacity alone (the three orders in turn, the node limit doubling each round, as MiniMalloc's
// decision problem) and stops once the pool is at most `target` or that is proven impossible.
PoolSearchOutcome minimize_pool(const Problem& problem, std::vector<Allocation>& allocations, int pool,
                                Deadline& deadline, std::optional<int64_t> target = std::nullopt);

// Offsets for `members` (parallel to it), every end <= capacity, avoiding the `fixed` (buffer,
// offset) ranges they conflict with; nullopt when not found within the node budget. `proven`, when
// given, is set when the search finished without a solution: then none exists.
std::optional<std::vector<int64_t>> fit_pool(const Problem& problem, const std::vector<int>& members,
                                             const std::vector<std::pair<int, int64_t>>& fixed, int64_t capacity,
                                             int64_t node_budget, Deadline& deadline, bool* proven = nullptr);

}  // namespace usmpx
