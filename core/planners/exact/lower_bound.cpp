#include "planners/exact/lower_bound.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <ranges>

#include "base/alignment.h"
#include "model/conflict_graph.h"
#include "model/live_bytes.h"
#include "planners/exact/clique_pool.h"

namespace usmpx {
namespace {

constexpr size_t kExactCliqueMaxVertices = 2000;
constexpr int64_t kCliqueNodeBudget = 200000;

LowerBound max_live(const Problem& problem, const std::vector<int>& subset) {
  PeakLive peak = peak_live_bytes(problem, subset);
  return {peak.bytes, true, std::move(peak.live)};
}

// Weighted maximum clique on a small graph: greedy start, then branch and bound with a
// colour-class bound (each colour class is an independent set, so a clique takes at most one
// vertex of it, weighing at most the class's heaviest).
class CliqueSearch {
 public:
  CliqueSearch(std::vector<int64_t> weight, std::vector<std::vector<int>> adjacency)
      : weight_(std::move(weight)), adjacency_(std::move(adjacency)) {
    const size_t n = weight_.size();
    if (n <= kExactCliqueMaxVertices) {
      matrix_.assign(n * n, 0);
      for (size_t v = 0; v < n; ++v) {
        for (int u : adjacency_[v])
          matrix_[v * n + static_cast<size_t>(u)] = 1;
      }
    }
  }

  LowerBound run() {
    greedy();
    if (!matrix_.empty()) {
      std::vector<int> all(weight_.size());
      std::iota(all.begin(), all.end(), 0);
      std::vector<int> current;
      exhausted_ = false;
      expand(all, 0, current);
      exact_ = !exhausted_;
    }
    return {best_, exact_, best_set_};
  }

 private:
  bool adjacent(int a, int b) const {
    if (!matrix_.empty()) return matrix_[static_cast<size_t>(a) * weight_.size() + static_cast<size_t>(b)];
    const auto& list = adjacency_[static_cast<size_t>(a)];
    return std::binary_search(list.begin(), list.end(), b);
  }

  void greedy() {
    std::vector<int> order(weight_.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return weight_[a] > weight_[b]; });
    for (int v : order) {
      if (weight_[static_cast<size_t>(v)] > best_) best_ = weight_[static_cast<size_t>(v)], best_set_ = {v};
      std::vector<int> candidates = adjacency_[static_cast<size_t>(v)];
      std::sort(candidates.begin(), candidates.end(), [&](int a, int b) { return weight_[a] > weight_[b]; });
      std::vector<int> clique{v};
      int64_t w = weight_[static_cast<size_t>(v)];
      for (int u : candidates) {
        if (std::all_of(clique.begin(), clique.end(), [&](int c) { return adjacent(u, c); })) {
          clique.push_back(u);
          w += weight_[static_cast<size_t>(u)];
        }
      }
      if (w > best_) best_ = w, best_set_ = clique;
    }
  }

  void expand(const std::vector<int>& candidates, int64_t weight, std::vector<int>& clique) {
    if (++nodes_ > kCliqueNodeBudget) {
      exhausted_ = true;
      return;
    }
    if (candidates.empty()) {
      if (weight > best_) best_ = weight, best_set_ = clique;
      return;
    }
    // Colour greedily (heaviest first) and order the candidates by colour class.
    std::vector<int> by_weight = candidates;
    std::sort(by_weight.begin(), by_weight.end(), [&](int a, int b) { return weight_[a] > weight_[b]; });
    std::vector<std::vector<int>> classes;
    for (int v : by_weight) {
      bool put = false;
      for (auto& cls : classes) {
        if (std::none_of(cls.begin(), cls.end(), [&](int u) { return adjacent(u, v); })) {
          cls.push_back(v);
          put = true;
          break;
        }
      }
      if (!put) classes.push_back({v});
    }
    std::vector<int> ordered;
    std::vector<int64_t> bound;  // bound[i]: heaviest clique possible within ordered[0..i]
    int64_t cumulative = 0;
    for (const auto& cls : classes) {
      cumulative += weight_[static_cast<size_t>(cls.front())];  // classes hold heaviest first
      for (int v : cls) {
        ordered.push_back(v);
        bound.push_back(cumulative);
      }
    }
    for (size_t i = ordered.size(); i-- > 0;) {
      if (weight + bound[i] <= best_ || exhausted_) return;
      const int v = ordered[i];
      std::vector<int> next;
      for (size_t j = 0; j < i; ++j) {
        if (adjacent(v, ordered[j])) next.push_back(ordered[j]);
      }
      clique.push_back(v);
      expand(next, weight + weight_[static_cast<size_t>(v)], clique);
      clique.pop_back();
    }
  }

