#include "planners/heuristics/first_fit.h"

#include "planners/heuristics/greedy_orders.h"

namespace usmpx {

Plan plan_first_fit(const Problem& problem, const PlannerOptions& options) {
  Deadline deadline = Deadline::cancel_only(options);  // one fast pass: only cancellation stops it
  const GreedyContext context(problem);
  const OrderKeys keys = OrderKeys::of(context);
  return to_plan(problem, greedy_place(context, greedy_order(keys, GreedyOrder::kSize), FitRule::kFirstFit, &deadline));
}

}  // namespace usmpx
