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

// `one_pool`: the buffers share one address space, so the witness's alignment padding counts.
// Across several pools a clique may be split, each part with its own top, and it does not.
LowerBound group_lower_bound(const Problem& problem, const std::vector<int>& subset, bool one_pool) {
  if (subset.empty()) return {0, true, {}};
  LowerBound lb = problem.interval_conflicts() ? max_live(problem, subset) : heaviest_clique(problem, subset);
  if (one_pool) lb.bytes = std::max(lb.bytes, clique_lower_bound(problem, lb.witness));
  return lb;
}

}  // namespace

LowerBound pool_lower_bound(const Problem& problem, const std::vector<int>& subset) {
  return group_lower_bound(problem, subset, true);
}

LowerBound total_lower_bound(const Problem& problem) {
  const PoolSharing sharing = pool_sharing_groups(problem);
  LowerBound total{0, true, {}};
  for (size_t g = 0; g < sharing.buffers.size(); ++g) {
    if (sharing.buffers[g].empty()) continue;
    LowerBound lb = group_lower_bound(problem, sharing.buffers[g], sharing.pool_count[g] == 1);
    total.bytes += lb.bytes;
    total.exact = total.exact && lb.exact;
    total.witness.insert(total.witness.end(), lb.witness.begin(), lb.witness.end());
  }
  return total;
}

}  // namespace usmpx
