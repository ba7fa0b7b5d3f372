#pragma once

#include "planners/common/planner.h"

namespace usmpx {

// TVM USMP's greedy_by_size and greedy_by_conflicts, reproduced bit for bit (greedy.cc, v0.18).
//
// Buffers are sorted (by size or by conflict count, ties by the other key, then by name
// descending) and placed one at a time. A buffer's offset in a pool is the highest aligned end
// of its already placed conflicts in that pool, rounded with the *conflict's* alignment: there is
// no gap filling. Only the placed buffer's own conflict list is read. A pool drops out when the
// buffer does not fit at 0 or above some conflict, and a later conflict in the same pool
// re-creates the entry at that conflict's end (TVM's erase/re-insert quirk). The first remaining
// pool in candidate order wins. Pinned buffers are placed first; when nothing fits, the plan
// carries TVM's error text and the buffer is placed above its conflicts anyway.
class TvmGreedyPlanner final : public Planner {
 public:
  enum class Order { kBySize, kByConflicts };
  explicit TvmGreedyPlanner(Order order) : order_(order) {}

  std::string_view name() const override;
  Plan plan(const Problem& problem, const PlannerOptions& options) const override;

 private:
  Order order_;
};

}  // namespace usmpx
