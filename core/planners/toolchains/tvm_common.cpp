#include "planners/toolchains/tvm_common.h"

#include <algorithm>
#include <sstream>

#include "base/alignment.h"

namespace usmpx::tvm_compat {
namespace {

std::string pool_repr(const Pool& pool) {
  std::ostringstream out;
  out << (pool.kind == PoolKind::kConstant ? "ConstantPoolInfoNode(\n" : "WorkspacePoolInfoNode(\n")
      << "  pool_name=" << pool.name << ",\n  targets=[";
  for (size_t i = 0; i < pool.targets.size(); ++i) {
    out << (i ? ", " : "") << pool.targets[i].target;
  }
  out << "],\n  size_hint_bytes=" << pool.size_hint_bytes
      << ",\n  clock_frequency_hz=-1,\n  read_bandwidth_bytes_per_cycle=-1"
      << ",\n  write_bandwidth_bytes_per_cycle=-1,\n  read_latency_cycles=0"
      << ",\n  write_latency_cycles=0,\n  target_burst_bytes={},\n  is_internal=" << (pool.internal ? 1 : 0) << ")\n";
  return out.str();
}

const char* kind_repr(BufferKind kind) {
  switch (kind) {
    case BufferKind::kInput: return "kInput";
    case BufferKind::kOutput: return "kOutput";
    default: return "kIntermediate";
  }
}

// Every buffer, largest first by size and conflict count (conflicts as the first key or the
// second), ties by name descending: the orders of TVM's greedy planners.
std::vector<int> greedy_order(const Problem& problem, const ConflictLists& conflicts, bool conflicts_first) {
  std::vector<int> order(problem.buffers.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = static_cast<int>(i);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const Buffer& x = problem.buffers[static_cast<size_t>(a)];
    const Buffer& y = problem.buffers[static_cast<size_t>(b)];
    const auto cx = static_cast<int64_t>(conflicts[static_cast<size_t>(a)].size());
    const auto cy = static_cast<int64_t>(conflicts[static_cast<size_t>(b)].size());
    const int64_t first_x = conflicts_first ? cx : x.size_bytes, first_y = conflicts_first ? cy : y.size_bytes;
    const int64_t second_x = conflicts_first ? x.size_bytes : cx, second_y = conflicts_first ? y.size_bytes : cy;
    if (first_x != first_y) return first_x > first_y;
    if (second_x != second_y) return second_x > second_y;
    return x.name > y.name;
  });
  return order;
}

}  // namespace

std::vector<int> order_by_size(const Problem& problem, const ConflictLists& conflicts) {
  return greedy_order(problem, conflicts, false);
}

std::vector<int> order_by_conflicts(const Problem& problem, const ConflictLists& conflicts) {
  return greedy_order(problem, conflicts, true);
}

void pinned_first(const Problem& problem, std::vector<int>& order) {
  auto rank = [&](int b) {
    const auto& pin = problem.buffers[static_cast<size_t>(b)].pin;
    return !pin ? 2 : pin->offset ? 0 : 1;
  };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return rank(a) < rank(b); });
}

void PoolCandidates::start(const Problem& problem, const std::vector<int>& candidates, int64_t size) {
  std::fill(present.begin(), present.end(), 0);
  std::fill(offset.begin(), offset.end(), 0);
  for (int p : candidates) {
    if (problem.pools[static_cast<size_t>(p)].fits(0, size)) present[static_cast<size_t>(p)] = 1;
  }
}

int PoolCandidates::select(const std::vector<int>& candidates) const {
  for (int p : candidates) {
    if (present[static_cast<size_t>(p)]) return p;
  }
  return -1;
}

std::string placement_error_text(const Problem& problem, int buffer, size_t conflict_count) {
  const Buffer& b = problem.buffers[static_cast<size_t>(buffer)];
  std::ostringstream out;
  out << "TVM USMP Error: the space available in the provided pools exceeded when trying to "
         "allocate the buffer : BufferInfoNode(\nname_hint="
      << b.name << ",\n  size_bytes=" << b.size_bytes << ",\n  pool_candidates=[";
  const std::vector<int> candidates = problem.effective_candidates(buffer);
  for (size_t i = 0; i < candidates.size(); ++i) {
    out << (i ? ", " : "") << pool_repr(problem.pools[static_cast<size_t>(candidates[i])]);
  }
  out << "],\n  alignment=" << b.alignment << ",\n  kind=" << kind_repr(b.kind) << ",\n  conflicts=" << conflict_count
      << ")\n. Please increase the size_hints for memory pools.";
  return out.str();
}

void place_overflowing(const Problem& problem, const ConflictLists& conflicts, const std::vector<bool>& placed,
                       int buffer, Plan& plan) {
  const std::vector<int> candidates = problem.effective_candidates(buffer);
  if (candidates.empty()) return;
  const int pool = candidates.front();
  int64_t offset = 0;
  for (int c : conflicts[static_cast<size_t>(buffer)]) {
    const Allocation& a = plan.allocations[static_cast<size_t>(c)];
    if (!placed[static_cast<size_t>(c)] || a.pool != pool) continue;
    const Buffer& cb = problem.buffers[static_cast<size_t>(c)];
    offset = std::max(offset, align_up(a.offset + cb.size_bytes, cb.alignment));
  }
  plan.allocations[static_cast<size_t>(buffer)] = {pool, offset};
}

}  // namespace usmpx::tvm_compat
