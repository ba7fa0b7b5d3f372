#include "planners/heuristics/greedy_orders.h"

#include <algorithm>
#include <numeric>

namespace usmpx {
namespace {

// Above this many conflicts a buffer's breadth is its closed neighbourhood weight (no clique search).
constexpr size_t kMaxCliqueDegree = 2000;

// Largest total live size over each buffer's lifetime segments (range maximum via a segment tree).
std::vector<int64_t> interval_breadth(const GreedyContext& context) {
  const Problem& problem = context.problem;
  const TimeAxis& axis = context.axis;
  const auto segments = static_cast<size_t>(axis.segments);
  std::vector<int64_t> delta(segments + 1, 0);
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    if (axis.timeless(static_cast<int>(b))) continue;
    delta[static_cast<size_t>(axis.lo[b])] += problem.buffers[b].size_bytes;
    delta[static_cast<size_t>(axis.hi[b])] -= problem.buffers[b].size_bytes;
  }
  size_t leaves = 1;
  while (leaves < std::max<size_t>(1, segments))
    leaves *= 2;
  std::vector<int64_t> tree(2 * leaves, 0);
  int64_t live = 0;
  for (size_t s = 0; s < segments; ++s) {
    live += delta[s];
    tree[leaves + s] = live;
  }
  for (size_t v = leaves - 1; v >= 1; --v)
    tree[v] = std::max(tree[2 * v], tree[2 * v + 1]);
  std::vector<int64_t> breadth(problem.buffers.size(), 0);
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    int64_t best = problem.buffers[b].size_bytes;
    size_t l = static_cast<size_t>(axis.lo[b]) + leaves;
    size_t r = static_cast<size_t>(axis.hi[b]) + leaves;
    while (l < r) {
      if (l & 1) best = std::max(best, tree[l++]);
      if (r & 1) best = std::max(best, tree[--r]);
      l >>= 1;
      r >>= 1;
    }
    breadth[b] = best;
  }
  return breadth;
}

std::vector<int64_t> graph_breadth(const GreedyContext& context) {
  const Problem& problem = context.problem;
  const ConflictLists& adj = context.neighbours;
  auto size_of = [&](int b) { return problem.buffers[static_cast<size_t>(b)].size_bytes; };
  std::vector<int64_t> breadth(problem.buffers.size(), 0);
  std::vector<int> clique;
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    int64_t weight = size_of(static_cast<int>(b));
    if (adj[b].size() > kMaxCliqueDegree) {
      for (int c : adj[b])
        weight += size_of(c);
      breadth[b] = weight;
      continue;
    }
    std::vector<int> candidates = adj[b];
    std::sort(candidates.begin(), candidates.end(),
              [&](int x, int y) { return size_of(x) != size_of(y) ? size_of(x) > size_of(y) : x < y; });
    clique.assign(1, static_cast<int>(b));
    for (int u : candidates) {
      const auto& list = adj[static_cast<size_t>(u)];
      if (std::all_of(clique.begin(), clique.end(),
                      [&](int c) { return std::binary_search(list.begin(), list.end(), c); })) {
        clique.push_back(u);
        weight += size_of(u);
      }
    }
    breadth[b] = weight;
  }
  return breadth;
}

}  // namespace

std::string_view to_string(GreedyOrder order) {
  switch (order) {
    case GreedyOrder::kSize: return "size";
    case GreedyOrder::kSizeDuration: return "size_duration";
    case GreedyOrder::kDurationSize: return "duration_size";
    case GreedyOrder::kArea: return "area";
    case GreedyOrder::kBreadth: return "breadth";
  }
  return "size";
}

OrderKeys OrderKeys::of(const GreedyContext& context) {
  const Problem& problem = context.problem;
  const size_t n = problem.buffers.size();
  OrderKeys keys;
  keys.size.resize(n);
  keys.duration.resize(n);
  for (size_t b = 0; b < n; ++b) {
    const Buffer& buf = problem.buffers[b];
    keys.size[b] = buf.size_bytes;
    if (buf.lifetime && !buf.lifetime->empty()) {
      keys.duration[b] = buf.lifetime->end - buf.lifetime->begin;
    } else if (!context.intervals) {
      keys.duration[b] = static_cast<int64_t>(context.neighbours[b].size());
    }
  }
  keys.breadth = context.intervals ? interval_breadth(context) : graph_breadth(context);
  return keys;
}

std::vector<int> greedy_order(const OrderKeys& keys, GreedyOrder order) {
  std::vector<int> result(keys.size.size());
  std::iota(result.begin(), result.end(), 0);
  auto sz = [&](int b) { return keys.size[static_cast<size_t>(b)]; };
  auto du = [&](int b) { return keys.duration[static_cast<size_t>(b)]; };
  auto br = [&](int b) { return keys.breadth[static_cast<size_t>(b)]; };
  auto area = [&](int b) { return static_cast<double>(sz(b)) * static_cast<double>(du(b)); };
  auto by = [&](auto first, auto second) {
    std::sort(result.begin(), result.end(), [&](int a, int b) {
      if (first(a) != first(b)) return first(a) > first(b);
      if (second(a) != second(b)) return second(a) > second(b);
      return a < b;
    });
  };
  switch (order) {
    case GreedyOrder::kSize: by(sz, [](int) { return 0; }); break;
    case GreedyOrder::kSizeDuration: by(sz, du); break;
    case GreedyOrder::kDurationSize: by(du, sz); break;
    case GreedyOrder::kArea: by(area, sz); break;
    case GreedyOrder::kBreadth: by(br, sz); break;
  }
  return result;
}

}  // namespace usmpx
