#include "planners/common/plan_objective.h"

#include <algorithm>

namespace usmpx {

bool PlanCost::operator<(const PlanCost& other) const {
  if (unplaced != other.unplaced) return unplaced < other.unplaced;
  if (overflow_bytes != other.overflow_bytes) return overflow_bytes < other.overflow_bytes;
  const size_t n = std::max(displaced.size(), other.displaced.size());
  for (size_t k = 0; k < n; ++k) {
    const int64_t a = k < displaced.size() ? displaced[k] : 0;
    const int64_t b = k < other.displaced.size() ? other.displaced[k] : 0;
    if (a != b) return a < b;
  }
  return total < other.total;
}

PlanCost plan_cost(const Problem& problem, const std::vector<Allocation>& allocations) {
  PlanCost cost;
  std::vector<int64_t> used(problem.pools.size(), 0);
  for (size_t b = 0; b < problem.buffers.size() && b < allocations.size(); ++b) {
    const Allocation& a = allocations[b];
    const Buffer& buf = problem.buffers[b];
    if (!a.placed() || a.pool >= static_cast<int>(problem.pools.size())) {
      ++cost.unplaced;
      continue;
    }
    used[static_cast<size_t>(a.pool)] = std::max(used[static_cast<size_t>(a.pool)], a.offset + buf.size_bytes);
    if (buf.pin) continue;
    const auto& candidates = buf.pool_candidates;
    const auto it = std::find(candidates.begin(), candidates.end(), a.pool);
    const auto rank = static_cast<size_t>(it - candidates.begin());
    if (rank == 0 || it == candidates.end()) continue;
    if (cost.displaced.size() < rank) cost.displaced.resize(rank, 0);
    for (size_t k = 0; k < rank; ++k)
      cost.displaced[k] += buf.size_bytes;
  }
  for (size_t p = 0; p < problem.pools.size(); ++p) {
    cost.total += used[p];
    const Pool& pool = problem.pools[p];
    if (pool.restricted() && used[p] > pool.size_hint_bytes) cost.overflow_bytes += used[p] - pool.size_hint_bytes;
  }
  return cost;
}

}  // namespace usmpx
