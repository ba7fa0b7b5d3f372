#include "checks/plan_summary.h"

#include "planners/exact/lower_bound.h"

namespace usmpx {

std::vector<int64_t> plan_pool_lower_bounds(const Problem& problem, const Plan& plan) {
  if (plan.pool_lower_bounds.size() == problem.pools.size()) return plan.pool_lower_bounds;
  return pool_lower_bounds(problem);
}

PlanSummary summarize_plan(const Problem& problem, const Plan& plan) {
  PlanSummary summary;
  summary.pools.resize(problem.pools.size());
  std::vector<std::vector<int>> members(problem.pools.size());
  for (size_t b = 0; b < plan.allocations.size() && b < problem.buffers.size(); ++b) {
    const int pool = plan.allocations[b].pool;
    if (pool >= 0 && static_cast<size_t>(pool) < members.size())
      members[static_cast<size_t>(pool)].push_back(static_cast<int>(b));
  }
  const std::vector<int64_t> bounds = plan_pool_lower_bounds(problem, plan);
  for (size_t p = 0; p < problem.pools.size(); ++p) {
    PoolSummary& s = summary.pools[p];
    s.size_bytes = p < plan.pool_sizes.size() ? plan.pool_sizes[p] : 0;
    s.lower_bound_bytes = bounds[p];
    s.buffers = static_cast<int>(members[p].size());
    s.over_hint = !problem.pools[p].fits(0, s.size_bytes);
  }
  summary.total_bytes = plan.total_size();
  summary.lower_bound_bytes = plan.lower_bound_bytes;
  summary.fits = plan_fits(problem, plan);
  for (const Diagnostic& d : plan.diagnostics) {
    if (d.severity == Severity::kError) ++summary.errors;
    if (d.severity == Severity::kWarning) ++summary.warnings;
  }
  return summary;
}

}  // namespace usmpx
