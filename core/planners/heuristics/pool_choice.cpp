#include "planners/heuristics/pool_choice.h"

#include <algorithm>

#include "planners/common/plan_objective.h"
#include "planners/exact/pool_search.h"
#include "planners/heuristics/multi_start.h"

namespace usmpx {
namespace {

constexpr int64_t kRepackNodes = 20000;  // exact re-pack of an overflowing pool within its hint
constexpr int64_t kMoveNodes = 4000;     // exact re-pack of a preferred pool with one more buffer
constexpr size_t kForcedBuffers = 8;     // topmost buffers tried in another pool with a full re-plan

class Choice {
 public:
  Choice(const GreedyContext& context, std::vector<Allocation>& allocations, Deadline& deadline)
      : context_(context), problem_(context.problem), alloc_(allocations), deadline_(deadline) {}

  void repair() {
    const size_t max_moves = 2 * problem_.buffers.size() + 1;
    for (size_t step = 0; step < max_moves && !deadline_.check_now(); ++step) {
      const int pool = overflowing_pool();
      if (pool < 0) return;
      if (repack(alloc_, pool, -1, kRepackNodes)) continue;
      if (!move_top_out(pool) && !force_out(pool)) return;
    }
  }

  void prefer() {
    std::vector<int> displaced;
    for (size_t b = 0; b < problem_.buffers.size(); ++b) {
      if (!problem_.buffers[b].pin && rank(static_cast<int>(b)) > 0) displaced.push_back(static_cast<int>(b));
    }
    std::stable_sort(displaced.begin(), displaced.end(), [&](int a, int b) { return size(a) > size(b); });
    PlanCost cost = plan_cost(problem_, alloc_);
    for (int b : displaced) {
      const auto& candidates = problem_.buffers[static_cast<size_t>(b)].pool_candidates;
      const size_t current = rank(b);
      for (size_t r = 0; r < current && r < candidates.size(); ++r) {
        if (deadline_.check_now()) return;
        const int pool = candidates[r];
        if (!could_join(alloc_, b, pool)) continue;
        std::vector<Allocation> trial = alloc_;
        const int64_t offset = gap_in(trial, b, pool);
        if (offset >= 0) {
          trial[static_cast<size_t>(b)] = {pool, offset};
        } else if (!repack(trial, pool, b, kMoveNodes)) {
          continue;
        }
        PlanCost next = plan_cost(problem_, trial);
        if (next < cost) {
          alloc_ = std::move(trial);
          cost = std::move(next);
          break;
        }
      }
    }
  }

  // Moves one resident out of a pool with a size hint so that several buffers preferring that
  // pool fit in instead (e.g. 60 out, 50 + 50 in), when that improves the plan's cost.
  void eject() {
    PlanCost cost = plan_cost(problem_, alloc_);
    for (size_t p = 0; p < problem_.pools.size(); ++p) {
      const int pool = static_cast<int>(p);
      if (hint(pool) == kOpenEnd) continue;
      std::vector<int> residents;
      for (size_t b = 0; b < problem_.buffers.size(); ++b) {
        const Buffer& buf = problem_.buffers[b];
        if (alloc_[b].pool == pool && !buf.pin && buf.pool_candidates.size() > 1)
          residents.push_back(static_cast<int>(b));
      }
      std::stable_sort(residents.begin(), residents.end(), [&](int a, int b) { return size(a) < size(b); });
      for (int x : residents) {
        if (deadline_.check_now()) return;
        if (alloc_[static_cast<size_t>(x)].pool != pool) continue;
        std::vector<int> demand = wanting(pool);
        if (demand.empty()) break;
        // Only buffers live with x gain room when it leaves: for the others the pool looks the
        // same, and prefer() already placed them where that helped. Of those, only the ones the
        // pool could hold without x are tried.
        std::vector<Allocation> trial = alloc_;
        trial[static_cast<size_t>(x)].pool = -1;
        std::erase_if(demand, [&](int d) { return !live_together(x, d) || !could_join(trial, d, pool); });
        if (demand.empty()) continue;
        trial = alloc_;
        bool moved = false;
        for (int other : problem_.buffers[static_cast<size_t>(x)].pool_candidates) {
          if (other == pool) continue;
          const int64_t offset = gap_in(trial, x, other);
          if (offset >= 0) {
            trial[static_cast<size_t>(x)] = {other, offset};
            moved = true;
            break;
          }
        }
        if (!moved) continue;
        for (int d : demand) {
          const int64_t offset = gap_in(trial, d, pool);
          if (offset >= 0) trial[static_cast<size_t>(d)] = {pool, offset};
        }
        PlanCost next = plan_cost(problem_, trial);
        if (next < cost) {
          alloc_ = std::move(trial);
          cost = std::move(next);
        }
      }
    }
  }

