#pragma once

#include <string>

#include "planners/common/planner.h"
#include "planners/heuristics/greedy_orders.h"

namespace usmpx {

// Best fit, as TFLite's arena planner and XLA's GlobalDecreasingSizeBestFitHeap: buffers in one
// of the orders of greedy_orders.h, each into the smallest gap between the placed buffers it
// conflicts with that holds it (ties: the lowest), above them all only when no gap does.
// Registered once per order: best_fit_size, best_fit_size_duration (XLA kSpatial),
// best_fit_duration_size (XLA kTemporal), best_fit_area and best_fit_breadth. Pools, pins and
// size hints as in greedy_fit.h; valid for lifetime problems and general conflict graphs.
class BestFitPlanner final : public Planner {
 public:
  explicit BestFitPlanner(GreedyOrder order);
  std::string_view name() const override { return name_; }
  Plan plan(const Problem& problem, const PlannerOptions& options) const override;

 private:
  GreedyOrder order_;
  std::string name_;
};

}  // namespace usmpx
