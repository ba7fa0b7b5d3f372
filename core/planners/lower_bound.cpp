#include "planners/lower_bound.h"

#include <algorithm>
#include <numeric>

#include "model/conflict_graph.h"
#include "planners/clique_pool.h"

namespace usmpx {
namespace {

constexpr size_t kExactCliqueMaxVertices = 2000;
constexpr int64_t kCliqueNodeBudget = 200000;

LowerBound max_live(const Problem& problem, const std::vector<int>& subset) {
  struct Event {
    int64_t tick;
    int delta_sign;  // ends (-1) before starts (+1) at the same tick: lifetimes are half-open
    int buffer;
  };
  std::vector<Event> events;
  for (int b : subset) {
    const auto& lt = problem.buffers[static_cast<size_t>(b)].lifetime;
    if (!lt || lt->empty()) continue;
    events.push_back({lt->begin, +1, b});
    events.push_back({lt->end, -1, b});
  }
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    return a.tick != b.tick ? a.tick < b.tick : a.delta_sign < b.delta_sign;
  });
  LowerBound lb;
  lb.exact = true;
  int64_t live = 0;
  int64_t peak_tick = 0;
  for (const Event& e : events) {
    live += e.delta_sign * problem.buffers[static_cast<size_t>(e.buffer)].size_bytes;
    if (live > lb.bytes) {
      lb.bytes = live;
      peak_tick = e.tick;
    }
  }
  for (int b : subset) {
    const auto& lt = problem.buffers[static_cast<size_t>(b)].lifetime;
    if (lt && lt->begin <= peak_tick && peak_tick < lt->end) lb.witness.push_back(b);
  }
  // Buffers without a lifetime conflict with nothing; the largest alone is still a bound.
  for (int b : subset) {
    const int64_t size = problem.buffers[static_cast<size_t>(b)].size_bytes;
    if (size > lb.bytes) lb = {size, true, {b}};
  }
  return lb;
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
  // Union-find over pools: pools that some buffer may choose between belong to one group.
  std::vector<int> parent(problem.pools.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int p) {
    while (parent[static_cast<size_t>(p)] != p)
      p = parent[static_cast<size_t>(p)] = parent[static_cast<size_t>(parent[static_cast<size_t>(p)])];
    return p;
  };
  std::vector<std::vector<int>> candidates(problem.buffers.size());
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    candidates[b] = problem.effective_candidates(static_cast<int>(b));
    for (size_t i = 1; i < candidates[b].size(); ++i) {
      parent[static_cast<size_t>(find(candidates[b][i]))] = find(candidates[b][0]);
    }
  }
  std::vector<std::vector<int>> groups(problem.pools.size() + 1);
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    const size_t group = candidates[b].empty() ? problem.pools.size() : static_cast<size_t>(find(candidates[b][0]));
    groups[group].push_back(static_cast<int>(b));
  }
  std::vector<int> pools_in_group(problem.pools.size(), 0);
  for (size_t p = 0; p < problem.pools.size(); ++p)
    ++pools_in_group[static_cast<size_t>(find(static_cast<int>(p)))];
  LowerBound total{0, true, {}};
  for (size_t g = 0; g < problem.pools.size(); ++g) {
    if (groups[g].empty()) continue;
    LowerBound lb = group_lower_bound(problem, groups[g], pools_in_group[g] == 1);
    total.bytes += lb.bytes;
    total.exact = total.exact && lb.exact;
    total.witness.insert(total.witness.end(), lb.witness.begin(), lb.witness.end());
  }
  return total;
}

}  // namespace usmpx
