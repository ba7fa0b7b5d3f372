#include "planners/clique_pool.h"

#include <algorithm>
#include <unordered_set>

namespace usmpx {

bool all_conflict(const Problem& problem, const std::vector<int>& buffers) {
  if (buffers.size() < 2) return true;
  if (problem.interval_conflicts()) {
    // Intervals that overlap pairwise share a common point (Helly): the latest start is before
    // the earliest end. A buffer without a lifetime conflicts with none (conflict_graph.h).
    int64_t latest_begin = INT64_MIN;
    int64_t earliest_end = INT64_MAX;
    for (int b : buffers) {
      const std::optional<Lifetime>& lifetime = problem.buffers[static_cast<size_t>(b)].lifetime;
      if (!lifetime || lifetime->empty()) return false;
      latest_begin = std::max(latest_begin, lifetime->begin);
      earliest_end = std::min(earliest_end, lifetime->end);
    }
    return latest_begin < earliest_end;
  }
  std::unordered_set<int> members(buffers.begin(), buffers.end());
  std::unordered_set<uint64_t> pairs;
  for (int b : buffers) {
    for (int c : problem.buffers[static_cast<size_t>(b)].conflicts) {
      if (c == b || !members.count(c)) continue;
      const auto lo = static_cast<uint64_t>(std::min(b, c));
      const auto hi = static_cast<uint64_t>(std::max(b, c));
      pairs.insert(lo << 32 | hi);
    }
  }
  const uint64_t n = buffers.size();
  return pairs.size() == n * (n - 1) / 2;
}

std::optional<int64_t> stack_clique_pool(const Problem& problem, std::vector<Allocation>& allocations, int pool) {
  std::vector<int> members;
  for (size_t b = 0; b < problem.buffers.size() && b < allocations.size(); ++b) {
    if (allocations[b].pool != pool) continue;
    const Buffer& buffer = problem.buffers[b];
    if (buffer.pin && buffer.pin->offset) return std::nullopt;
    members.push_back(static_cast<int>(b));
  }
  if (members.empty() || !all_conflict(problem, members)) return std::nullopt;
  std::stable_sort(members.begin(), members.end(), [&](int a, int b) {
    const Buffer& x = problem.buffers[static_cast<size_t>(a)];
    const Buffer& y = problem.buffers[static_cast<size_t>(b)];
    return x.alignment != y.alignment ? x.alignment > y.alignment : x.size_bytes > y.size_bytes;
  });
  int64_t top = 0;
  for (int b : members) {
    const Buffer& buffer = problem.buffers[static_cast<size_t>(b)];
    const int64_t align = std::max<int64_t>(1, buffer.alignment);
    top = (top + align - 1) / align * align;
    allocations[static_cast<size_t>(b)].offset = top;
    top += buffer.size_bytes;
  }
  return top;
}

}  // namespace usmpx
