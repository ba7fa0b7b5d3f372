#include "planning_job.h"

#include "planners/common/deadline.h"
#include "planners/exact/infeasibility.h"
#include "planners/incremental.h"
#include "planners/registry.h"

namespace usmpx::app {
namespace {

constexpr const char* kFirstPassAlgorithm = "best_fit_size";  // one greedy pass: milliseconds on 20,000 buffers
constexpr double kProofSeconds = 0.5;                         // why a one-pass plan does not fit (infeasibility.h)

}  // namespace

Plan run_planning_job(const PlanningJob& job) {
  if (job.as_built_wanted) {
    Plan plan;
    if (job.as_built && job.unedited_pools) {
      plan = *job.as_built;
    } else {
      plan.allocations.assign(job.problem->buffers.size(), Allocation{});
      plan.diagnostics.push_back(
          {Severity::kError,
           "as-built",
           job.as_built ? "the as-built plan belongs to the input's own pools; undo the pool edits and pins "
                          "or choose a planner"
                        : "this input carries no plan",
           {},
           -1,
           {}});
    }
    plan.algorithm = kAsBuilt;
    finish_plan(*job.problem, plan);
    return plan;
  }
  auto planner = make_planner(job.algorithm);
  if (!planner) {
    Plan plan;
    plan.algorithm = job.algorithm;
    plan.allocations.assign(job.problem->buffers.size(), Allocation{});
    plan.diagnostics.push_back(
        {Severity::kError, "unknown-algorithm", "unknown algorithm '" + job.algorithm + "'", {}, -1, {}});
    finish_plan(*job.problem, plan);
    return plan;
  }
  auto run = [&](const Planner& p, const PlannerOptions& options) {
    return job.keep.empty() ? run_planner(p, *job.problem, options)
                            : run_planner_keeping(p, *job.problem, *job.previous, job.keep, options);
  };
  if (job.info && job.info->searching) {
    // A valid plan at once from one greedy pass; the search below replaces it when done.
    Plan first = quick_plan_keeping(*make_planner(kFirstPassAlgorithm), *job.problem, *job.previous, job.keep);
    first.algorithm = job.algorithm;
    job.first_pass(std::move(first));
  }
  PlannerOptions options;
  options.time_limit_seconds = job.time_limit_seconds;
  options.cancel = job.cancel.get();
  options.progress = job.progress;

  Plan plan = run(*planner, options);
  if (job.info && !job.info->searching && !job.cancel->load() && !plan_fits(*job.problem, plan)) {
    // A one-pass planner's plan that does not fit: say whether any plan could (as best does),
    // from the buffers that can go nowhere else, with a short search of its own.
    PlannerOptions proof;
    proof.time_limit_seconds = kProofSeconds;
    proof.cancel = job.cancel.get();
    Deadline deadline(proof);
    explain_if_overflowing(*job.problem, plan, deadline);
  }
  return plan;
}

}  // namespace usmpx::app
