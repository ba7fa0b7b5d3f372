#include "planners/toolchains/et_greedy.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "base/alignment.h"
#include "model/buffer_overlap.h"

namespace usmpx {
namespace {

struct Bucket {
  int64_t size = 0;
  std::vector<std::pair<int, int64_t>> allocations;  // buffer, offset inside the bucket
  int64_t last_used = -1;                            // k2024: the end of life of its last user
};

// ExecuTorch after PR #7926: pick_shared_obj over buckets, largest buffers first.
std::vector<Bucket> plan_current(const std::vector<int>& buffers, const std::vector<int64_t>& size,
                                 const BufferOverlap& overlaps, const PlannerOptions& options) {
  // bisect.insort by size (after equal ones), then reverse: largest first, equal sizes in
  // reverse graph order.
  std::vector<int> order(buffers.rbegin(), buffers.rend());
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return size[a] > size[b]; });
  std::vector<Bucket> buckets;
  for (size_t i = 0; i < order.size(); ++i) {
    if ((i & 255) == 0 && options.cancelled()) break;
    const int b = order[i];
    bool placed = false;
    for (Bucket& k : buckets) {
      const bool free =
          std::none_of(k.allocations.begin(), k.allocations.end(), [&](const auto& a) { return overlaps(a.first, b); });
      if (free) {
        k.allocations.push_back({b, 0});
        placed = true;
        break;
      }
    }
    for (size_t j = 0; !placed && j < buckets.size(); ++j) {
      Bucket& k = buckets[j];
      int64_t top = 0;
      for (const auto& [other, offset] : k.allocations) {
        if (overlaps(other, b)) top = std::max(top, offset + size[other]);
      }
      if (top > 0 && top + size[b] <= k.size) {
        k.allocations.push_back({b, top});
        placed = true;
      }
    }
    if (!placed) buckets.push_back({size[b], {{b, 0}}, -1});
  }
  return buckets;
}

// ExecuTorch before PR #7926: graph order, the closest-sized free bucket.
std::vector<Bucket> plan_2024(const std::vector<int>& buffers, const std::vector<int64_t>& size,
                              const Problem& problem) {
  std::vector<Bucket> buckets;
  for (int b : buffers) {
    const auto& life = problem.buffers[static_cast<size_t>(b)].lifetime;
    const int64_t first = life ? life->first() : 0;
    const int64_t last = life ? life->last() : std::numeric_limits<int64_t>::max() / 2;
    Bucket* picked = nullptr;
    for (Bucket& k : buckets) {
      if (first > k.last_used && (!picked || std::llabs(k.size - size[b]) < std::llabs(picked->size - size[b]))) {
        picked = &k;
        k.last_used = last;
        k.size = std::max(k.size, size[b]);
      }
    }
    if (picked) {
      picked->allocations.push_back({b, 0});
    } else {
      buckets.push_back({size[b], {{b, 0}}, last});
    }
  }
  return buckets;
}

}  // namespace

Plan EtGreedyPlanner::plan(const Problem& problem, const PlannerOptions& options) const {
  Plan plan;
  plan.allocations.resize(problem.buffers.size());
  const BufferOverlap overlaps(problem);
  std::vector<int64_t> size(problem.buffers.size());
  std::vector<std::vector<int>> per_pool(problem.pools.size());
  std::vector<int64_t> reserved(problem.pools.size(), 0);
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    const Buffer& buf = problem.buffers[b];
    size[b] = align_up(buf.size_bytes, buf.alignment);
    const std::vector<int> candidates = problem.effective_candidates(static_cast<int>(b));
    if (candidates.empty()) continue;
    const auto pool = static_cast<size_t>(candidates.front());
    if (buf.pin && buf.pin->offset) {
      plan.allocations[b] = {static_cast<int>(pool), *buf.pin->offset};
      reserved[pool] = std::max(reserved[pool], *buf.pin->offset + buf.size_bytes);
    } else {
      per_pool[pool].push_back(static_cast<int>(b));
    }
  }
  for (size_t p = 0; p < per_pool.size(); ++p) {
    if (options.cancelled()) break;
    const std::vector<Bucket> buckets = variant_ == Variant::kCurrent
                                            ? plan_current(per_pool[p], size, overlaps, options)
                                            : plan_2024(per_pool[p], size, problem);
    const int64_t alignment = problem.pools[p].alignment > 1 ? problem.pools[p].alignment : 1;
    int64_t base = align_up(reserved[p], alignment);
    for (const Bucket& k : buckets) {
      for (const auto& [b, offset] : k.allocations)
        plan.allocations[static_cast<size_t>(b)] = {static_cast<int>(p), base + offset};
      base += k.size;
    }
  }
  return plan;
}

}  // namespace usmpx
