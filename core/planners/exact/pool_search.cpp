#include "planners/exact/pool_search.h"

#include "planners/exact/clique_pool.h"

#include <algorithm>
#include <iterator>
#include <numeric>
#include <string>

#include "planners/exact/exact_instance.h"
#include "planners/exact/exact_search.h"
#include "planners/exact/lower_bound.h"

namespace usmpx {
namespace {

constexpr const char* kOrders[] = {"WAT", "TAW", "TWA"};
constexpr int kDescentTargets = 3;                 // drawn anywhere between bound and best
constexpr int64_t kNearSteps[] = {1, 2, 3, 5, 8};  // granules below the best
constexpr size_t kProbedSteps = 3;                 // of those, probed with every order when stalled
constexpr double kGolden = 0.6180339887498949;
constexpr int64_t kCliqueMoves = 20000;        // local search over a clique's stacking order
constexpr int64_t kCliqueSteps = 100'000'000;  // of buffers stacked in all (n per move)
constexpr size_t kCliqueSearchedUpTo = 12;     // buffers of a clique the exact search still settles

// Overlapping lifetime pairs among `members`, counting stops once `limit` is passed.
int64_t lifetime_pairs(const Problem& problem, const std::vector<int>& members, int64_t limit) {
  struct Event {
    int64_t tick;
    int delta;
  };
  std::vector<Event> events;
  for (int m : members) {
    const auto& lt = problem.buffers[static_cast<size_t>(m)].lifetime;
    if (!lt || lt->empty()) continue;
    events.push_back({lt->begin, +1});
    events.push_back({lt->end, -1});
  }
  std::sort(events.begin(), events.end(),
            [](const Event& a, const Event& b) { return a.tick != b.tick ? a.tick < b.tick : a.delta < b.delta; });
  int64_t live = 0;
  int64_t pairs = 0;
  for (const Event& e : events) {
    if (e.delta > 0) pairs += live;
    live += e.delta;
    if (pairs > limit) break;
  }
  return pairs;
}

struct PoolMembers {
  std::vector<int> items;                      // buffers the search places
  std::vector<std::pair<int, int64_t>> fixed;  // buffers pinned at an offset in the pool
};

PoolMembers members_of(const Problem& problem, const std::vector<Allocation>& allocations, int pool) {
  PoolMembers m;
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    if (allocations[b].pool != pool) continue;
    const Buffer& buf = problem.buffers[b];
    if (buf.pin && buf.pin->offset) {
      m.fixed.emplace_back(static_cast<int>(b), allocations[b].offset);
    } else {
      m.items.push_back(static_cast<int>(b));
    }
  }
  return m;
}

bool too_large(const Problem& problem, const std::vector<int>& members) {
  if (!problem.interval_conflicts()) return members.size() > 3000;
  return lifetime_pairs(problem, members, exact::kMaxInstancePairs) > exact::kMaxInstancePairs;
}

int64_t peak_of(const exact::BuiltInstance& built, const std::vector<int64_t>& offsets) {
  int64_t peak = 0;
  for (int i = 0; i < built.instance.items; ++i) {
    peak = std::max(peak, offsets[static_cast<size_t>(i)] + built.instance.size[static_cast<size_t>(i)]);
  }
  return peak;
}

// What a pool's placement reaches now (`size`) and what neither the search nor any placement can
// lower (`floor`: a pinned buffer's end, the largest buffer).
struct PoolExtent {
  int64_t size = 0;
  int64_t floor = 0;
};

PoolExtent extent_of(const Problem& problem, const std::vector<Allocation>& allocations, int pool) {
  PoolExtent e;
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    if (allocations[b].pool != pool) continue;
    const Buffer& buf = problem.buffers[b];
    const int64_t end = allocations[b].offset + buf.size_bytes;
    e.size = std::max(e.size, end);
    e.floor = std::max(e.floor, (buf.pin && buf.pin->offset) ? end : buf.size_bytes);
  }
  return e;
}

