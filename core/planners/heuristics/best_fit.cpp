#include "planners/heuristics/best_fit.h"

namespace usmpx {

BestFitPlanner::BestFitPlanner(GreedyOrder order) : order_(order), name_("best_fit_" + std::string(to_string(order))) {}

Plan BestFitPlanner::plan(const Problem& problem, const PlannerOptions& options) const {
  Deadline deadline = Deadline::cancel_only(options);  // one fast pass: only cancellation stops it
  const GreedyContext context(problem);
  const OrderKeys keys = OrderKeys::of(context);
  return to_plan(problem, greedy_place(context, greedy_order(keys, order_), FitRule::kBestFit, &deadline));
}

}  // namespace usmpx