 private:
  // Buffers outside `pool` that prefer it to where they are, largest first.
  std::vector<int> wanting(int pool) const {
    std::vector<int> out;
    for (size_t b = 0; b < problem_.buffers.size(); ++b) {
      const Buffer& buf = problem_.buffers[b];
      if (buf.pin || alloc_[b].pool == pool) continue;
      const auto& candidates = buf.pool_candidates;
      const auto it = std::find(candidates.begin(), candidates.end(), pool);
      if (it != candidates.end() && static_cast<size_t>(it - candidates.begin()) < rank(static_cast<int>(b)))
        out.push_back(static_cast<int>(b));
    }
    std::stable_sort(out.begin(), out.end(), [&](int a, int b) { return size(a) > size(b); });
    return out;
  }

  int64_t size(int b) const { return problem_.buffers[static_cast<size_t>(b)].size_bytes; }
  // Lifetime problems: the two are live at one tick. Conflict lists: always (no cheap answer).
  bool live_together(int a, int b) const {
    const auto& x = problem_.buffers[static_cast<size_t>(a)].lifetime;
    const auto& y = problem_.buffers[static_cast<size_t>(b)].lifetime;
    return !problem_.interval_conflicts() || !x || !y || x->overlaps(*y);
  }
  size_t rank(int b) const {
    const auto& candidates = problem_.buffers[static_cast<size_t>(b)].pool_candidates;
    const auto it = std::find(candidates.begin(), candidates.end(), alloc_[static_cast<size_t>(b)].pool);
    return it == candidates.end() ? 0 : static_cast<size_t>(it - candidates.begin());
  }
  int64_t hint(int pool) const {
    const Pool& p = problem_.pools[static_cast<size_t>(pool)];
    return p.restricted() ? p.size_hint_bytes : kOpenEnd;
  }
  int64_t used(const std::vector<Allocation>& alloc, int pool) const {
    int64_t top = 0;
    for (size_t b = 0; b < alloc.size(); ++b) {
      if (alloc[b].pool == pool) top = std::max(top, alloc[b].offset + problem_.buffers[b].size_bytes);
    }
    return top;
  }
  int overflowing_pool() const {
    for (size_t p = 0; p < problem_.pools.size(); ++p) {
      if (used(alloc_, static_cast<int>(p)) > hint(static_cast<int>(p))) return static_cast<int>(p);
    }
    return -1;
  }

  // Best-fit offset for b in `pool` among the buffers `alloc` puts there, within `limit` (by
  // default the pool's hint); -1 when no gap holds it.
  int64_t gap_in(const std::vector<Allocation>& alloc, int b, int pool, int64_t limit = -1) const {
    auto occupancy = context_.make_occupancy();
    for (size_t x = 0; x < alloc.size(); ++x) {
      if (static_cast<int>(x) != b && alloc[x].pool == pool)
        occupancy->insert(static_cast<int>(x), alloc[x].offset, problem_.buffers[x].size_bytes);
    }
    return fit_offset(*occupancy, b, problem_.buffers[static_cast<size_t>(b)], FitRule::kBestFit,
                      limit < 0 ? hint(pool) : limit);
  }

  // Whether `b` can join `pool` within its hint at all. Buffers live at one tick need distinct
  // addresses, so at no tick of b's lifetime may the bytes live there, plus b's, exceed the hint.
  // Cheap next to the exact re-pack it spares when the answer is no (a full preferred pool).
  bool could_join(const std::vector<Allocation>& alloc, int b, int pool) const {
    const int64_t capacity = hint(pool);
    const Buffer& buf = problem_.buffers[static_cast<size_t>(b)];
    if (capacity == kOpenEnd) return true;
    if (!problem_.interval_conflicts() || !buf.lifetime) return buf.size_bytes <= capacity;
    const Lifetime window = *buf.lifetime;
    std::vector<std::pair<int64_t, int64_t>> changes;  // (tick, bytes), lifetimes clipped to b's
    for (size_t x = 0; x < alloc.size(); ++x) {
      const auto& lt = problem_.buffers[x].lifetime;
      if (alloc[x].pool != pool || static_cast<int>(x) == b || !lt || !lt->overlaps(window)) continue;
      changes.emplace_back(std::max(lt->begin, window.begin), problem_.buffers[x].size_bytes);
      changes.emplace_back(std::min(lt->end, window.end), -problem_.buffers[x].size_bytes);
    }
    std::sort(changes.begin(), changes.end());  // at one tick, ends (negative) before starts
    int64_t live = 0;
    for (const auto& [tick, bytes] : changes) {
      live += bytes;
      if (live + buf.size_bytes > capacity) return false;
    }
    return buf.size_bytes <= capacity;
  }