  std::vector<int64_t> weight_;
  std::vector<std::vector<int>> adjacency_;
  std::vector<char> matrix_;
  int64_t best_ = 0;
  std::vector<int> best_set_;
  int64_t nodes_ = 0;
  bool exhausted_ = false;
  bool exact_ = false;
};

LowerBound heaviest_clique(const Problem& problem, const std::vector<int>& subset) {
  const ConflictLists all = symmetric_conflicts(problem);
  std::vector<int> local(problem.buffers.size(), -1);
  for (size_t i = 0; i < subset.size(); ++i)
    local[static_cast<size_t>(subset[i])] = static_cast<int>(i);
  std::vector<int64_t> weight(subset.size());
  std::vector<std::vector<int>> adjacency(subset.size());
  for (size_t i = 0; i < subset.size(); ++i) {
    weight[i] = problem.buffers[static_cast<size_t>(subset[i])].size_bytes;
    for (int c : all[static_cast<size_t>(subset[i])]) {
      if (local[static_cast<size_t>(c)] >= 0) adjacency[i].push_back(local[static_cast<size_t>(c)]);
    }
    std::sort(adjacency[i].begin(), adjacency[i].end());
  }
  LowerBound lb = CliqueSearch(std::move(weight), std::move(adjacency)).run();
  for (int& b : lb.witness)
    b = subset[static_cast<size_t>(b)];
  std::sort(lb.witness.begin(), lb.witness.end());
  return lb;
}

// ---- blocks pinned at fixed offsets --------------------------------------------------------
//
// Blocks pinned at an offset that conflict with every other buffer of the pool (the reserved
// bytes of operators the tool cannot read, live throughout) leave the others only the gaps
// between them below the highest block's end T, and the room above T. At any moment the buffers
// live together lie apart from each other, so those too large for every gap all lie above T, and
// of the others no more than the gaps' total fits below: the pool reaches at least T (rounded up
// to the smallest alignment) plus what must be above T. Valid for any set of buffers that must lie apart (a clique, or
// the buffers live at one tick of a lifetime problem).

struct FixedBlocks {
  int64_t top = 0;        // end of the highest block conflicting with every free buffer
  int64_t highest = 0;    // end of the highest pinned block
  int64_t gap_bytes = 0;  // the bytes below `top` that those blocks leave free
  // Every free buffer's alignment is a multiple of `unit`: buffers lying apart then also keep
  // their sizes rounded up to it apart (the next one starts at a multiple of it), and a gap
  // [a, b) holds at most round_up(b) - round_up(a) of those rounded bytes.
  int64_t unit = 1;
  // Each gap's room (the most a buffer in it may hold: from its start rounded up to `unit` to its
  // end) and its bytes in that measure, widest first.
  std::vector<std::pair<int64_t, int64_t>> gaps_by_room;
  std::vector<std::pair<int64_t, int64_t>> gaps;

  int64_t rounded(int64_t bytes) const { return align_up(bytes, unit); }
};

bool fits_a_gap(const FixedBlocks& blocks, const Buffer& b) {
  const int64_t align = std::max<int64_t>(1, b.alignment);
  return std::any_of(blocks.gaps.begin(), blocks.gaps.end(),
                     [&](const auto& g) { return align_up(g.first, align) + b.size_bytes <= g.second; });
}

// The buffers live together, split into those too large for every gap (they lie above the top)
// and the others (no more of them than the gaps hold lie below it), in plain and rounded bytes.
struct LiveTogether {
  int64_t large = 0, small = 0, large_units = 0;
  std::map<int64_t, int> padding;        // the rounding each buffer adds, by count
  std::map<int64_t, int> large_padding;  // the same of the buffers too large for every gap
  std::map<int64_t, int> small_sizes;    // the buffers that fit some gap, by size

