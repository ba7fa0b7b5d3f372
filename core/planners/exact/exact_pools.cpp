#include "planners/exact/exact_pools.h"

#include <algorithm>
#include <numeric>

#include "base/size_text.h"
#include "planners/exact/lower_bound.h"
#include "planners/exact/pool_search.h"

namespace usmpx {
bool minimize_pools(const Problem& problem, Plan& plan, Deadline& deadline, bool stop_at_fit) {
  std::vector<int64_t> used(problem.pools.size(), 0);
  std::vector<std::vector<int>> members(problem.pools.size());
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    const Allocation& a = plan.allocations[b];
    if (!a.placed()) continue;
    used[static_cast<size_t>(a.pool)] =
        std::max(used[static_cast<size_t>(a.pool)], a.offset + problem.buffers[b].size_bytes);
    members[static_cast<size_t>(a.pool)].push_back(static_cast<int>(b));
  }
  std::vector<int> order;
  for (size_t p = 0; p < problem.pools.size(); ++p) {
    if (!members[p].empty()) order.push_back(static_cast<int>(p));
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return used[static_cast<size_t>(a)] > used[static_cast<size_t>(b)]; });

  // What the search proves about a closed pool bounds the pool itself (Plan::pool_lower_bounds).
  const std::vector<char> closed = closed_pools(problem);
  plan.pool_lower_bounds.resize(problem.pools.size(), 0);
  bool all_optimal = true;
  bool all_fit = true;
  for (size_t k = 0; k < order.size(); ++k) {
    const int pool = order[k];
    const Pool& info = problem.pools[static_cast<size_t>(pool)];
    if (stop_at_fit && !info.restricted()) continue;
    const double share = std::max(0.0, deadline.remaining_seconds()) / static_cast<double>(order.size() - k);
    Deadline slice(deadline, share);
    const std::optional<int64_t> target = stop_at_fit ? std::optional<int64_t>(info.size_hint_bytes) : std::nullopt;
    PoolSearchOutcome out = minimize_pool(problem, plan.allocations, pool, slice, target);
    all_fit = all_fit && out.size <= info.size_hint_bytes;
    const int64_t lb = out.lower_bound;
    if (closed[static_cast<size_t>(pool)] && !stop_at_fit) {
      int64_t& bound = plan.pool_lower_bounds[static_cast<size_t>(pool)];
      bound = std::max(bound, lb);
    }
    const std::string& name = problem.pools[static_cast<size_t>(pool)].name;
    std::string text = "pool '" + name + "': " + with_separators(out.size) + " bytes";
    // A clique stacked in closed form is final too: the searches after this one only reorder
    // buffers, which the stack's local search did already.
    all_optimal = all_optimal && (out.size <= lb || out.clique);
    if (stop_at_fit && out.size <= info.size_hint_bytes) {
      text += ", within its size hint " + with_separators(info.size_hint_bytes) + " (search stopped there)";
    } else if (stop_at_fit && out.searched && lb > info.size_hint_bytes) {
      text += ", its buffers proven not to fit its size hint " + with_separators(info.size_hint_bytes);
    } else if (out.size <= lb) {
      // Buffers that may go elsewhere make it the best packing of these buffers, not a bound on the
      // pool (lower_bound.h): the note says which.
      text += closed[static_cast<size_t>(pool)] ? ", proven optimal" : ", proven optimal for the buffers it holds";
    } else {
      text += std::string(closed[static_cast<size_t>(pool)] ? ", lower bound " : ", lower bound of its buffers ") +
              with_separators(lb) +
              (out.clique     ? " (buffers all live together, stacked in the best order found; alignment padding "
                                "left)"
               : out.searched ? (deadline.cancelled()      ? " (search cancelled)"
                                 : deadline.budget_spent() ? " (search stopped at its step budget)"
                                                           : " (search stopped at its time limit)")
                              : " (too large for the exact search; greedy placement kept)");
    }
    plan.diagnostics.push_back({Severity::kNote, "exact-search", text, {}, pool, {}});
  }
  return stop_at_fit ? all_fit : all_optimal;
}

}  // namespace usmpx