// A pool whose buffers all conflict (constant pools), stacked in closed form: settled when the
// stack meets the bound that counts the padding no order avoids, or after a short local search
// over the stacking order when the clique is too large for the exact search to settle; else the
// stack (and the bound it proved) is left in `allocations` and `extent` for the search.
std::optional<PoolSearchOutcome> stack_clique(const Problem& problem, std::vector<Allocation>& allocations, int pool,
                                              const PoolMembers& members, PoolExtent& extent) {
  std::vector<Allocation> stacked = allocations;
  const std::optional<int64_t> top = stack_clique_pool(problem, stacked, pool);
  if (!top) return std::nullopt;
  if (*top <= extent.size) {
    allocations = std::move(stacked);
    extent.size = *top;
  }
  PoolSearchOutcome out;
  out.size = extent.size;
  out.lower_bound = clique_lower_bound(problem, members.items);
  out.optimal = extent.size <= out.lower_bound;
  if (!out.optimal) {
    // Padding the bound does not explain: a short local search over the stacking order.
    const auto n = static_cast<int64_t>(members.items.size());
    out.size = improve_clique_stack(problem, allocations, pool, std::min<int64_t>(kCliqueMoves, kCliqueSteps / n));
    out.optimal = out.size <= out.lower_bound;
    extent.size = out.size;
    extent.floor = std::max(extent.floor, out.lower_bound);
  }
  // A small clique goes on to the exact search, which settles it by exhausting the orders; on a
  // large one it tries orders too, only slower, so the stack stands.
  if (out.optimal || members.items.size() > kCliqueSearchedUpTo) {
    out.clique = !out.optimal;
    return out;
  }
  return std::nullopt;
}

// The exact search of one pool's placement: the lower bound rises with every capacity proven too
// small, the best size falls with every placement found (written into `allocations` at once).
class PoolSearch {
 public:
  PoolSearch(const Problem& problem, std::vector<Allocation>& allocations, int pool, const PoolMembers& members,
             const PoolExtent& extent, int64_t bound, Deadline& deadline)
      : problem_(problem),
        allocations_(allocations),
        pool_(pool),
        floor_(extent.floor),
        deadline_(deadline),
        built_(exact::build_instance(problem, members.items, members.fixed)),
        search_(built_.instance),
        items_(built_.instance.items),
        granule_(exact::packing_granule(built_.instance, members.fixed, problem)),
        // The search ends as soon as a placement meets the bound.
        lb_(std::max({extent.floor, built_.instance.lower_bound(), bound})),
        best_(extent.size) {
    for (int b : built_.free_members)
      allocations_[static_cast<size_t>(b)].offset = 0;
  }

  // Until a placement within `target` is found or proven impossible (or the deadline).
  void reach(int64_t target) {
    for (int round = 0, limit = 0; best_ > target && lb_ <= target && !deadline_.check_now(); ++round) {
      const int64_t nodes = (2 * items_) << std::min(limit, 40);
      const exact::Outcome r = search_.run(target, kOrders[round % 3], nodes, deadline_);
      if (r == exact::Outcome::kFound) accept(search_.offsets());
      if (r == exact::Outcome::kInfeasible) lb_ = target + granule_;
      if (round % 3 == 2) ++limit;
    }
  }

  // Until the best size meets the bound (or the deadline). Two activities share the nodes
  // equally: attempts at the lower bound itself (MiniMalloc's round robin of the three static
  // orders, the node limit doubling after each round) and descent passes below the best size.
  void minimize() {
    int64_t limit = 2 * items_;
    int64_t bound_limit = 2 * items_;
    int64_t bound_nodes = 0;
    int64_t descent_nodes = 0;
    bool stalled = false;
    for (int bound_turn = 0, pass = 0; best_ > lb_ && !deadline_.check_now();) {
      // Only the bound is left to try when no capacity lies strictly between it and the best.
      if (bound_nodes <= descent_nodes || best_ - granule_ <= lb_) {
        bound_nodes += try_bound(kOrders[bound_turn % 3], bound_limit);
        if (++bound_turn % 3 == 0) bound_limit *= 2;
        continue;
      }
      const bool progress = descend(descent_attempts(pass, stalled, limit), descent_nodes);
      if (!progress) limit *= 2;
      stalled = !progress;
      ++pass;
    }
  }

