#pragma once

#include "planners/common/planner.h"

namespace usmpx {

// ExecuTorch's greedy memory planner, bit for bit (exir/memory_planning.py; facts in
// reference/executorch-memory-planning.md §1.3). Buffers are ExecuTorch's TensorSpecs in graph
// order (the Problem's buffer order), sizes rounded up to their alignment.
//
// kCurrent (since PR #7926, 2025-01): sorted by size, largest first, equal sizes in reverse graph
// order; each goes to offset 0 of the first bucket ("shared object") holding nothing live at the
// same time, else on top of what is live in the first bucket with room for it, else into a new
// bucket of its own size. Buckets are laid end to end in creation order.
// k2024 (before PR #7926): graph order, no sort; each takes the free bucket (its last user ends
// before this buffer starts) of the closest size, growing it, else a new bucket; as ExecuTorch
// did, every free bucket that is closer than the one picked so far takes the buffer's end of
// life and size even when a later one is picked.
//
// Lifetimes are closed intervals; problems with conflict lists use them. Each pool is planned
// on its own. Buffers pinned to an offset keep it and the buckets start above the highest of
// them (as ExecuTorch's space reserved for control-flow submodules). Size hints do not steer it.
class EtGreedyPlanner final : public Planner {
 public:
  enum class Variant { kCurrent, k2024 };
  explicit EtGreedyPlanner(Variant variant = Variant::kCurrent) : variant_(variant) {}
  std::string_view name() const override { return variant_ == Variant::kCurrent ? "et_greedy" : "et_greedy_2024"; }
  Plan plan(const Problem& problem, const PlannerOptions& options) const override;

 private:
  Variant variant_;
};

}  // namespace usmpx