  void add(const FixedBlocks& blocks, const Buffer& b, bool large_one, int sign) {
    const int64_t units = blocks.rounded(b.size_bytes);
    if (large_one) {
      large += sign * b.size_bytes;
      large_units += sign * units;
    } else {
      small += sign * b.size_bytes;
      if ((small_sizes[b.size_bytes] += sign) == 0) small_sizes.erase(b.size_bytes);
    }
    const int64_t pad = units - b.size_bytes;
    if ((padding[pad] += sign) == 0) padding.erase(pad);
    if (large_one && (large_padding[pad] += sign) == 0) large_padding.erase(pad);
  }

  // The rounded bytes of the small buffers that no gap can take. A buffer goes only into a gap
  // with room for it, so the largest are placed first, each into the gaps wide enough for it (a
  // gap wide enough for one is wide enough for every smaller one): as much as fits, split at will.
  int64_t small_units_left(const FixedBlocks& blocks) const {
    int64_t left = 0;
    int64_t room = 0;
    size_t next_gap = 0;
    for (const auto& [size, count] : std::views::reverse(small_sizes)) {
      while (next_gap < blocks.gaps_by_room.size() && blocks.gaps_by_room[next_gap].first >= size)
        room += blocks.gaps_by_room[next_gap++].second;
      const int64_t units = count * blocks.rounded(size);
      const int64_t placed = std::min(units, room);
      room -= placed;
      left += units - placed;
    }
    return left;
  }