  PoolSearchOutcome outcome() const {
    PoolSearchOutcome out;
    out.size = best_;
    out.lower_bound = std::min(lb_, best_);
    out.optimal = best_ <= out.lower_bound;
    out.searched = true;
    return out;
  }

 private:
  struct Attempt {
    int64_t capacity;
    const char* order;
    int64_t nodes;
  };

  void accept(const std::vector<int64_t>& offsets) {
    for (int i = 0; i < built_.instance.items; ++i) {
      allocations_[static_cast<size_t>(built_.buffer_of_item[static_cast<size_t>(i)])].offset =
          offsets[static_cast<size_t>(i)];
    }
    best_ = std::max(floor_, peak_of(built_, offsets));
    // The bytes are this pool's, not the plan's: the message names the pool.
    const std::string message = "pool '" + problem_.pools[static_cast<size_t>(pool_)].name + "'";
    deadline_.report(-1.0, best_, message.c_str());
  }

  // One attempt at the lower bound itself; the nodes it took.
  int64_t try_bound(const char* order, int64_t nodes) {
    const exact::Outcome r = search_.run(lb_, order, nodes, deadline_);
    if (r == exact::Outcome::kFound) {
      accept(search_.offsets());
    } else if (r == exact::Outcome::kInfeasible) {
      lb_ += granule_;
    }
    return search_.nodes();
  }

  // A descent pass: capacities between the bound and the best size so far, lowest first: a few
  // just below the best, and a few drawn anywhere in the gap (a golden-ratio sequence, new ones
  // every pass), since how hard a capacity is varies erratically. Each gets the pass's order and a
  // quarter of its node limit; after a pass that found nothing, the closest ones are first probed
  // cheaply with all three orders (MiniMalloc's first-round limit), which finds the easy ones fast.
  std::vector<Attempt> descent_attempts(int pass, bool stalled, int64_t limit) {
    std::vector<Attempt> attempts;
    const int64_t probe = 2 * items_;
    const int64_t share = std::max<int64_t>(limit / 4, probe);
    for (int k = 0; k < kDescentTargets; ++k) {
      draw_ = draw_ + kGolden - static_cast<double>(static_cast<int64_t>(draw_ + kGolden));
      const auto step = static_cast<int64_t>(draw_ * static_cast<double>(best_ - lb_));
      attempts.push_back({lb_ + step / granule_ * granule_, kOrders[(pass + k) % 3], share});
    }
    for (size_t k = 0; k < std::size(kNearSteps); ++k) {
      const int64_t t = best_ - kNearSteps[k] * granule_;
      if (stalled && k < kProbedSteps) {
        for (const char* order : kOrders)
          attempts.push_back({t, order, probe});
      }
      attempts.push_back({t, kOrders[(static_cast<size_t>(pass) + k) % 3], share});
    }
    std::stable_sort(attempts.begin(), attempts.end(),
                     [](const Attempt& a, const Attempt& b) { return a.capacity < b.capacity; });
    return attempts;
  }

  // Runs the attempts until one finds a placement; a proof that a capacity is too small raises
  // the bound, so on small problems the passes close the gap like a bisection. Whether anything
  // moved.
  bool descend(const std::vector<Attempt>& attempts, int64_t& nodes) {
    bool progress = false;
    for (const Attempt& a : attempts) {
      if (best_ <= lb_ || deadline_.check_now()) break;
      if (a.capacity <= lb_ || a.capacity >= best_) continue;
      const exact::Outcome r = search_.run(a.capacity, a.order, a.nodes, deadline_);
      nodes += search_.nodes();
      if (r == exact::Outcome::kFound) {
        accept(search_.offsets());
        return true;
      }
      if (r == exact::Outcome::kInfeasible) {
        lb_ = std::max(lb_, a.capacity + granule_);
        progress = true;
      }
    }
    return progress;
  }

