#include "planners/exact.h"

#include <algorithm>

#include "planners/exact_pools.h"
#include "planners/infeasibility.h"
#include "planners/lower_bound.h"
#include "planners/multi_start.h"

namespace usmpx {

Plan ExactPlanner::plan(const Problem& problem, const PlannerOptions& options) const {
  Deadline deadline(options);
  const GreedyContext context(problem);
  const OrderKeys keys = OrderKeys::of(context);
  const int64_t ideal = total_lower_bound(problem).bytes;
  PortfolioResult start = greedy_portfolio(context, keys, ideal, deadline);
  if (!start.result.complete) return to_plan(problem, std::move(start.result));
  Plan plan = to_plan(problem, std::move(start.result));
  minimize_pools(problem, plan, deadline, options.stop_at_fit);
  explain_if_overflowing(problem, plan, deadline);
  return plan;
}

}  // namespace usmpx
