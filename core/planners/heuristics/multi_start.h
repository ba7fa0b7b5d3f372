#pragma once

// Multi-start greedy: every order of greedy_orders.h with best fit and with first fit, keeping the
// best plan (plan_objective.h), then randomised restarts until the time limit: the best pass's
// order with nearby buffers swapped (a fixed-seed generator, so the sequence of restarts is
// always the same; only how many run depends on the time limit). Stops early when a plan reaches
// the lower bound with every buffer in its preferred pool.

#include <string>
#include <vector>

#include "planners/common/plan_objective.h"
#include "planners/common/planner.h"
#include "planners/heuristics/greedy_fit.h"
#include "planners/heuristics/greedy_orders.h"

namespace usmpx {

struct PortfolioResult {
  GreedyResult result;
  PlanCost cost;
  std::string label;  // which pass produced it, e.g. "best_fit/breadth"
  int passes = 0;
  std::vector<int> order;  // the order and rule of that pass
  FitRule rule = FitRule::kBestFit;
};

// Runs the deterministic passes until the deadline; `ideal_total` is a lower bound on the total,
// used to stop early.
PortfolioResult greedy_portfolio(const GreedyContext& context, const OrderKeys& keys, int64_t ideal_total,
                                 Deadline& deadline);

// Randomised restarts around the best pass so far, until the deadline (or a fixed count).
void greedy_restarts(const GreedyContext& context, PortfolioResult& best, int64_t ideal_total, Deadline& deadline);

// Whether a cost cannot be improved: every buffer placed in its first pool, nothing over a hint,
// total at the lower bound.
bool ideal_cost(const PlanCost& cost, int64_t ideal_total);

Plan plan_multi_start(const Problem& problem, const PlannerOptions& options);

}  // namespace usmpx
