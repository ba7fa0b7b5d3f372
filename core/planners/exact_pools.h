#pragma once

// Runs the anytime exact search (pool_search.h) on every pool of a plan, largest pool first, each
// with an equal share of the time left, and records what it proved: a note per pool, and, when
// every buffer has a single possible pool, the plan's proven lower bound.

#include "model/plan.h"
#include "planners/deadline.h"

namespace usmpx {

// Returns whether every pool was proven optimal.
bool minimize_pools(const Problem& problem, Plan& plan, Deadline& deadline);

}  // namespace usmpx
