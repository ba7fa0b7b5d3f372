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
  tvm_compat::PoolCandidates pools(problem.pools.size());

  for (int b : order) {
    const Buffer& buf = problem.buffers[static_cast<size_t>(b)];
    if (buf.pin && buf.pin->offset) {
      plan.allocations[static_cast<size_t>(b)] = {buf.pin->pool, *buf.pin->offset};
      placed[static_cast<size_t>(b)] = true;
      continue;
    }
    const std::vector<int> candidates = problem.effective_candidates(b);
    pools.start(problem, candidates, buf.size_bytes);
    for (int c : conflicts[static_cast<size_t>(b)]) {
      if (!placed[static_cast<size_t>(c)]) continue;
      const Allocation& a = plan.allocations[static_cast<size_t>(c)];
      if (!a.placed()) continue;
      const Buffer& cbuf = problem.buffers[static_cast<size_t>(c)];
      const int64_t next = align_up(a.offset + cbuf.size_bytes, cbuf.alignment);
      const auto p = static_cast<size_t>(a.pool);
      if (problem.pools[p].fits(next, buf.size_bytes)) {
        pools.present[p] = 1;  // TVM's map operator[] inserts the pool (at 0) even if it was erased
        if (next > pools.offset[p]) pools.offset[p] = next;
      } else {
        pools.present[p] = 0;
        pools.offset[p] = 0;
      }
    }
    const int selected = pools.select(candidates);
    if (selected < 0) {
      Diagnostic d;
      d.code = "planner-error";
      d.message = tvm_compat::placement_error_text(problem, b, conflicts[static_cast<size_t>(b)].size());
      d.buffers = {b};
      plan.diagnostics.push_back(std::move(d));
      tvm_compat::place_overflowing(problem, conflicts, placed, b, plan);
    } else {
      plan.allocations[static_cast<size_t>(b)] = {selected, pools.offset[static_cast<size_t>(selected)]};
    }
    placed[static_cast<size_t>(b)] = true;
  }
  return plan;
}

}  // namespace usmpx
