#include "checks/as_built_check.h"

#include "planners/registry.h"

namespace usmpx {

AsBuiltMatch match_as_built(const Problem& problem, const Plan& as_built) {
  Problem unpinned = problem;
  for (Buffer& b : unpinned.buffers) {
    if (b.kind != BufferKind::kReserved) b.pin.reset();  // reserved bytes stay where TVM left them
  }
  AsBuiltMatch best;
  bool first = true;
  for (const PlannerInfo& info : planner_catalog()) {
    if (!info.tvm_compatible) continue;
    const Plan plan = info.make()->plan(unpinned, PlannerOptions{});
    AsBuiltMatch m;
    m.algorithm = info.name;
    for (size_t b = 0; b < problem.buffers.size() && b < as_built.allocations.size(); ++b) {
      const Allocation& built = as_built.allocations[b];
      if (!built.placed() || problem.buffers[b].kind == BufferKind::kReserved) continue;
      ++m.total;
      if (b < plan.allocations.size() && plan.allocations[b] == built) {
        ++m.matching;
      } else {
        m.differing.push_back(static_cast<int>(b));
      }
    }
    if (first || m.matching > best.matching) best = std::move(m);
    first = false;
  }
  return best;
}

}  // namespace usmpx
