#include "planners/anytime/exact.h"

#include <algorithm>

#include "planners/anytime/incumbent.h"
#include "planners/exact/exact_pools.h"
#include "planners/exact/infeasibility.h"
#include "planners/exact/lower_bound.h"
#include "planners/heuristics/multi_start.h"

namespace usmpx {

Plan ExactPlanner::plan(const Problem& problem, const PlannerOptions& options) const {
  Deadline deadline(options);
  const GreedyContext context(problem);
  const OrderKeys keys = OrderKeys::of(context);
  const int64_t ideal = total_lower_bound(problem).bytes;
  const std::optional<Incumbent> incumbent = problem_incumbent(problem);
  if (incumbent_meets_bound(incumbent, ideal)) return plan_of_incumbent_at_bound(*incumbent, name(), ideal);
  PortfolioResult start = greedy_portfolio(context, keys, ideal, deadline);
  if (!start.result.complete) return to_plan(problem, std::move(start.result));
  Plan plan = to_plan(problem, std::move(start.result));
  // The search re-packs from the better start: the reference plan when it ranks above the greedy's.
  if (incumbent && incumbent->cost < start.cost) plan.allocations = incumbent->allocations;
  minimize_pools(problem, plan, deadline, options.stop_at_fit);
  keep_incumbent_if_better(problem, plan, incumbent, name());
  explain_if_overflowing(problem, plan, deadline);
  return plan;
}

}  // namespace usmpx
