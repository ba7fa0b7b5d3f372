#pragma once

#include <cstdint>
#include <vector>

#include "checks/plan_profile.h"
#include "model/plan.h"
#include "model/problem.h"

namespace usmpx {

// Per-pool figures of a plan, as the explorer and reports show them.
struct PoolSummary {
  int64_t size_bytes = 0;
  int64_t lower_bound_bytes = 0;  // no valid plan gives this pool fewer bytes (lower_bound.h)
  int buffers = 0;
  bool over_hint = false;
};

struct PlanSummary {
  std::vector<PoolSummary> pools;
  int64_t total_bytes = 0;
  int64_t lower_bound_bytes = 0;
  bool fits = false;
  int errors = 0;
  int warnings = 0;
};

PlanSummary summarize_plan(const Problem& problem, const Plan& plan);

// Per pool, the plan's lower bounds (Plan::pool_lower_bounds), computed when the plan has none.
std::vector<int64_t> plan_pool_lower_bounds(const Problem& problem, const Plan& plan);

}  // namespace usmpx