  // What lies above the top at least: in plain bytes, and in rounded bytes less the highest
  // buffer's rounding (its own end is the pool's, not its rounded end). When the gaps can hold
  // every small buffer, a plan that lifts one above anyway ends past the large ones' rounded
  // bytes: only the large buffers' rounding can be left out.
  int64_t above(const FixedBlocks& blocks) const {
    const int64_t plain = large + std::max<int64_t>(0, small - blocks.gap_bytes);
    const int64_t left = small_units_left(blocks);
    const auto& pads = left > 0 ? padding : large_padding;
    const int64_t widest_pad = pads.empty() ? 0 : pads.rbegin()->first;
    return std::max(plain, large_units + left - widest_pad);
  }
};

// What the buffers `together` (all apart from each other) put above the blocks' top at least.
int64_t above_top(const Problem& problem, const FixedBlocks& blocks, const std::vector<int>& together) {
  LiveTogether live;
  for (int b : together) {
    const Buffer& buf = problem.buffers[static_cast<size_t>(b)];
    live.add(blocks, buf, !fits_a_gap(blocks, buf), +1);
  }
  return live.above(blocks);
}

// The largest power of two dividing every free buffer's alignment (1 when one has none).
int64_t common_alignment(const Problem& problem, const std::vector<int>& free) {
  int64_t unit = 0;
  for (int b : free) {
    const int64_t a = std::max<int64_t>(1, problem.buffers[static_cast<size_t>(b)].alignment);
    const int64_t power = a & -a;
    unit = unit == 0 ? power : std::min(unit, power);
  }
  return std::max<int64_t>(1, unit);
}

// The blocks pinned in the pool among `fixed`, seen from the `free` buffers: the highest one's
// end, and the walls that conflict with every free buffer, with the gaps they leave. Returns
// whether there is any such wall.
bool find_walls(const Problem& problem, const std::vector<int>& fixed, const std::vector<int>& free,
                const ConflictLists& conflicts, FixedBlocks& blocks) {
  std::vector<std::pair<int64_t, int64_t>> walls;
  for (int f : fixed) {
    const Buffer& buf = problem.buffers[static_cast<size_t>(f)];
    const int64_t begin = *buf.pin->offset;
    blocks.highest = std::max(blocks.highest, begin + buf.size_bytes);
    // Conflict lists exist only when conflicts are not computed from lifetimes.
    static const std::vector<int> kNoList;
    const std::vector<int>& mine = problem.interval_conflicts() ? kNoList : conflicts[static_cast<size_t>(f)];
    const bool universal = std::all_of(free.begin(), free.end(), [&](int b) {
      const auto& other = problem.buffers[static_cast<size_t>(b)].lifetime;
      return problem.interval_conflicts() ? buf.lifetime && other && buf.lifetime->overlaps(*other)
                                          : std::binary_search(mine.begin(), mine.end(), b);
    });
    if (universal && buf.size_bytes > 0) walls.emplace_back(begin, begin + buf.size_bytes);
  }
  if (walls.empty() || free.empty()) return false;
  std::sort(walls.begin(), walls.end());
  int64_t at = 0;
  for (const auto& w : walls) {
    if (w.first > at) blocks.gaps.emplace_back(at, w.first);
    at = std::max(at, w.second);
  }
  blocks.top = at;
  blocks.unit = common_alignment(problem, free);
  for (const auto& g : blocks.gaps) {
    blocks.gap_bytes += g.second - g.first;
    blocks.gaps_by_room.emplace_back(g.second - blocks.rounded(g.first),
                                     blocks.rounded(g.second) - blocks.rounded(g.first));
  }
  std::sort(blocks.gaps_by_room.rbegin(), blocks.gaps_by_room.rend());
  return true;
}

// Lifetime problems: a sweep over the ticks (half-open lifetimes: what ends at a tick frees its
// bytes before what starts there), the most the buffers live at one start put above the top.
int64_t above_top_by_sweep(const Problem& problem, const FixedBlocks& blocks, const std::vector<int>& free) {
  struct Event {
    int64_t tick;
    int delta;  // -1 ends, +1 starts
    int buffer;
    bool large;
  };
  std::vector<Event> events;
  for (int b : free) {
    const Buffer& buf = problem.buffers[static_cast<size_t>(b)];
    const bool large = !fits_a_gap(blocks, buf);
    events.push_back({buf.lifetime->begin, +1, b, large});
    events.push_back({buf.lifetime->end, -1, b, large});
  }
  std::sort(events.begin(), events.end(),
            [](const Event& a, const Event& b) { return a.tick != b.tick ? a.tick < b.tick : a.delta < b.delta; });
  LiveTogether live;
  int64_t above = 0;
  for (const Event& e : events) {
    live.add(blocks, problem.buffers[static_cast<size_t>(e.buffer)], e.large, e.delta);
    if (e.delta > 0) above = std::max(above, live.above(blocks));
  }
  return above;
}

// Conflict lists: the heaviest clique of all free buffers, and of those that fit no gap.
int64_t above_top_by_cliques(const Problem& problem, const FixedBlocks& blocks, const std::vector<int>& free) {
  std::vector<int> large;
  for (int b : free) {
    if (!fits_a_gap(blocks, problem.buffers[static_cast<size_t>(b)])) large.push_back(b);
  }
  int64_t above = 0;
  const std::vector<int>* sets[] = {&free, &large};
  for (const std::vector<int>* set : sets) {
    if (set->empty()) continue;
    above = std::max(above, above_top(problem, blocks, heaviest_clique(problem, *set).witness));
  }
  return above;
}

int64_t fixed_blocks_bound(const Problem& problem, const std::vector<int>& subset) {
  std::vector<int> fixed;
  std::vector<int> free;
  for (int b : subset) {
    const Buffer& buf = problem.buffers[static_cast<size_t>(b)];
    if (buf.pin && buf.pin->offset) {
      fixed.push_back(b);
    } else if (buf.size_bytes > 0) {
      free.push_back(b);
    }
  }
  if (fixed.empty()) return 0;
  const ConflictLists conflicts = problem.interval_conflicts() ? ConflictLists{} : symmetric_conflicts(problem);
  // A buffer in conflict with nothing may lie over anything: it pushes nothing up.
  std::erase_if(free, [&](int b) {
    const Buffer& buf = problem.buffers[static_cast<size_t>(b)];
    return problem.interval_conflicts() ? !buf.lifetime || buf.lifetime->empty()
                                        : conflicts[static_cast<size_t>(b)].empty();
  });
  FixedBlocks blocks;
  if (!find_walls(problem, fixed, free, conflicts, blocks)) return blocks.highest;
  const int64_t above = problem.interval_conflicts() ? above_top_by_sweep(problem, blocks, free)
                                                     : above_top_by_cliques(problem, blocks, free);
  if (above == 0) return std::max(blocks.highest, blocks.top);
  // The lowest buffer above the top starts at the top rounded up to the common alignment.
  return std::max(blocks.highest, blocks.rounded(blocks.top) + above);
}

}  // namespace