  // Re-packs `pool` (plus `extra`, when >= 0) within its hint with the exact search.
  bool repack(std::vector<Allocation>& alloc, int pool, int extra, int64_t budget) const {
    const int64_t capacity = hint(pool);
    if (capacity == kOpenEnd) return false;
    std::vector<int> members;
    std::vector<std::pair<int, int64_t>> fixed;
    for (size_t x = 0; x < alloc.size(); ++x) {
      const bool in_pool = alloc[x].pool == pool || static_cast<int>(x) == extra;
      if (!in_pool) continue;
      const Buffer& buf = problem_.buffers[x];
      if (buf.pin && buf.pin->offset) {
        if (alloc[x].offset + buf.size_bytes > capacity) return false;  // a pin already overflows
        fixed.emplace_back(static_cast<int>(x), alloc[x].offset);
      } else {
        members.push_back(static_cast<int>(x));
      }
    }
    const auto offsets = fit_pool(problem_, members, fixed, capacity, budget, deadline_);
    if (!offsets) return false;
    for (size_t k = 0; k < members.size(); ++k)
      alloc[static_cast<size_t>(members[k])] = {pool, (*offsets)[k]};
    return true;
  }

  // The buffers of `pool` that may go elsewhere (not pinned, another candidate pool), topmost first.
  std::vector<int> movable_topmost_first(int pool) const {
    std::vector<int> movable;
    for (size_t b = 0; b < problem_.buffers.size(); ++b) {
      const Buffer& buf = problem_.buffers[b];
      if (alloc_[b].pool == pool && !buf.pin && buf.pool_candidates.size() > 1) movable.push_back(static_cast<int>(b));
    }
    auto end_of = [&](int b) { return alloc_[static_cast<size_t>(b)].offset + size(b); };
    std::stable_sort(movable.begin(), movable.end(), [&](int a, int b) { return end_of(a) > end_of(b); });
    return movable;
  }

  // Moves a buffer of `pool` (topmost first) to another of its candidate pools, into a gap within
  // that pool's hint when there is one, else above; the first move that lowers the plan's cost
  // (less overflow first) is kept.
  bool move_top_out(int pool) {
    std::vector<int> movable = movable_topmost_first(pool);
    const PlanCost cost = plan_cost(problem_, alloc_);
    for (int b : movable) {
      for (int other : problem_.buffers[static_cast<size_t>(b)].pool_candidates) {
        if (other == pool) continue;
        int64_t offset = gap_in(alloc_, b, other);
        if (offset < 0) offset = gap_in(alloc_, b, other, kOpenEnd);
        std::vector<Allocation> trial = alloc_;
        trial[static_cast<size_t>(b)] = {other, offset};
        if (plan_cost(problem_, trial) < cost) {
          alloc_ = std::move(trial);
          return true;
        }
      }
    }
    return false;
  }

  // Forces one of the topmost movable buffers of `pool` into another candidate pool and re-plans
  // every buffer greedily around that choice (the others may swap pools); kept when the plan's
  // cost improves.
  bool force_out(int pool) {
    std::vector<int> movable = movable_topmost_first(pool);
    if (movable.size() > kForcedBuffers) movable.resize(kForcedBuffers);
    const PlanCost cost = plan_cost(problem_, alloc_);
    for (int b : movable) {
      for (int other : problem_.buffers[static_cast<size_t>(b)].pool_candidates) {
        if (other == pool || deadline_.check_now()) continue;
        Problem forced = problem_;
        forced.buffers[static_cast<size_t>(b)].pin = Pin{other, std::nullopt};
        const GreedyContext context(forced);
        const OrderKeys keys = OrderKeys::of(context);
        PortfolioResult trial = greedy_portfolio(context, keys, 0, deadline_);
        if (!trial.result.complete) return false;
        if (plan_cost(problem_, trial.result.allocations) < cost) {
          alloc_ = std::move(trial.result.allocations);
          return true;
        }
      }
    }
    return false;
  }

  const GreedyContext& context_;
  const Problem& problem_;
  std::vector<Allocation>& alloc_;
  Deadline& deadline_;
};

}  // namespace

void improve_pool_choice(const GreedyContext& context, std::vector<Allocation>& allocations, Deadline& deadline) {
  if (context.problem.pools.size() < 2) {
    // One pool: only a re-pack within the hint can help.
    Choice(context, allocations, deadline).repair();
    return;
  }
  Choice choice(context, allocations, deadline);
  choice.repair();
  choice.prefer();
  choice.eject();
  choice.repair();
}

}  // namespace usmpx
