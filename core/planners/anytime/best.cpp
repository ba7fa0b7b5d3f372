#include "planners/anytime/best.h"

#include <algorithm>

#include "planners/anytime/incumbent.h"
#include "planners/common/validator.h"
#include "planners/exact/exact_pools.h"
#include "planners/exact/infeasibility.h"
#include "planners/exact/lower_bound.h"
#include "planners/heuristics/multi_start.h"
#include "planners/heuristics/pool_choice.h"
#include "planners/toolchains/tvm_hill_climb.h"

namespace usmpx {
namespace {

constexpr size_t kMaxBuffersForHillClimb = 1000;
constexpr double kReserveShare = 0.1;  // of the time limit, kept from the exact search on small inputs

bool needs_choice(const PlanCost& cost) {
  return cost.overflow_bytes > 0 ||
         std::any_of(cost.displaced.begin(), cost.displaced.end(), [](int64_t d) { return d > 0; });
}

bool fits(const PlanCost& cost) {
  return cost.unplaced == 0 && cost.overflow_bytes == 0;
}

bool any_pool_too_large(const Plan& plan) {
  return std::any_of(plan.diagnostics.begin(), plan.diagnostics.end(), [](const Diagnostic& d) {
    return d.code == "exact-search" && d.message.find("too large") != std::string::npos;
  });
}

std::string steps_text(const std::vector<std::string>& steps) {
  std::string text = "best plan from";
  for (size_t k = 0; k < steps.size(); ++k)
    text += (k ? ", then " : " ") + steps[k];
  return text;
}

Plan stopped_at_fit(Plan plan, std::vector<std::string>& steps) {
  plan.diagnostics.insert(
      plan.diagnostics.begin(),
      {Severity::kNote, "best", steps_text(steps) + "; stopped there: it fits every size hint", {}, -1, {}});
  return plan;
}

// The plan with its steps noted and, when it does not fit, why (infeasibility.h).
Plan with_explanation(const Problem& problem, Plan plan, const std::vector<std::string>& steps, Deadline& deadline) {
  plan.diagnostics.insert(plan.diagnostics.begin(), {Severity::kNote, "best", steps_text(steps), {}, -1, {}});
  explain_if_overflowing(problem, plan, deadline);
  return plan;
}

}  // namespace

Plan plan_best(const Problem& problem, const PlannerOptions& options) {
  Deadline deadline(options);
  AnytimeStart start(problem, "best", deadline);
  if (start.finished) return std::move(*start.finished);
  const int64_t ideal = start.ideal;
  const std::optional<Incumbent>& incumbent = start.incumbent;
  PortfolioResult& best = start.greedy;
  std::vector<std::string> steps = {best.label};

  Plan plan;
  plan.allocations = best.result.allocations;
  if (incumbent && incumbent->cost < best.cost) {
    plan.allocations = incumbent->allocations;
    best.cost = incumbent->cost;
    steps = {"the input's reference plan"};
  }
  if (options.stop_at_fit && fits(best.cost)) return stopped_at_fit(std::move(plan), steps);
  if (needs_choice(best.cost)) {
    improve_pool_choice(start.context, plan.allocations, deadline);
    steps.emplace_back("pool choice");
    if (options.stop_at_fit && fits(plan_cost(problem, plan.allocations)))
      return stopped_at_fit(std::move(plan), steps);
  }
  if (options.stop_at_fit) {
    // The decision at each pool's hint gets the whole time: the searches for a smaller plan
    // below would answer a question nobody asked.
    if (minimize_pools(problem, plan, deadline, true)) return stopped_at_fit(std::move(plan), steps);
    steps.emplace_back("exact search at the size hints");
    return with_explanation(problem, std::move(plan), steps, deadline);
  }
  // The exact search leaves a reserve for the other searches, which only run when it proved
  // nothing: on small inputs local search sometimes finds what depth-first search misses.
  const bool small = problem.buffers.size() <= kMaxBuffersForHillClimb;
  Deadline search(deadline, std::max(0.0, deadline.remaining_seconds() -
                                              (small ? kReserveShare * options.time_limit_seconds : 0.0)));
  const bool optimal = minimize_pools(problem, plan, search);
  steps.emplace_back("exact search");
  const bool too_large = any_pool_too_large(plan);
  PlanCost cost = plan_cost(problem, plan.allocations);
  auto take = [&](std::vector<Allocation> allocations, PlanCost c, const std::string& step) {
    plan.allocations = std::move(allocations);
    cost = std::move(c);
    // The sizes in the exact search's notes no longer hold; its proven bounds do.
    std::erase_if(plan.diagnostics, [](const Diagnostic& d) { return d.code == "exact-search"; });
    steps.push_back(step);
  };
  if (!optimal && small && !ideal_cost(cost, ideal) && !deadline.check_now()) {
    PlannerOptions climb = options;
    climb.time_limit_seconds = std::max(0.001, deadline.remaining_seconds() / 2);
    climb.progress = nullptr;
    Plan tvm = plan_tvm_hill_climb(problem, climb);
    tvm.allocations.resize(problem.buffers.size());
    PlanCost c = plan_cost(problem, tvm.allocations);
    if (c < cost && validate(problem, tvm).empty()) take(std::move(tvm.allocations), std::move(c), "hill_climb");
  }
  if (!optimal && (small || too_large) && !deadline.check_now()) {
    // Greedy restarts around the best greedy pass, with the time left.
    PortfolioResult restarts = best;
    greedy_restarts(start.context, restarts, ideal, deadline);
    if (restarts.cost < cost) take(std::move(restarts.result.allocations), restarts.cost, restarts.label);
  }
  keep_incumbent_if_better(problem, plan, incumbent, "best");
  return with_explanation(problem, std::move(plan), steps, deadline);
}

}  // namespace usmpx
