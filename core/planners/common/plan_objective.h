#pragma once

// How the project's planners rank plans of the same problem, most important first:
//   1. every pool fits: fewer bytes beyond size hints (and every buffer placed);
//   2. bytes in preferred pools: fewer bytes outside each buffer's first candidate pool, then
//      outside its first two, and so on (pins count as the only candidate);
//   3. the total size (sum of the pools' used sizes).
// With one pool and no size hint only the total matters.

#include <cstdint>
#include <vector>

#include "model/plan.h"
#include "model/problem.h"

namespace usmpx {

struct PlanCost {
  int64_t unplaced = 0;            // buffers without a pool
  int64_t overflow_bytes = 0;      // over the size hints, summed over pools
  std::vector<int64_t> displaced;  // [k]: bytes placed beyond the buffer's k+1 preferred pools
  int64_t total = 0;

  bool operator<(const PlanCost& other) const;
  bool operator==(const PlanCost& other) const = default;
};

PlanCost plan_cost(const Problem& problem, const std::vector<Allocation>& allocations);

}  // namespace usmpx
