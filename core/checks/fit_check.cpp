#include "checks/fit_check.h"

#include <algorithm>

#include "planners/exact/infeasibility.h"
#include "planners/exact/lower_bound.h"

namespace usmpx {

std::string_view to_string(FitVerdict verdict) {
  switch (verdict) {
    case FitVerdict::kFits: return "fits";
    case FitVerdict::kCannotFit: return "does not fit";
    case FitVerdict::kUndecided: return "undecided";
    case FitVerdict::kInvalid: return "invalid";
  }
  return "undecided";
}

int64_t FitCheck::shortfall_bytes() const {
  int64_t sum = 0;
  for (const PoolNeed& p : pools)
    sum += p.short_bytes();
  return sum;
}

FitCheck check_fit(const Problem& problem, const Plan& plan, Deadline& deadline) {
  FitCheck check;
  for (size_t p = 0; p < problem.pools.size(); ++p) {
    const Pool& pool = problem.pools[p];
    check.pools.push_back({static_cast<int>(p), p < plan.pool_sizes.size() ? plan.pool_sizes[p] : 0,
                           pool.restricted() ? pool.size_hint_bytes : -1});
  }
  if (plan_fits(problem, plan)) {
    check.verdict = plan.has_errors() ? FitVerdict::kInvalid : FitVerdict::kFits;
    return check;
  }
  auto is_proof = [](const Diagnostic& d) { return d.severity == Severity::kError && d.code == "infeasible"; };
  std::copy_if(plan.diagnostics.begin(), plan.diagnostics.end(), std::back_inserter(check.proofs), is_proof);
  const bool explained = std::any_of(plan.diagnostics.begin(), plan.diagnostics.end(), [&](const Diagnostic& d) {
    return is_proof(d) || d.code == "overflow-unexplained";
  });
  if (!explained) {
    for (Diagnostic& d : explain_infeasibility(problem, plan.allocations, deadline)) {
      if (is_proof(d)) check.proofs.push_back(std::move(d));
    }
  }
  for (const Diagnostic& d : check.proofs) {
    const int64_t hint = problem.pools[static_cast<size_t>(d.pool)].size_hint_bytes;
    int64_t need = pool_lower_bound(problem, d.buffers).bytes;
    for (int b : d.buffers) {
      const Buffer& buf = problem.buffers[static_cast<size_t>(b)];
      need = std::max(need, buf.pin && buf.pin->offset ? *buf.pin->offset + buf.size_bytes : buf.size_bytes);
    }
    check.missing_bytes.push_back(std::max<int64_t>(1, need - hint));
  }
  check.verdict = check.proofs.empty() ? FitVerdict::kUndecided : FitVerdict::kCannotFit;
  return check;
}

}  // namespace usmpx
