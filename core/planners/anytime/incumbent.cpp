#include "planners/anytime/incumbent.h"

#include <algorithm>
#include <string>

#include "planners/common/validator.h"
#include "planners/exact/lower_bound.h"
#include "planners/heuristics/multi_start.h"

namespace usmpx {

std::optional<Incumbent> problem_incumbent(const Problem& problem) {
  if (problem.reference_allocations.empty() || problem.reference_allocations.size() != problem.buffers.size())
    return std::nullopt;
  Plan plan;
  plan.allocations = problem.reference_allocations;
  const std::vector<Diagnostic> findings = validate(problem, plan);
  const bool usable = std::all_of(findings.begin(), findings.end(), [](const Diagnostic& d) {
    return d.severity != Severity::kError || d.code == "pool-overflow";
  });
  if (!usable) return std::nullopt;
  return Incumbent{plan.allocations, plan_cost(problem, plan.allocations)};
}

bool incumbent_meets_bound(const std::optional<Incumbent>& incumbent, int64_t lower_bound) {
  return incumbent && ideal_cost(incumbent->cost, lower_bound);
}

Plan plan_of_incumbent_at_bound(const Incumbent& incumbent, std::string_view planner, int64_t lower_bound) {
  Plan plan;
  plan.allocations = incumbent.allocations;
  plan.diagnostics.push_back({Severity::kNote,
                              std::string(kIncumbentAtBound),
                              std::string(planner) + ": the input's reference plan already meets the lower bound (" +
                                  std::to_string(lower_bound) + " bytes); kept it, no search run",
                              {},
                              -1,
                              {}});
  return plan;
}

bool keep_incumbent_if_better(const Problem& problem, Plan& plan, const std::optional<Incumbent>& incumbent,
                              std::string_view planner) {
  if (!incumbent || plan.allocations.size() != problem.buffers.size()) return false;
  const PlanCost own = plan_cost(problem, plan.allocations);
  if (!(incumbent->cost < own)) return false;
  plan.allocations = incumbent->allocations;
  // The searches' notes describe the plan they found, not this one.
  std::erase_if(plan.diagnostics, [](const Diagnostic& d) { return d.code == "exact-search"; });
  plan.diagnostics.push_back({Severity::kNote,
                              "reference-kept",
                              std::string(planner) +
                                  ": its search found nothing better than the input's reference plan (" +
                                  std::to_string(incumbent->cost.total) + " bytes against " +
                                  std::to_string(own.total) + "); returned that plan",
                              {},
                              -1,
                              {}});
  return true;
}

AnytimeStart::AnytimeStart(const Problem& problem, std::string_view planner, Deadline& deadline)
    : context(problem), keys(OrderKeys::of(context)) {
  ideal = total_lower_bound(problem).bytes;
  incumbent = problem_incumbent(problem);
  if (incumbent_meets_bound(incumbent, ideal)) {
    finished = plan_of_incumbent_at_bound(*incumbent, planner, ideal);
    return;
  }
  greedy = greedy_portfolio(context, keys, ideal, deadline);
  if (!greedy.result.complete) finished = to_plan(problem, std::move(greedy.result));
}

}  // namespace usmpx
