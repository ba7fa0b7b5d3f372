#include "planners/lower_bound.h"

#include <algorithm>
#include <numeric>

#include "model/conflict_graph.h"
#include "model/live_bytes.h"
#include "planners/clique_pool.h"

namespace usmpx {
namespace {

constexpr size_t kExactCliqueMaxVertices = 2000;
constexpr int64_t kCliqueNodeBudget = 200000;

LowerBound max_live(const Problem& problem, const std::vector<int>& subset) {
  PeakLive peak = peak_live_bytes(problem, subset);
  return {peak.bytes, true, std::move(peak.live)};
}

// Weighted maximum clique on a small graph: greedy start, then branch and bound with a
// colour-class bound (each colour class is an independent set, so a clique takes at most one
// vertex of it, weighing at most the class's heaviest).
class CliqueSearch {
 public:
  CliqueSearch(std::vector<int64_t> weight, std::vector<std::vector<int>> adjacency)
      : weight_(std::move(weight)), adjacency_(std::move(adjacency)) {
    const size_t n = weight_.size();
    if (n <= kExactCliqueMaxVertices) {
      matrix_.assign(n * n, 0);
      for (size_t v = 0; v < n; ++v) {
        for (int u : adjacency_[v])
          matrix_[v * n + static_cast<size_t>(u)] = 1;
      }
    }
  }

  LowerBound run() {
    greedy();
    if (!matrix_.empty()) {
      std::vector<int> all(weight_.size());
      std::iota(all.begin(), all.end(), 0);
      std::vector<int> current;
      exhausted_ = false;
      expand(all, 0, current);
      exact_ = !exhausted_;
    }
    return {best_, exact_, best_set_};
  }

 private:
  bool adjacent(int a, int b) const {
    if (!matrix_.empty()) return matrix_[static_cast<size_t>(a) * weight_.size() + static_cast<size_t>(b)];
    const auto& list = adjacency_[static_cast<size_t>(a)];
    return std::binary_search(list.begin(), list.end(), b);
  }

  void greedy() {
    std::vector<int> order(weight_.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return weight_[a] > weight_[b]; });
    for (int v : order) {
      if (weight_[static_cast<size_t>(v)] > best_) best_ = weight_[static_cast<size_t>(v)], best_set_ = {v};
      std::vector<int> candidates = adjacency_[static_cast<size_t>(v)];
      std::sort(candidates.begin(), candidates.end(), [&](int a, int b) { return weight_[a] > weight_[b]; });
      std::vector<int> clique{v};
      int64_t w = weight_[static_cast<size_t>(v)];
      for (int u : candidates) {
        if (std::all_of(clique.begin(), clique.end(), [&](int c) { return adjacent(u, c); })) {
          clique.push_back(u);
          w += weight_[static_cast<size_t>(u)];
        }
      }
      if (w > best_) best_ = w, best_set_ = clique;
    }
  }

  void expand(const std::vector<int>& candidates, int64_t weight, std::vector<int>& clique) {
    if (++nodes_ > kCliqueNodeBudget) {
      exhausted_ = true;
      return;
    }
    if (candidates.empty()) {
      if (weight > best_) best_ = weight, best_set_ = clique;
      return;
    }
    // Colour greedily (heaviest first) and order the candidates by colour class.
    std::vector<int> by_weight = candidates;
    std::sort(by_weight.begin(), by_weight.end(), [&](int a, int b) { return weight_[a] > weight_[b]; });
    std::vector<std::vector<int>> classes;
    for (int v : by_weight) {
      bool put = false;
      for (auto& cls : classes) {
        if (std::none_of(cls.begin(), cls.end(), [&](int u) { return adjacent(u, v); })) {
          cls.push_back(v);
          put = true;
          break;
        }
      }
      if (!put) classes.push_back({v});
    }
    std::vector<int> ordered;
    std::vector<int64_t> bound;  // bound[i]: heaviest clique possible within ordered[0..i]
    int64_t cumulative = 0;
    for (const auto& cls : classes) {
      cumulative += weight_[static_cast<size_t>(cls.front())];  // classes hold heaviest first
      for (int v : cls) {
        ordered.push_back(v);
        bound.push_back(cumulative);
      }
    }
    for (size_t i = ordered.size(); i-- > 0;) {
      if (weight + bound[i] <= best_ || exhausted_) return;
      const int v = ordered[i];
      std::vector<int> next;
      for (size_t j = 0; j < i; ++j) {
        if (adjacent(v, ordered[j])) next.push_back(ordered[j]);
      }
      clique.push_back(v);
      expand(next, weight + weight_[static_cast<size_t>(v)], clique);
      clique.pop_back();
    }
  }

