#include "model/live_bytes.h"

#include <algorithm>
#include <numeric>

namespace usmpx {

PeakLive peak_live_bytes(const Problem& problem, const std::vector<int>& subset) {
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
  PeakLive peak;
  int64_t live = 0;
  int64_t peak_tick = 0;
  for (const Event& e : events) {
    live += e.delta_sign * problem.buffers[static_cast<size_t>(e.buffer)].size_bytes;
    if (live > peak.bytes) {
      peak.bytes = live;
      peak_tick = e.tick;
    }
  }
  for (int b : subset) {
    const auto& lt = problem.buffers[static_cast<size_t>(b)].lifetime;
    if (lt && lt->begin <= peak_tick && peak_tick < lt->end) peak.live.push_back(b);
  }
  for (int b : subset) {
    const int64_t size = problem.buffers[static_cast<size_t>(b)].size_bytes;
    if (size > peak.bytes) peak = {size, {b}};
  }
  return peak;
}

PoolSharing pool_sharing_groups(const Problem& problem) {
  // Union-find over pools.
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
  PoolSharing sharing;
  sharing.buffers.resize(problem.pools.size());
  sharing.pool_count.assign(problem.pools.size(), 0);
  for (size_t p = 0; p < problem.pools.size(); ++p) {
    sharing.group_of_pool.push_back(find(static_cast<int>(p)));
    ++sharing.pool_count[static_cast<size_t>(sharing.group_of_pool.back())];
  }
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    if (!candidates[b].empty())
      sharing.buffers[static_cast<size_t>(find(candidates[b][0]))].push_back(static_cast<int>(b));
  }
  return sharing;
}

int64_t lifetime_memory_pressure(const Problem& problem) {
  int64_t total = 0;
  for (const std::vector<int>& group : pool_sharing_groups(problem).buffers) {
    if (!group.empty()) total += peak_live_bytes(problem, group).bytes;
  }
  return total;
}

}  // namespace usmpx
