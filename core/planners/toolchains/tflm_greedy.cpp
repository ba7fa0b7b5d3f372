#include "planners/toolchains/tflm_greedy.h"

#include <algorithm>
#include <limits>

#include "base/alignment.h"
#include "model/buffer_overlap.h"

namespace usmpx {
namespace {

struct Entry {
  int buffer = 0;
  int64_t offset = 0;
  int next = -1;  // index into the entries, in ascending offset order
};

// One pool's buffers, in index order (TFLM's AddBuffer order), planned as TFLM does.
void plan_pool(const Problem& problem, const std::vector<int>& buffers, const BufferOverlap& overlaps,
               const PlannerOptions& options, Plan& plan, int pool) {
  if (buffers.empty()) return;
  auto size_of = [&](int b) { return problem.buffers[static_cast<size_t>(b)].size_bytes; };
  auto fixed = [&](int b) -> const std::optional<int64_t>& {
    static const std::optional<int64_t> none;
    const auto& pin = problem.buffers[static_cast<size_t>(b)].pin;
    return pin ? pin->offset : none;
  };
  // Fixed buffers at the front in index order; the others from the back (so in reverse index
  // order), then sorted by size descending with a stable sort, as TFLM's ReverseSortInPlace.
  std::vector<int> order;
  std::vector<int> online;
  for (int b : buffers) {
    if (fixed(b)) order.push_back(b);
  }
  for (auto it = buffers.rbegin(); it != buffers.rend(); ++it) {
    if (!fixed(*it)) online.push_back(*it);
  }
  std::stable_sort(online.begin(), online.end(), [&](int a, int b) { return size_of(a) > size_of(b); });
  order.insert(order.end(), online.begin(), online.end());

  std::vector<Entry> entries;
  entries.reserve(order.size());
  int head = -1;
  for (size_t i = 0; i < order.size(); ++i) {
    if ((i & 255) == 0 && options.cancelled()) return;
    const int w = order[i];
    const Buffer& wanted = problem.buffers[static_cast<size_t>(w)];
    int64_t candidate = 0;
    if (fixed(w)) {
      candidate = *fixed(w);
    } else if (head >= 0) {
      // Walk the placed buffers in offset order, only those live at the same time as w.
      int prior = -1;
      int cursor = head;
      while (true) {
        int next = -1;
        for (int e = cursor; e >= 0; e = entries[static_cast<size_t>(e)].next) {
          if (overlaps(entries[static_cast<size_t>(e)].buffer, w)) {
            next = e;
            break;
          }
        }
        if (prior >= 0) {
          const Entry& p = entries[static_cast<size_t>(prior)];
          candidate = std::max(candidate, align_up(p.offset + size_of(p.buffer), wanted.alignment));
        }
        if (next < 0) break;
        if (entries[static_cast<size_t>(next)].offset - candidate >= wanted.size_bytes) break;
        prior = next;
        cursor = entries[static_cast<size_t>(next)].next;
      }
    }
    // Insert into the offset-ordered list: as the head when the head lies above, else before the
    // first entry strictly above (after any at the same offset).
    entries.push_back({w, candidate, -1});
    const int self = static_cast<int>(entries.size()) - 1;
    if (head < 0 || entries[static_cast<size_t>(head)].offset > candidate) {
      entries[static_cast<size_t>(self)].next = head;
      head = self;
    } else {
      int current = head;
      while (true) {
        const int next = entries[static_cast<size_t>(current)].next;
        if (next < 0 || entries[static_cast<size_t>(next)].offset > candidate) {
          entries[static_cast<size_t>(self)].next = next;
          entries[static_cast<size_t>(current)].next = self;
          break;
        }
        current = next;
      }
    }
    plan.allocations[static_cast<size_t>(w)] = {pool, candidate};
  }
}

}  // namespace

Plan plan_tflm_greedy(const Problem& problem, const PlannerOptions& options) {
  Plan plan;
  plan.allocations.resize(problem.buffers.size());
  const BufferOverlap overlaps(problem);
  std::vector<std::vector<int>> per_pool(problem.pools.size());
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    const std::vector<int> candidates = problem.effective_candidates(static_cast<int>(b));
    if (!candidates.empty()) per_pool[static_cast<size_t>(candidates.front())].push_back(static_cast<int>(b));
  }
  for (size_t p = 0; p < per_pool.size(); ++p)
    plan_pool(problem, per_pool[p], overlaps, options, plan, static_cast<int>(p));
  return plan;
}

}  // namespace usmpx
