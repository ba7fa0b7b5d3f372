#pragma once

// The input's reference plan (Problem::reference_allocations: what its firmware has today) as the
// searching planners' incumbent: `best` and `exact` start from it when it ranks above their own
// start, stop at once when it meets the lower bound, and never return a plan that ranks below it
// (plan_objective.h). TVM's hill_climb is TVM's bit for bit and does not take it.

#include <optional>
#include <string_view>
#include <vector>

#include "model/plan.h"
#include "planners/common/plan_objective.h"
#include "planners/heuristics/multi_start.h"

namespace usmpx {

struct Incumbent {
  std::vector<Allocation> allocations;
  PlanCost cost;
};

// The reference plan when it still suits the problem: one allocation per buffer, every buffer
// placed in one of its pools, pins, alignment and conflicts respected (a pool over its size hint
// is allowed: the ranking counts it). nullopt otherwise, or when the problem carries none.
std::optional<Incumbent> problem_incumbent(const Problem& problem);

// Diagnostic code of the note saying the reference plan met the lower bound and no search ran.
inline constexpr std::string_view kIncumbentAtBound = "reference-at-bound";

// Whether the incumbent leaves nothing to search: every buffer in its first pool, nothing over a
// size hint, the total at `lower_bound`.
bool incumbent_meets_bound(const std::optional<Incumbent>& incumbent, int64_t lower_bound);

// The incumbent as `planner`'s plan, with a note saying it met the lower bound so no search ran.
Plan plan_of_incumbent_at_bound(const Incumbent& incumbent, std::string_view planner, int64_t lower_bound);

// Replaces `plan`'s allocations by the incumbent's when the incumbent ranks above them, with a
// note. Returns whether it did.
bool keep_incumbent_if_better(const Problem& problem, Plan& plan, const std::optional<Incumbent>& incumbent,
                              std::string_view planner);

// How `best` and `exact` begin: the greedy passes' context, the total lower bound, the incumbent,
// and the greedy portfolio's deterministic passes. `finished` holds the plan to return at once:
// the incumbent when it meets the bound, or the greedy's incomplete plan when the deadline cut its
// first pass short.
struct AnytimeStart {
  AnytimeStart(const Problem& problem, std::string_view planner, Deadline& deadline);

  const GreedyContext context;
  const OrderKeys keys;
  int64_t ideal = 0;
  std::optional<Incumbent> incumbent;
  PortfolioResult greedy;
  std::optional<Plan> finished;
};

}  // namespace usmpx
