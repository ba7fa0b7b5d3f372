#include "planners/heuristics/greedy_fit.h"

#include <algorithm>

namespace usmpx {
namespace {

// Chooses an aligned offset among the gaps of a walk, below `limit` when one fits there.
class FitVisitor final : public GapVisitor {
 public:
  FitVisitor(FitRule rule, int64_t size, int64_t alignment, int64_t limit)
      : rule_(rule), size_(size), alignment_(std::max<int64_t>(1, alignment)), limit_(limit) {}

  bool gap(int64_t lo, int64_t hi) override {
    const int64_t start = align_up(lo, alignment_);
    if (hi == kOpenEnd) {
      if (best_ < 0) {
        best_ = start;
        top_ = true;
      }
      return false;
    }
    if (start + size_ > hi || start + size_ > limit_) return start < limit_;
    if (rule_ == FitRule::kFirstFit) {
      best_ = start;
      return false;
    }
    const int64_t room = hi - lo;
    if (best_ < 0 || room < best_room_) {
      best_ = start;
      best_room_ = room;
      if (room == size_) return false;  // an exact fit cannot be beaten
    }
    return true;
  }
  int64_t offset() const { return best_; }
  bool on_top() const { return top_; }

 private:
  FitRule rule_;
  int64_t size_;
  int64_t alignment_;
  int64_t limit_;
  int64_t best_ = -1;
  int64_t best_room_ = 0;
  bool top_ = false;
};

}  // namespace

GreedyContext::GreedyContext(const Problem& p) : problem(p), intervals(p.interval_conflicts()) {
  if (intervals) {
    axis = TimeAxis::of(p);
  } else {
    neighbours = symmetric_conflicts(p);
  }
  candidates.resize(p.buffers.size());
  for (size_t b = 0; b < p.buffers.size(); ++b) {
    candidates[b] = p.effective_candidates(static_cast<int>(b));
    std::erase_if(candidates[b], [&](int pool) { return pool < 0 || pool >= static_cast<int>(p.pools.size()); });
    const auto& pin = p.buffers[b].pin;
    if (pin && pin->offset && pin->pool >= 0 && pin->pool < static_cast<int>(p.pools.size())) {
      fixed.push_back(static_cast<int>(b));
    }
  }
}

std::unique_ptr<Occupancy> GreedyContext::make_occupancy() const {
  if (intervals) return std::make_unique<IntervalOccupancy>(axis);
  return std::make_unique<GraphOccupancy>(neighbours);
}

int64_t fit_offset(Occupancy& occupancy, int b, const Buffer& buffer, FitRule rule, int64_t limit) {
  FitVisitor visitor(rule, buffer.size_bytes, buffer.alignment, limit);
  occupancy.walk(b, visitor);
  const int64_t offset = visitor.offset();
  if (offset < 0 || (limit != kOpenEnd && offset + buffer.size_bytes > limit)) return -1;
  return offset;
}

GreedyResult greedy_place(const GreedyContext& context, const std::vector<int>& order, FitRule rule,
                          Deadline* deadline) {
  const Problem& problem = context.problem;
  GreedyResult result;
  result.allocations.assign(problem.buffers.size(), Allocation{});
  std::vector<std::unique_ptr<Occupancy>> pools(problem.pools.size());
  auto pool_index = [&](int p) -> Occupancy& {
    auto& slot = pools[static_cast<size_t>(p)];
    if (!slot) slot = context.make_occupancy();
    return *slot;
  };
  std::vector<int64_t> used(problem.pools.size(), 0);
  auto commit = [&](int b, int pool, int64_t offset) {
    const Buffer& buf = problem.buffers[static_cast<size_t>(b)];
    result.allocations[static_cast<size_t>(b)] = {pool, offset};
    pool_index(pool).insert(b, offset, buf.size_bytes);
    used[static_cast<size_t>(pool)] = std::max(used[static_cast<size_t>(pool)], offset + buf.size_bytes);
  };
  for (int b : context.fixed) {
    const Pin& pin = *problem.buffers[static_cast<size_t>(b)].pin;
    commit(b, pin.pool, *pin.offset);
  }
  for (int b : order) {
    if (deadline != nullptr && deadline->expired()) return result;
    const Buffer& buf = problem.buffers[static_cast<size_t>(b)];
    if (buf.pin && buf.pin->offset) continue;
    const std::vector<int>& candidates = context.candidates[static_cast<size_t>(b)];
    if (buf.size_bytes <= 0 && !candidates.empty()) {
      commit(b, candidates.front(), 0);  // occupies nothing
      continue;
    }
    bool placed = false;
    for (int pool : candidates) {
      const Pool& info = problem.pools[static_cast<size_t>(pool)];
      const int64_t offset =
          fit_offset(pool_index(pool), b, buf, rule, info.restricted() ? info.size_hint_bytes : kOpenEnd);
      if (offset >= 0) {
        commit(b, pool, offset);
        placed = true;
        break;
      }
    }
    if (!placed && !candidates.empty()) {
      // No candidate has room: the first one overflows, at the rule's unrestricted choice.
      commit(b, candidates.front(), fit_offset(pool_index(candidates.front()), b, buf, rule, kOpenEnd));
    }
  }
  result.complete = true;
  for (size_t p = 0; p < problem.pools.size(); ++p) {
    const Pool& pool = problem.pools[p];
    if (pool.restricted() && used[p] > pool.size_hint_bytes) result.overflow_bytes += used[p] - pool.size_hint_bytes;
  }
  return result;
}

Plan to_plan(const Problem& problem, GreedyResult result) {
  Plan plan;
  plan.allocations = std::move(result.allocations);
  plan.allocations.resize(problem.buffers.size());
  if (!result.complete) {
    plan.diagnostics.push_back({Severity::kWarning,
                                "stopped",
                                "planning stopped before every buffer was placed (cancelled or out of time)",
                                {},
                                -1,
                                {}});
  }
  return plan;
}

}  // namespace usmpx
