#include "planners/exact/bound_search.h"

#include <algorithm>
#include <functional>
#include <map>
#include <mutex>
#include <numeric>
#include <optional>
#include <string>
#include <utility>

#include "planners/common/deadline.h"
#include "planners/exact/exact_instance.h"
#include "planners/exact/exact_search.h"
#include "planners/exact/lower_bound.h"

namespace usmpx {
namespace {

constexpr const char* kOrders[] = {"WAT", "TAW", "TWA"};
constexpr size_t kCacheEntries = 256;

// Everything about `members` the search reads, as a cache key.
std::string key_of(const Problem& problem, const std::vector<int>& members, int64_t start, int64_t budget) {
  std::string key;
  auto put = [&](int64_t v) { key.append(reinterpret_cast<const char*>(&v), sizeof v); };
  put(problem.interval_conflicts() ? 1 : 0);
  put(start);
  put(budget);
  std::vector<int> index_of(problem.buffers.size(), -1);
  for (size_t i = 0; i < members.size(); ++i)
    index_of[static_cast<size_t>(members[i])] = static_cast<int>(i);
  for (int m : members) {
    const Buffer& b = problem.buffers[static_cast<size_t>(m)];
    put(b.size_bytes);
    put(b.alignment);
    put(b.pin && b.pin->offset ? *b.pin->offset : -1);
    put(b.lifetime ? b.lifetime->begin : -1);
    put(b.lifetime ? b.lifetime->end : -1);
    put(static_cast<int64_t>(b.live_ranges.size()));
    for (const Lifetime& r : b.live_ranges) {
      put(r.begin);
      put(r.end);
    }
    if (!problem.interval_conflicts()) {
      for (int c : b.conflicts) {
        if (c >= 0 && static_cast<size_t>(c) < index_of.size() && index_of[static_cast<size_t>(c)] >= 0)
          put(index_of[static_cast<size_t>(c)]);
      }
      put(-2);
    }
  }
  return key;
}

// The cache keeps two independent 64-bit hashes of the key, not the key (a 20,000-buffer pool's
// key is a megabyte).
using KeyHash = std::pair<uint64_t, uint64_t>;
KeyHash hash_of(const std::string& key) {
  uint64_t fnv = 1469598103934665603ull;
  for (unsigned char c : key) {
    fnv ^= c;
    fnv *= 1099511628211ull;
  }
  return {fnv, std::hash<std::string>{}(key)};
}

std::mutex cache_mutex;
std::map<KeyHash, int64_t>& cache() {
  static std::map<KeyHash, int64_t> entries;
  return entries;
}

// Overlapping lifetime pairs among `members`, counting stops once `limit` is passed.
int64_t lifetime_pairs(const Problem& problem, const std::vector<int>& members, int64_t limit) {
  std::vector<std::pair<int64_t, int>> events;
  for (int m : members) {
    const auto& lt = problem.buffers[static_cast<size_t>(m)].lifetime;
    if (!lt || lt->empty()) continue;
    events.emplace_back(lt->begin, +1);
    events.emplace_back(lt->end, -1);
  }
  std::sort(events.begin(), events.end());
  int64_t live = 0;
  int64_t pairs = 0;
  for (const auto& [tick, delta] : events) {
    if (delta > 0) pairs += live;
    live += delta;
    if (pairs > limit) break;
  }
  return pairs;
}

int64_t search_bound(const Problem& problem, const std::vector<int>& members, int64_t start, int64_t work) {
  std::vector<int> items;
  std::vector<std::pair<int, int64_t>> fixed;
  for (int m : members) {
    const Buffer& b = problem.buffers[static_cast<size_t>(m)];
    if (b.pin && b.pin->offset) {
      fixed.emplace_back(m, *b.pin->offset);
    } else {
      items.push_back(m);
    }
  }
  if (items.empty()) return start;
  if (problem.interval_conflicts() ? lifetime_pairs(problem, items, exact::kMaxInstancePairs) > exact::kMaxInstancePairs
                                   : items.size() > 3000)
    return start;
  const exact::BuiltInstance built = exact::build_instance(problem, items, fixed);
  const exact::Instance& in = built.instance;
  if (in.items == 0) return start;
  const int64_t g = exact::packing_granule(in, fixed, problem);
  int64_t lb = std::max(start, in.lower_bound());
  const int64_t budget = std::max<int64_t>(1000, work / std::max(1, in.items));
  static const PlannerOptions no_limit{.time_limit_seconds = 0};
  Deadline deadline = Deadline::cancel_only(no_limit);
  exact::Search search(in);
  int64_t spent = 0;
  int64_t limit = 2 * static_cast<int64_t>(in.items);
  for (int turn = 0; spent < budget; ++turn) {
    const exact::Outcome r = search.run(lb, kOrders[turn % 3], std::min(limit, budget - spent), deadline);
    spent += std::max<int64_t>(1, search.nodes());
    if (r == exact::Outcome::kFound) break;  // the bound is these buffers' optimum
    if (r == exact::Outcome::kInfeasible) lb = (lb / g + 1) * g;
    if (turn % 3 == 2) limit *= 2;
  }
  return lb;
}

}  // namespace

std::vector<int64_t> searched_pool_bounds(const Problem& problem, int64_t work) {
  std::vector<int64_t> bounds = pool_lower_bounds(problem);
  if (work <= 0) return bounds;
  const std::vector<std::vector<int>> members = confined_buffers(problem);
  for (size_t p = 0; p < bounds.size() && p < members.size(); ++p) {
    if (members[p].empty()) continue;
    const KeyHash key = hash_of(key_of(problem, members[p], bounds[p], work));
    {
      const std::lock_guard<std::mutex> lock(cache_mutex);
      if (const auto it = cache().find(key); it != cache().end()) {
        bounds[p] = it->second;
        continue;
      }
    }
    const int64_t searched = std::max(bounds[p], search_bound(problem, members[p], bounds[p], work));
    const std::lock_guard<std::mutex> lock(cache_mutex);
    if (cache().size() >= kCacheEntries) cache().clear();
    cache().emplace(key, searched);
    bounds[p] = searched;
  }
  return bounds;
}

}  // namespace usmpx
