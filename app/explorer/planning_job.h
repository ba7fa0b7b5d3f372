#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "model/plan.h"
#include "planners/common/planner.h"

namespace usmpx {
struct PlannerInfo;
}

namespace usmpx::app {

// The plan the input carries, as the explorer and usmpx name it among the planners.
inline constexpr const char* kAsBuilt = "as-built";

// One run of a planner for the explorer, with everything it needs shared or copied so that it runs
// on a worker thread: the problem, the planner, the placements an edit left unchanged, and the
// callbacks that carry the instant first pass and the progress back to the window's thread.
struct PlanningJob {
  std::shared_ptr<const Problem> problem;
  std::string algorithm;
  const PlannerInfo* info = nullptr;     // the catalog's entry of `algorithm` (null when unknown)
  bool as_built_wanted = false;          // the input's own plan, not a planner's
  std::shared_ptr<const Plan> as_built;  // that plan, when the input carries one
  bool unedited_pools = false;           // the input's own pools without pins: the as-built plan holds
  std::vector<bool> keep;                // per pool: keep `previous`'s placement (empty: keep none)
  std::shared_ptr<const Plan> previous;
  double time_limit_seconds = 0;
  std::shared_ptr<std::atomic<bool>> cancel;
  std::function<void(Plan)> first_pass;  // a searching planner's instant one-pass plan
  std::function<void(const PlannerProgress&)> progress;
};

// Runs the job: the as-built plan, or the planner (a searching one after an instant first pass);
// a one-pass plan that does not fit says whether any plan could.
Plan run_planning_job(const PlanningJob& job);

}  // namespace usmpx::app
