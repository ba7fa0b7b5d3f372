#pragma once

// Re-planning after an edit without touching what the edit did not change: the buffers of pools
// the edit left alone keep their offsets, and the planner places the rest around them.

#include <vector>

#include "planners/common/planner.h"

namespace usmpx {

// Per pool of `after`: whether an edit from `before` to `after` left it and everything that may go
// into it unchanged, so that `before_plan`'s placement there still holds. All false when the pools
// differ in number or `before_plan` is not a complete valid plan that fits.
std::vector<bool> unchanged_pools(const Problem& before, const Plan& before_plan, const Problem& after);

// Runs `planner` with the buffers `previous` put into a kept pool fixed where they were, and
// completes the plan for `problem` (sizes, lower bound, validation, see run_planner). The notes
// name the kept pools. The exact search's notes about kept pools (made with their buffers fixed)
// are replaced by `previous`'s notes about them, which still hold.
Plan run_planner_keeping(const Planner& planner, const Problem& problem, const Plan& previous,
                         const std::vector<bool>& keep, const PlannerOptions& options);

// A quick plan to show at once while a search runs: the planner's own output with the kept pools
// fixed (`keep` may be empty), pool sizes and the problem's lower bound, without the validator
// (the final plan is validated; the greedy planners used here place only where nothing conflicts).
Plan quick_plan_keeping(const Planner& planner, const Problem& problem, const Plan& previous,
                        const std::vector<bool>& keep);

}  // namespace usmpx
