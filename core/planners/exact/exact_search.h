#pragma once

// Exact decision search for one pool: "can every item be placed below capacity C?", written from
// the published description of MiniMalloc (Moffitt, ASPLOS 2023); see
// ../shared/reference/memory-planning-sota.md §1.2.
//
// - Canonical solutions. Any packing can be lowered until each item sits at its minimum feasible
//   offset: the aligned top of its already placed conflicts, moved up past fixed (pinned) ranges.
//   Items are placed in non-decreasing (offset, static rank) order, so each such packing is
//   enumerated once: at a node every unplaced item is a candidate at its current minimum offset,
//   tried in increasing (offset, rank) order, skipping those that would break the order.
// - Section inference. Items sharing a section (a time slice, or a clique of a general conflict
//   graph) are stacked: for each section, max(floor, last offset) + remaining size <= C, where
//   the floor is the lowest minimum offset of an unplaced item in the section.
// - Dominance. An item u that fits at its minimum offset ends at min_u + size_u; placing anything
//   at or above the smallest such end leaves a hole u could fill, so those branches are cut.
// - Hatless pruning. An item that conflicts with no unplaced item cannot be helped by placing
//   others first: if it fails, its siblings are not tried.
// - Dynamic decomposition (time-slice sections only). When no unplaced item crosses a section
//   boundary any more, the two sides are independent and solved one after the other. The whole
//   component is checked (inference with the offset just placed) before it is split, and each
//   part gets a new static order from its current section totals, as MiniMalloc re-sorts the
//   sub-problems it splits off; within a part the canonical order restarts at that offset.
//
// Implementation: a node lists its unplaced items sorted by (minimum offset, rank), reusing its
// parent's order and merging in the few items whose offset rose; a candidate is first checked
// cheaply against the node's section floors before it is placed.
//
// The search stops at a node limit, the deadline or cancellation and then says so (kStopped);
// kInfeasible is a proof that no packing fits below C.

#include <cstdint>
#include <vector>

#include "planners/common/deadline.h"
#include "planners/exact/exact_instance.h"

namespace usmpx::exact {

enum class Outcome { kFound, kInfeasible, kStopped };

class Search {
 public:
  explicit Search(const Instance& instance);
  // Looks for a packing with every item end <= capacity, visiting at most node_limit nodes.
  // `keys` names the static order (see preorder()).
  Outcome run(int64_t capacity, const char* keys, int64_t node_limit, Deadline& deadline);
  // The packing found by the last successful run (offset per item).
  const std::vector<int64_t>& offsets() const { return found_; }
  int64_t nodes() const { return nodes_; }

 private:
  struct Undo {
    int kind;
    int index;
    int64_t a;
    int64_t b;
  };
  // Sorted unplaced items of [lo, hi) into level `depth`; false when the node is infeasible.
  bool gather(int lo, int hi, int64_t last_offset, size_t depth, const std::vector<int>* parent, uint32_t event);
  void gather_part(int lo, int hi, size_t from, size_t depth);
  Outcome solve(int lo, int hi, int64_t last_offset, int last_rank, size_t depth);
  bool before(int a, int b) const;
  bool infeasible_sections(const std::vector<int>& candidates, int lo, int hi, int64_t last_offset, size_t depth);
  bool quick_reject(int lo, int hi, int item, int64_t offset, size_t depth);
  bool has_unplaced_neighbour(int item) const;
  int64_t min_offset(int item, int64_t base) const;
  int64_t room(int section, int64_t floor) const;
  // Places the item at its minimum offset; returns whether it still had unplaced neighbours and
  // appends new zero-crossing boundaries strictly inside (lo, hi) to `cuts`.
  bool place(int item, int lo, int hi, std::vector<int>& cuts);
  void undo_to(size_t mark);
  void rerank(std::vector<int>& items);
  bool in_range(int item, int lo, int hi) const;

  const Instance& in_;
  int64_t capacity_ = 0;
  const char* keys_ = "";
  std::vector<int> rank_;
  std::vector<int64_t> part_total_;
  int64_t node_limit_ = 0;
  Deadline* deadline_ = nullptr;
  int64_t nodes_ = 0;

  std::vector<int64_t> offset_;
  std::vector<int64_t> base_;
  std::vector<int64_t> minoff_;
  std::vector<int64_t> remaining_;
  std::vector<int> crossing_;  // interval mode: unplaced items crossing boundary b (between b-1 and b)
  std::vector<Undo> trail_;
  std::vector<std::vector<int>> level_candidates_;
  std::vector<std::vector<int>> level_cuts_;
  std::vector<std::vector<int>> level_moved_;
  std::vector<int64_t> level_dominance_;
  std::vector<uint32_t> changed_;  // event_ of the placement that last raised the item's minimum offset
  uint32_t event_ = 0;
  std::vector<std::vector<int64_t>> level_floor_;  // per depth: the section floors of that node
  std::vector<int64_t> level_max_remaining_;       // per depth: the heaviest section's remaining bytes
  std::vector<std::vector<std::pair<int64_t, int>>> level_thresholds_;  // (capacity - remaining, section)
  std::vector<char> level_thresholds_ready_;
  std::vector<uint32_t> section_mark_;
  uint32_t mark_epoch_ = 0;
  bool any_fixed_ = false;
  std::vector<int> next_free_;
  std::vector<int64_t> found_;
};

}  // namespace usmpx::exact
