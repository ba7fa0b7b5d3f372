#include "checks/comparison.h"

#include <algorithm>

#include "base/size_text.h"

namespace usmpx {
namespace {

// The error a plan that could not be made carries (as-built after its pools were edited).
const Diagnostic* refusal_of(const Plan& plan) {
  const auto it = std::find_if(plan.diagnostics.begin(), plan.diagnostics.end(), [](const Diagnostic& d) {
    return d.code == "as-built" && d.severity == Severity::kError;
  });
  return it == plan.diagnostics.end() ? nullptr : &*it;
}

std::string not_fitting(const Problem& problem, const Plan& plan) {
  const auto unplaced =
      std::count_if(plan.allocations.begin(), plan.allocations.end(), [](const Allocation& a) { return !a.placed(); });
  if (unplaced > 0)
    return "does not fit: " + std::to_string(unplaced) + (unplaced == 1 ? " buffer" : " buffers") + " not placed";
  for (size_t p = 0; p < problem.pools.size() && p < plan.pool_sizes.size(); ++p) {
    const int64_t hint = problem.pools[p].size_hint_bytes;
    if (hint >= 0 && plan.pool_sizes[p] > hint)
      return "does not fit: " + problem.pools[p].name + " needs " + format_size(plan.pool_sizes[p]) + " of " +
             format_size(hint);
  }
  return "does not fit";
}

}  // namespace

std::vector<ComparedPlan> rank_plans(const Problem& problem, const std::vector<Plan>& plans) {
  std::vector<ComparedPlan> rows(plans.size());
  const int64_t bound = highest_lower_bound(plans);
  int64_t best = -1;
  for (size_t i = 0; i < plans.size(); ++i) {
    const Plan& plan = plans[i];
    ComparedPlan& row = rows[i];
    if (const Diagnostic* refusal = refusal_of(plan)) {
      row.made = false;
      row.reason = "not comparable: " + refusal->message;
      continue;
    }
    row.fits = plan_fits(problem, plan);
    row.valid = !plan.has_errors();
    row.ranked = row.fits && row.valid;
    if (!row.fits) {
      row.reason = not_fitting(problem, plan);
    } else if (!row.valid) {
      const auto error = std::find_if(plan.diagnostics.begin(), plan.diagnostics.end(),
                                      [](const Diagnostic& d) { return d.severity == Severity::kError; });
      row.reason = "invalid: " + error->message;
    } else {
      row.gap = format_gap(plan.total_size(), bound);
      if (best < 0 || plan.total_size() < best) best = plan.total_size();
    }
  }
  for (size_t i = 0; i < plans.size(); ++i)
    rows[i].best = rows[i].ranked && plans[i].total_size() == best;
  return rows;
}

}  // namespace usmpx