namespace {

// The buffers share `pools` address spaces: their clique's alignment padding counts, except what
// the pools' tops may hide.
LowerBound group_lower_bound(const Problem& problem, const std::vector<int>& subset, int pools) {
  if (subset.empty()) return {0, true, {}};
  LowerBound lb = problem.interval_conflicts() ? max_live(problem, subset) : heaviest_clique(problem, subset);
  lb.bytes = std::max(lb.bytes, clique_lower_bound(problem, lb.witness, pools));
  return lb;
}

}  // namespace

std::vector<std::vector<int>> confined_buffers(const Problem& problem) {
  std::vector<std::vector<int>> confined(problem.pools.size());
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    const std::vector<int> candidates = problem.effective_candidates(static_cast<int>(b));
    const bool one = !candidates.empty() &&
                     std::all_of(candidates.begin(), candidates.end(), [&](int c) { return c == candidates[0]; });
    if (one && candidates[0] >= 0 && static_cast<size_t>(candidates[0]) < confined.size())
      confined[static_cast<size_t>(candidates[0])].push_back(static_cast<int>(b));
  }
  return confined;
}

LowerBound pool_lower_bound(const Problem& problem, const std::vector<int>& subset) {
  LowerBound lb = group_lower_bound(problem, subset, 1);
  const int64_t fixed = fixed_blocks_bound(problem, subset);
  if (fixed > lb.bytes) {
    lb.bytes = fixed;
    lb.exact = false;
  }
  return lb;
}

std::vector<int64_t> pool_lower_bounds(const Problem& problem) {
  std::vector<int64_t> bounds;
  for (const std::vector<int>& buffers : confined_buffers(problem))
    bounds.push_back(pool_lower_bound(problem, buffers).bytes);
  return bounds;
}

std::vector<char> closed_pools(const Problem& problem) {
  std::vector<char> closed(problem.pools.size(), 1);
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    const std::vector<int> candidates = problem.effective_candidates(static_cast<int>(b));
    for (int c : candidates) {
      if (c != candidates.front() && c >= 0 && static_cast<size_t>(c) < closed.size()) {
        closed[static_cast<size_t>(c)] = 0;
        closed[static_cast<size_t>(candidates.front())] = 0;
      }
    }
  }
  return closed;
}

LowerBound total_lower_bound(const Problem& problem) {
  return total_lower_bound(problem, {});
}

LowerBound total_lower_bound(const Problem& problem, const std::vector<int64_t>& pool_bounds) {
  const PoolSharing sharing = pool_sharing_groups(problem);
  const bool given = pool_bounds.size() == problem.pools.size();
  const std::vector<std::vector<int>> confined = given ? std::vector<std::vector<int>>{} : confined_buffers(problem);
  std::vector<int64_t> pools_sum(problem.pools.size(), 0);
  for (size_t p = 0; p < problem.pools.size(); ++p) {
    const size_t g = static_cast<size_t>(sharing.group_of_pool[p]);
    // A pool alone in its group holds exactly its confined buffers: the group's bound below is its.
    if (given)
      pools_sum[g] += pool_bounds[p];
    else if (sharing.pool_count[g] > 1)
      pools_sum[g] += pool_lower_bound(problem, confined[p]).bytes;
  }
  LowerBound total{0, true, {}};
  for (size_t g = 0; g < sharing.buffers.size(); ++g) {
    // Given bounds are at least the confined buffers' bound, which is a lone pool's group bound.
    if (sharing.buffers[g].empty() || (given && sharing.pool_count[g] == 1)) {
      total.bytes += pools_sum[g];
      continue;
    }
    LowerBound lb = group_lower_bound(problem, sharing.buffers[g], sharing.pool_count[g]);
    if (sharing.pool_count[g] == 1) lb.bytes = std::max(lb.bytes, fixed_blocks_bound(problem, sharing.buffers[g]));
    total.bytes += std::max(lb.bytes, pools_sum[g]);
    total.exact = total.exact && lb.exact;
    total.witness.insert(total.witness.end(), lb.witness.begin(), lb.witness.end());
  }
  return total;
}

}  // namespace usmpx
