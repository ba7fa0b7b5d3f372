#include "planners/best.h"

#include <algorithm>

#include "planners/exact_pools.h"
#include "planners/infeasibility.h"
#include "planners/lower_bound.h"
#include "planners/multi_start.h"
#include "planners/pool_choice.h"
#include "planners/tvm_hill_climb.h"
#include "planners/validator.h"

namespace usmpx {
namespace {

constexpr size_t kMaxBuffersForHillClimb = 1000;
constexpr double kHillClimbTimeShare = 0.2;

bool needs_choice(const PlanCost& cost) {
  return cost.overflow_bytes > 0 ||
         std::any_of(cost.displaced.begin(), cost.displaced.end(), [](int64_t d) { return d > 0; });
}

bool any_pool_too_large(const Plan& plan) {
  return std::any_of(plan.diagnostics.begin(), plan.diagnostics.end(), [](const Diagnostic& d) {
    return d.code == "exact-search" && d.message.find("too large") != std::string::npos;
  });
}

}  // namespace

Plan BestPlanner::plan(const Problem& problem, const PlannerOptions& options) const {
  Deadline deadline(options);
  const GreedyContext context(problem);
  const OrderKeys keys = OrderKeys::of(context);
  const int64_t ideal = total_lower_bound(problem).bytes;
  PortfolioResult best = greedy_portfolio(context, keys, ideal, deadline);
  if (!best.result.complete) return to_plan(problem, std::move(best.result));
  std::string source = best.label;

  // TVM's hill climb is a different kind of search for conflict-list inputs (TIR, MLF); on
  // lifetime problems the exact search below supersedes it.
  if (!problem.interval_conflicts() && problem.buffers.size() <= kMaxBuffersForHillClimb &&
      !ideal_cost(best.cost, ideal) && !deadline.check_now()) {
    PlannerOptions climb = options;
    climb.time_limit_seconds = std::max(0.001, deadline.remaining_seconds() * kHillClimbTimeShare);
    climb.progress = nullptr;
    Plan tvm = TvmHillClimbPlanner().plan(problem, climb);
    tvm.allocations.resize(problem.buffers.size());
    PlanCost cost = plan_cost(problem, tvm.allocations);
    if (cost < best.cost && validate(problem, tvm).empty()) {
      best.result.allocations = std::move(tvm.allocations);
      best.cost = std::move(cost);
      source = "hill_climb";
    }
  }

  std::vector<Allocation> allocations = best.result.allocations;
  if (needs_choice(best.cost)) improve_pool_choice(context, allocations, deadline);
  Plan plan;
  plan.allocations = std::move(allocations);
  minimize_pools(problem, plan, deadline);

  if (any_pool_too_large(plan) && !deadline.check_now()) {
    // No exact search there: the time left goes to greedy restarts around the best pass.
    PortfolioResult restarts = best;
    restarts.result.allocations = plan.allocations;
    restarts.cost = plan_cost(problem, plan.allocations);
    greedy_restarts(context, restarts, ideal, deadline);
    if (restarts.cost < plan_cost(problem, plan.allocations)) {
      plan.allocations = std::move(restarts.result.allocations);
      source = restarts.label;
    }
  }
  plan.diagnostics.insert(plan.diagnostics.begin(),
                          {Severity::kNote, "best", "starting plan from " + source + ", then pool choice and exact search", {}, -1, {}});
  if (!plan_fits(problem, [&] {
        Plan sized = plan;
        compute_pool_sizes(problem, sized);
        return sized;
      }())) {
    for (Diagnostic& d : explain_infeasibility(problem, plan.allocations, deadline)) plan.diagnostics.push_back(std::move(d));
  }
  return plan;
}

}  // namespace usmpx
