#include "planners/incremental.h"

#include <algorithm>
#include <chrono>

#include "planners/exact/lower_bound.h"
#include "planners/registry.h"

namespace usmpx {

std::vector<bool> unchanged_pools(const Problem& before, const Plan& before_plan, const Problem& after) {
  std::vector<bool> keep(after.pools.size(), false);
  if (before.pools.size() != after.pools.size() || before.buffers.size() != after.buffers.size() ||
      before_plan.allocations.size() != before.buffers.size() || !plan_fits(before, before_plan) ||
      before_plan.has_errors() || before.conflict_source != after.conflict_source)
    return keep;
  for (size_t p = 0; p < after.pools.size(); ++p)
    keep[p] = before.pools[p] == after.pools[p];
  for (size_t b = 0; b < after.buffers.size(); ++b) {
    if (before.buffers[b] == after.buffers[b]) continue;
    // A changed buffer (pin, candidates) touches the pool it was in and every pool it may go to.
    keep[static_cast<size_t>(before_plan.allocations[b].pool)] = false;
    for (int p : after.effective_candidates(static_cast<int>(b)))
      keep[static_cast<size_t>(p)] = false;
  }
  // A buffer that may go into several pools ties them: the planner may move it between them, so
  // when one of them changes, all do (transitively). Only pools unreachable from the edit stay.
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t b = 0; b < after.buffers.size(); ++b) {
      std::vector<int> tied = after.effective_candidates(static_cast<int>(b));
      tied.push_back(before_plan.allocations[b].pool);
      const bool any_changed =
          std::any_of(tied.begin(), tied.end(), [&](int p) { return !keep[static_cast<size_t>(p)]; });
      for (int p : tied) {
        if (any_changed && keep[static_cast<size_t>(p)]) {
          keep[static_cast<size_t>(p)] = false;
          grew = true;
        }
      }
    }
  }
  return keep;
}

namespace {

// `problem` with the buffers `previous` put into kept pools pinned where they are.
Problem with_kept_pools(const Problem& problem, const Plan& previous, const std::vector<bool>& keep) {
  Problem fixed = problem;
  for (size_t b = 0; b < fixed.buffers.size() && b < previous.allocations.size(); ++b) {
    const Allocation& a = previous.allocations[b];
    if (a.placed() && static_cast<size_t>(a.pool) < keep.size() && keep[static_cast<size_t>(a.pool)])
      fixed.buffers[b].pin = Pin{a.pool, a.offset};
  }
  return fixed;
}

}  // namespace

Plan quick_plan_keeping(const Planner& planner, const Problem& problem, const Plan& previous,
                        const std::vector<bool>& keep) {
  const auto started = std::chrono::steady_clock::now();
  Plan plan = keep.empty() ? planner.plan(problem, {}) : planner.plan(with_kept_pools(problem, previous, keep), {});
  plan.algorithm = std::string(planner.name());
  plan.allocations.resize(problem.buffers.size());
  compute_pool_sizes(problem, plan);
  plan.pool_lower_bounds = pool_lower_bounds(problem);
  // What was proven about a kept pool still holds (same buffers, same candidates).
  for (size_t p = 0; p < keep.size() && p < previous.pool_lower_bounds.size(); ++p) {
    if (keep[p]) plan.pool_lower_bounds[p] = std::max(plan.pool_lower_bounds[p], previous.pool_lower_bounds[p]);
  }
  plan.lower_bound_bytes = total_lower_bound(problem, plan.pool_lower_bounds).bytes;
  plan.runtime_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  return plan;
}

Plan run_planner_keeping(const Planner& planner, const Problem& problem, const Plan& previous,
                         const std::vector<bool>& keep, const PlannerOptions& options) {
  const Problem fixed = with_kept_pools(problem, previous, keep);
  std::string kept_names;
  for (size_t p = 0; p < keep.size(); ++p) {
    if (keep[p]) kept_names += (kept_names.empty() ? "'" : ", '") + problem.pools[p].name + "'";
  }
  const auto started = std::chrono::steady_clock::now();
  // The planner itself, not run_planner: validation and bounds are for `problem`, below.
  Plan plan = planner.plan(fixed, options);
  plan.algorithm = std::string(planner.name());
  const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - started;
  // What was proven with kept buffers fixed does not hold for the problem itself; what was proven
  // about a kept pool before the edit still does (same pool, same buffers, same placement).
  plan.lower_bound_bytes = 0;
  const std::vector<char> closed = closed_pools(problem);
  std::vector<int64_t> pool_bounds(problem.pools.size(), 0);
  for (size_t p = 0; p < pool_bounds.size(); ++p) {
    const std::vector<int64_t>& proven =
        p < keep.size() && keep[p] ? previous.pool_lower_bounds : plan.pool_lower_bounds;
    if ((closed[p] || (p < keep.size() && keep[p])) && p < proven.size()) pool_bounds[p] = proven[p];
  }
  plan.pool_lower_bounds = std::move(pool_bounds);
  auto about_kept_pool = [&](const Diagnostic& d) {
    return d.code == "exact-search" && d.pool >= 0 && static_cast<size_t>(d.pool) < keep.size() &&
           keep[static_cast<size_t>(d.pool)];
  };
  std::erase_if(plan.diagnostics, about_kept_pool);
  for (const Diagnostic& d : previous.diagnostics) {
    if (about_kept_pool(d)) plan.diagnostics.push_back(d);
  }
  if (!kept_names.empty())
    plan.diagnostics.push_back({Severity::kNote,
                                "kept-pools",
                                "pools the edit did not change keep their placement: " + kept_names,
                                {},
                                -1,
                                {}});
  plan.runtime_ms = elapsed.count();
  finish_plan(problem, plan);
  return plan;
}

}  // namespace usmpx
