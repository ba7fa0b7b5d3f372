#include "model/plan.h"

#include <algorithm>
#include <numeric>

namespace usmpx {

int64_t Plan::total_size() const {
  return std::accumulate(pool_sizes.begin(), pool_sizes.end(), int64_t{0});
}

bool Plan::has_errors() const {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::kError; });
}

void compute_pool_sizes(const Problem& problem, Plan& plan) {
  plan.pool_sizes.assign(problem.pools.size(), 0);
  for (size_t i = 0; i < plan.allocations.size() && i < problem.buffers.size(); ++i) {
    const Allocation& a = plan.allocations[i];
    if (!a.placed()) continue;
    int64_t& size = plan.pool_sizes[static_cast<size_t>(a.pool)];
    size = std::max(size, a.offset + problem.buffers[i].size_bytes);
  }
}

bool plan_fits(const Problem& problem, const Plan& plan) {
  if (plan.allocations.size() != problem.buffers.size()) return false;
  for (const Allocation& a : plan.allocations) {
    if (!a.placed()) return false;
  }
  for (size_t p = 0; p < problem.pools.size(); ++p) {
    const Pool& pool = problem.pools[p];
    if (p < plan.pool_sizes.size() && !pool.fits(0, plan.pool_sizes[p])) return false;
  }
  return true;
}

bool plan_ok(const Problem& problem, const Plan& plan) {
  return plan_fits(problem, plan) && !plan.has_errors();
}

int64_t highest_lower_bound(const std::vector<Plan>& plans) {
  int64_t bound = 0;
  for (const Plan& plan : plans)
    bound = std::max(bound, plan.lower_bound_bytes);
  return bound;
}

}  // namespace usmpx
