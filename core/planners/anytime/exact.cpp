#include "planners/anytime/exact.h"

#include <algorithm>

#include "planners/anytime/incumbent.h"
#include "planners/exact/exact_pools.h"
#include "planners/exact/infeasibility.h"
#include "planners/heuristics/multi_start.h"

namespace usmpx {

Plan plan_exact(const Problem& problem, const PlannerOptions& options) {
  Deadline deadline(options);
  AnytimeStart start(problem, "exact", deadline);
  if (start.finished) return std::move(*start.finished);
  const std::optional<Incumbent>& incumbent = start.incumbent;
  Plan plan = to_plan(problem, std::move(start.greedy.result));
  // The search re-packs from the better start: the reference plan when it ranks above the greedy's.
  if (incumbent && incumbent->cost < start.greedy.cost) plan.allocations = incumbent->allocations;
  minimize_pools(problem, plan, deadline, options.stop_at_fit);
  keep_incumbent_if_better(problem, plan, incumbent, "exact");
  explain_if_overflowing(problem, plan, deadline);
  return plan;
}

}  // namespace usmpx