  std::vector<int64_t> weight_;
  std::vector<std::vector<int>> adjacency_;
  std::vector<char> matrix_;
  int64_t best_ = 0;
  std::vector<int> best_set_;
  int64_t nodes_ = 0;
  bool exhausted_ = false;
  bool exact_ = false;
};

LowerBound heaviest_clique(const Problem& problem, const std::vector<int>& subset) {
  const ConflictLists all = symmetric_conflicts(problem);
  std::vector<int> local(problem.buffers.size(), -1);
  for (size_t i = 0; i < subset.size(); ++i)
    local[static_cast<size_t>(subset[i])] = static_cast<int>(i);
  std::vector<int64_t> weight(subset.size());
  std::vector<std::vector<int>> adjacency(subset.size());
  for (size_t i = 0; i < subset.size(); ++i) {
    weight[i] = problem.buffers[static_cast<size_t>(subset[i])].size_bytes;
    for (int c : all[static_cast<size_t>(subset[i])]) {
      if (local[static_cast<size_t>(c)] >= 0) adjacency[i].push_back(local[static_cast<size_t>(c)]);
    }
    std::sort(adjacency[i].begin(), adjacency[i].end());
  }
  LowerBound lb = CliqueSearch(std::move(weight), std::move(adjacency)).run();
  for (int& b : lb.witness)
    b = subset[static_cast<size_t>(b)];
  std::sort(lb.witness.begin(), lb.witness.end());
  return lb;
}

}  // namespace

namespace {

// The buffers share `pools` address spaces: their clique's alignment padding counts, except what
// the pools' tops may hide.
LowerBound group_lower_bound(const Problem& problem, const std::vector<int>& subset, int pools) {
  if (subset.empty()) return {0, true, {}};
  LowerBound lb = problem.interval_conflicts() ? max_live(problem, subset) : heaviest_clique(problem, subset);
  lb.bytes = std::max(lb.bytes, clique_lower_bound(problem, lb.witness, pools));
  return lb;
}

// Per pool, the buffers every valid plan puts there.
std::vector<std::vector<int>> confined_buffers(const Problem& problem) {
  std::vector<std::vector<int>> confined(problem.pools.size());
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    const std::vector<int> candidates = problem.effective_candidates(static_cast<int>(b));
    const bool one = !candidates.empty() &&
                     std::all_of(candidates.begin(), candidates.end(), [&](int c) { return c == candidates[0]; });
    if (one && candidates[0] >= 0 && static_cast<size_t>(candidates[0]) < confined.size())
      confined[static_cast<size_t>(candidates[0])].push_back(static_cast<int>(b));
  }
  return confined;
}

}  // namespace

LowerBound pool_lower_bound(const Problem& problem, const std::vector<int>& subset) {
  return group_lower_bound(problem, subset, 1);
}

std::vector<int64_t> pool_lower_bounds(const Problem& problem) {
  std::vector<int64_t> bounds;
  for (const std::vector<int>& buffers : confined_buffers(problem))
    bounds.push_back(pool_lower_bound(problem, buffers).bytes);
  return bounds;
}

std::vector<char> closed_pools(const Problem& problem) {
  std::vector<char> closed(problem.pools.size(), 1);
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    const std::vector<int> candidates = problem.effective_candidates(static_cast<int>(b));
    for (int c : candidates) {
      if (c != candidates.front() && c >= 0 && static_cast<size_t>(c) < closed.size()) {
        closed[static_cast<size_t>(c)] = 0;
        closed[static_cast<size_t>(candidates.front())] = 0;
      }
    }
  }
  return closed;
}

LowerBound total_lower_bound(const Problem& problem) {
  return total_lower_bound(problem, {});
}

LowerBound total_lower_bound(const Problem& problem, const std::vector<int64_t>& pool_bounds) {
  const PoolSharing sharing = pool_sharing_groups(problem);
  const bool given = pool_bounds.size() == problem.pools.size();
  const std::vector<std::vector<int>> confined = given ? std::vector<std::vector<int>>{} : confined_buffers(problem);
  std::vector<int64_t> pools_sum(problem.pools.size(), 0);
  for (size_t p = 0; p < problem.pools.size(); ++p) {
    const size_t g = static_cast<size_t>(sharing.group_of_pool[p]);
    // A pool alone in its group holds exactly its confined buffers: the group's bound below is its.
    if (given)
      pools_sum[g] += pool_bounds[p];
    else if (sharing.pool_count[g] > 1)
      pools_sum[g] += pool_lower_bound(problem, confined[p]).bytes;
  }
  LowerBound total{0, true, {}};
  for (size_t g = 0; g < sharing.buffers.size(); ++g) {
    // Given bounds are at least the confined buffers' bound, which is a lone pool's group bound.
    if (sharing.buffers[g].empty() || (given && sharing.pool_count[g] == 1)) {
      total.bytes += pools_sum[g];
      continue;
    }
    LowerBound lb = group_lower_bound(problem, sharing.buffers[g], sharing.pool_count[g]);
    total.bytes += std::max(lb.bytes, pools_sum[g]);
    total.exact = total.exact && lb.exact;
    total.witness.insert(total.witness.end(), lb.witness.begin(), lb.witness.end());
  }
  return total;
}

}  // namespace usmpx
