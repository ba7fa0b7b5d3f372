#include "planners/toolchains/tvm_greedy.h"

#include "base/alignment.h"
#include "model/conflict_graph.h"
#include "planners/toolchains/tvm_common.h"

namespace usmpx {

std::string_view TvmGreedyPlanner::name() const {
  return order_ == Order::kBySize ? "greedy_by_size" : "greedy_by_conflicts";
}

Plan TvmGreedyPlanner::plan(const Problem& problem, const PlannerOptions& /*options*/) const {
  const ConflictLists conflicts = conflict_lists(problem);
  std::vector<int> order = order_ == Order::kBySize ? tvm_compat::order_by_size(problem, conflicts)
                                                    : tvm_compat::order_by_conflicts(problem, conflicts);
  tvm_compat::pinned_first(problem, order);

  Plan plan;
  plan.allocations.assign(problem.buffers.size(), Allocation{});
  std::vector<bool> placed(problem.buffers.size(), false);
  // Per pool: whether it is still a candidate for the current buffer, and at which offset.
  std::vector<char> present(problem.pools.size(), 0);
  std::vector<int64_t> offset(problem.pools.size(), 0);

  for (int b : order) {
    const Buffer& buf = problem.buffers[static_cast<size_t>(b)];
    if (buf.pin && buf.pin->offset) {
      plan.allocations[static_cast<size_t>(b)] = {buf.pin->pool, *buf.pin->offset};
      placed[static_cast<size_t>(b)] = true;
      continue;
    }
    const std::vector<int> candidates = problem.effective_candidates(b);
    std::fill(present.begin(), present.end(), 0);
    std::fill(offset.begin(), offset.end(), 0);
    for (int p : candidates) {
      if (problem.pools[static_cast<size_t>(p)].fits(0, buf.size_bytes)) present[static_cast<size_t>(p)] = 1;
    }
    for (int c : conflicts[static_cast<size_t>(b)]) {
      if (!placed[static_cast<size_t>(c)]) continue;
      const Allocation& a = plan.allocations[static_cast<size_t>(c)];
      if (!a.placed()) continue;
      const Buffer& cbuf = problem.buffers[static_cast<size_t>(c)];
      const int64_t next = align_up(a.offset + cbuf.size_bytes, cbuf.alignment);
      const auto p = static_cast<size_t>(a.pool);
      if (problem.pools[p].fits(next, buf.size_bytes)) {
        present[p] = 1;  // TVM's map operator[] inserts the pool (at 0) even if it was erased
        if (next > offset[p]) offset[p] = next;
      } else {
        present[p] = 0;
        offset[p] = 0;
      }
    }
    int selected = -1;
    for (int p : candidates) {
      if (present[static_cast<size_t>(p)]) {
        selected = p;
        break;
      }
    }
    if (selected < 0) {
      Diagnostic d;
      d.code = "planner-error";
      d.message = tvm_compat::placement_error_text(problem, b, conflicts[static_cast<size_t>(b)].size());
      d.buffers = {b};
      plan.diagnostics.push_back(std::move(d));
      tvm_compat::place_overflowing(problem, conflicts, placed, b, plan);
    } else {
      plan.allocations[static_cast<size_t>(b)] = {selected, offset[static_cast<size_t>(selected)]};
    }
    placed[static_cast<size_t>(b)] = true;
  }
  return plan;
}

}  // namespace usmpx
