#pragma once

// The placement pass shared by the project's greedy planners (first_fit, best_fit_*, multi_start):
// buffers are taken in a given order and each goes into the free gap chosen by a fit rule, among
// the gaps its already placed conflicts leave in a pool.
//
// - First fit (TFLite Micro's GreedyMemoryPlanner): the lowest gap that holds the buffer.
// - Best fit (TFLite's arena planner, XLA's GlobalDecreasingSizeBestFitHeap): the smallest gap
//   that holds it (ties: the lowest); above everything only when no gap does.
//
// Pools: a buffer goes into the first of its candidate pools (in preference order) where the
// rule finds room within the pool's size hint; when none has room it goes into the first
// candidate anyway, at the rule's offset, and the pool overflows. Pins are hard: buffers pinned at
// an offset are placed first, exactly there; a pin without offset restricts the buffer to that
// pool. Offsets respect each buffer's alignment. Works for lifetime problems (gap queries on a
// time-indexed structure, no pairwise lists) and for explicit conflict lists.

#include <cstdint>
#include <memory>
#include <vector>

#include "model/conflict_graph.h"
#include "model/plan.h"
#include "planners/common/deadline.h"
#include "planners/common/occupancy.h"

namespace usmpx {

enum class FitRule { kFirstFit, kBestFit };

// What every pass over one problem shares; build once, run many passes.
struct GreedyContext {
  explicit GreedyContext(const Problem& problem);

  const Problem& problem;
  bool intervals = false;
  TimeAxis axis;                             // lifetime problems
  ConflictLists neighbours;                  // conflict-list problems (both directions)
  std::vector<std::vector<int>> candidates;  // effective candidate pools per buffer
  std::vector<int> fixed;                    // buffers pinned at an offset

  std::unique_ptr<Occupancy> make_occupancy() const;
};

struct GreedyResult {
  std::vector<Allocation> allocations;
  bool complete = false;       // false when the deadline stopped the pass
  int64_t overflow_bytes = 0;  // bytes beyond size hints, summed over pools
};

// One pass in `order` (every unpinned buffer once; pinned-at-offset buffers are placed first
// regardless). Stops early, incomplete, when `deadline` expires.
GreedyResult greedy_place(const GreedyContext& context, const std::vector<int>& order, FitRule rule,
                          Deadline* deadline);

// The offset the rule picks for buffer b among the gaps `occupancy` leaves, with its end within
// `limit` (the pool's size hint or kOpenEnd); -1 when no gap below the limit holds it.
int64_t fit_offset(Occupancy& occupancy, int b, const Buffer& buffer, FitRule rule, int64_t limit);

// Turns a pass into a Plan (unplaced buffers stay unplaced; the validator reports them).
Plan to_plan(const Problem& problem, GreedyResult result);

}  // namespace usmpx
