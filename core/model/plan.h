#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/allocation.h"
#include "model/diagnostic.h"
#include "model/problem.h"

namespace usmpx {

// The result of planning a Problem: one allocation per buffer plus what the planner learned.
struct Plan {
  std::string algorithm;
  std::vector<Allocation> allocations;     // parallel to Problem::buffers
  std::vector<int64_t> pool_sizes;         // per pool: unaligned maximum end, as TVM reports it
  int64_t lower_bound_bytes = 0;           // no valid plan of this problem can total less
  std::vector<int64_t> pool_lower_bounds;  // per pool: no valid plan gives the pool fewer bytes
  bool proven_optimal = false;
  double runtime_ms = 0.0;
  std::vector<Diagnostic> diagnostics;  // messages from the planner and the validator

  int64_t total_size() const;
  bool has_errors() const;
};

// Fills Plan::pool_sizes from the allocations.
void compute_pool_sizes(const Problem& problem, Plan& plan);

// Every buffer placed and every pool within its size hint.
bool plan_fits(const Problem& problem, const Plan& plan);
// It fits and no planner or check reported an error: a plan the tool exports, declares figures
// for or measures others against.
bool plan_ok(const Problem& problem, const Plan& plan);

// The highest lower bound among plans of one problem: each planner's holds for the problem, so
// Compare measures every plan's gap from this one.
int64_t highest_lower_bound(const std::vector<Plan>& plans);

}  // namespace usmpx