  const Problem& problem_;
  std::vector<Allocation>& allocations_;
  int pool_;
  int64_t floor_;
  Deadline& deadline_;
  const exact::BuiltInstance built_;
  exact::Search search_;
  int64_t items_;
  int64_t granule_;
  int64_t lb_;
  int64_t best_;
  double draw_ = 0.0;  // the golden-ratio sequence of descent capacities
};

// minimize_pool without the bound of the pool's buffers (`bound`), which only starts the search.
PoolSearchOutcome search_pool(const Problem& problem, std::vector<Allocation>& allocations, int pool,
                              const PoolMembers& members, int64_t bound, Deadline& deadline,
                              std::optional<int64_t> target) {
  PoolExtent extent = extent_of(problem, allocations, pool);
  if (members.fixed.empty() && !members.items.empty()) {
    if (std::optional<PoolSearchOutcome> settled = stack_clique(problem, allocations, pool, members, extent))
      return *settled;
  }
  if (members.items.empty() || (target && extent.size <= *target) || too_large(problem, members.items)) {
    PoolSearchOutcome out;
    out.size = extent.size;
    out.lower_bound = extent.floor;
    out.optimal = extent.size <= extent.floor;
    return out;
  }
  PoolSearch search(problem, allocations, pool, members, extent, bound, deadline);
  if (target) {
    search.reach(*target);
  } else {
    search.minimize();
  }
  return search.outcome();
}

}  // namespace

PoolSearchOutcome minimize_pool(const Problem& problem, std::vector<Allocation>& allocations, int pool,
                                Deadline& deadline, std::optional<int64_t> target) {
  const PoolMembers members = members_of(problem, allocations, pool);
  // The bound of these buffers in one address space (lower_bound.h: cliques, blocks pinned at
  // offsets, alignment), whichever way the search goes.
  std::vector<int> all = members.items;
  for (const auto& f : members.fixed)
    all.push_back(f.first);
  const int64_t bound = pool_lower_bound(problem, all).bytes;
  PoolSearchOutcome out = search_pool(problem, allocations, pool, members, bound, deadline, target);
  out.lower_bound = std::max(out.lower_bound, std::min(bound, out.size));
  out.optimal = out.size <= out.lower_bound;
  return out;
}

std::optional<std::vector<int64_t>> fit_pool(const Problem& problem, const std::vector<int>& members,
                                             const std::vector<std::pair<int, int64_t>>& fixed, int64_t capacity,
                                             int64_t node_budget, Deadline& deadline, bool* proven) {
  if (proven != nullptr) *proven = false;
  for (int m : members) {
    if (problem.buffers[static_cast<size_t>(m)].size_bytes > capacity) {
      if (proven != nullptr) *proven = true;
      return std::nullopt;
    }
  }
  if (too_large(problem, members)) return std::nullopt;
  const exact::BuiltInstance built = exact::build_instance(problem, members, fixed);
  std::vector<int64_t> offsets(problem.buffers.size(), 0);
  if (built.instance.items > 0) {
    exact::Search search(built.instance);
    int64_t limit = 2 * static_cast<int64_t>(built.instance.items);
    int64_t spent = 0;
    bool found = false;
    for (int round = 0; !found && spent < node_budget && !deadline.check_now(); ++round, limit *= 2) {
      const exact::Outcome r = search.run(capacity, kOrders[round % 3], std::min(limit, node_budget - spent), deadline);
      spent += search.nodes();
      if (r == exact::Outcome::kInfeasible) {
        if (proven != nullptr) *proven = true;
        return std::nullopt;
      }
      found = r == exact::Outcome::kFound;
    }
    if (!found) return std::nullopt;
    for (int i = 0; i < built.instance.items; ++i) {
      offsets[static_cast<size_t>(built.buffer_of_item[static_cast<size_t>(i)])] =
          search.offsets()[static_cast<size_t>(i)];
    }
  }
  std::vector<int64_t> result;
  result.reserve(members.size());
  for (int m : members)
    result.push_back(offsets[static_cast<size_t>(m)]);
  return result;
}

}  // namespace usmpx
