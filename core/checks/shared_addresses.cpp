#include "checks/shared_addresses.h"

#include <algorithm>
#include <set>

#include "model/live_ranges.h"

namespace usmpx {

std::vector<int> drawn_over_without_conflict(const Problem& problem, const Plan& plan, int buffer,
                                             const std::vector<int>& conflicts) {
  std::vector<int> out;
  if (buffer < 0 || static_cast<size_t>(buffer) >= problem.buffers.size() ||
      static_cast<size_t>(buffer) >= plan.allocations.size())
    return out;
  const Allocation& self = plan.allocations[static_cast<size_t>(buffer)];
  if (!self.placed()) return out;
  const Buffer& b = problem.buffers[static_cast<size_t>(buffer)];
  const std::set<int> conflicting(conflicts.begin(), conflicts.end());
  for (size_t o = 0; o < problem.buffers.size() && o < plan.allocations.size(); ++o) {
    const Allocation& other = plan.allocations[o];
    if (static_cast<int>(o) == buffer || !other.placed() || other.pool != self.pool) continue;
    const Buffer& ob = problem.buffers[o];
    const bool addresses = self.offset < other.offset + ob.size_bytes && other.offset < self.offset + b.size_bytes;
    if (!addresses || conflicting.count(static_cast<int>(o))) continue;
    // Buffers without a lifetime are drawn across the run, or each in a column when none has one.
    const bool ticks = b.kind == BufferKind::kConstant || ob.kind == BufferKind::kConstant ||
                       (!b.lifetime && !ob.lifetime ? false : !b.lifetime || !ob.lifetime) ||
                       live_at_the_same_time(b, ob);
    if (ticks) out.push_back(static_cast<int>(o));
  }
  return out;
}

}  // namespace usmpx
