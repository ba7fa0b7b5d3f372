#include "planners/exact/clique_pool.h"

#include <algorithm>
#include <climits>
#include <functional>
#include <numeric>
#include <random>
#include <unordered_set>

#include "base/alignment.h"

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

namespace {

constexpr size_t kMaxBuffersForPaddingAvoidance = 5000;  // quadratic: 25 M steps at most

int64_t alignment_of(const Buffer& buffer) {
  return std::max<int64_t>(1, buffer.alignment);
}

// Padding a buffer leaves above itself before the next buffer of its alignment may start.
int64_t slack_of(const Buffer& buffer) {
  return align_up(buffer.size_bytes, alignment_of(buffer)) - buffer.size_bytes;
}

}  // namespace

int64_t clique_lower_bound(const Problem& problem, const std::vector<int>& buffers, int tops) {
  std::vector<int64_t> alignments;
  int64_t sum = 0;
  for (int b : buffers) {
    const Buffer& buffer = problem.buffers[static_cast<size_t>(b)];
    alignments.push_back(alignment_of(buffer));
    sum += buffer.size_bytes;
  }
  std::sort(alignments.begin(), alignments.end());
  alignments.erase(std::unique(alignments.begin(), alignments.end()), alignments.end());
  int64_t best = sum;
  std::vector<int64_t> slacks;
  for (int64_t a : alignments) {
    if (a <= 1) continue;
    int64_t aligned_sizes = 0;
    int64_t smaller_sizes = 0;
    slacks.clear();
    for (int b : buffers) {
      const Buffer& buffer = problem.buffers[static_cast<size_t>(b)];
      if (alignment_of(buffer) < a) {
        smaller_sizes += buffer.size_bytes;
        continue;
      }
      slacks.push_back(align_up(buffer.size_bytes, a) - buffer.size_bytes);
      aligned_sizes += buffer.size_bytes;
    }
    const size_t on_top = std::min(slacks.size(), static_cast<size_t>(std::max(tops, 1)));
    std::partial_sort(slacks.begin(), slacks.begin() + static_cast<std::ptrdiff_t>(on_top), slacks.end(),
                      std::greater<>());
    const int64_t slack =
        std::accumulate(slacks.begin() + static_cast<std::ptrdiff_t>(on_top), slacks.end(), int64_t{0});
    best = std::max(best, aligned_sizes + std::max(slack, smaller_sizes));
  }
  return best;
}

namespace {

// Largest power of two dividing `value` (0 counts as divisible by everything).
int64_t alignment_reached(int64_t value) {
  return value == 0 ? INT64_MAX : (value & -value);
}

// Stacks `members` (sorted: largest alignment first) filling the padding left below with buffers
// that fit in it. Returns the top.
int64_t stack_filling_holes(const Problem& problem, const std::vector<int>& members,
                            std::vector<Allocation>& allocations) {
  struct Hole {
    int64_t begin;
    int64_t end;
  };
  std::vector<Hole> holes;  // padding left below the top, in address order
  int64_t top = 0;
  for (int b : members) {
    const Buffer& buffer = problem.buffers[static_cast<size_t>(b)];
    const int64_t align = alignment_of(buffer);
    bool placed = false;
    for (size_t h = 0; h < holes.size() && !placed; ++h) {
      const int64_t at = align_up(holes[h].begin, align);
      if (at + buffer.size_bytes > holes[h].end) continue;
      allocations[static_cast<size_t>(b)].offset = at;
      const Hole rest{at + buffer.size_bytes, holes[h].end};
      holes[h].end = at;
      if (rest.end > rest.begin) holes.insert(holes.begin() + static_cast<std::ptrdiff_t>(h) + 1, rest);
      if (holes[h].end <= holes[h].begin) holes.erase(holes.begin() + static_cast<std::ptrdiff_t>(h));
      placed = true;
    }
    if (placed) continue;
    const int64_t at = align_up(top, align);
    if (at > top) holes.push_back({top, at});
    allocations[static_cast<size_t>(b)].offset = at;
    top = at + buffer.size_bytes;
  }
  return top;
}

// Builds the stack bottom up, each step taking a buffer that needs no padding where the top is,
// preferring one after which the top suits the largest alignment still to place (so that buffer
// needs no padding either); when every buffer would pad, the one padding least. Returns the top.
int64_t stack_avoiding_padding(const Problem& problem, std::vector<int> left, std::vector<Allocation>& allocations) {
  int64_t top = 0;
  while (!left.empty()) {
    int64_t largest = 1;
    for (int b : left)
      largest = std::max(largest, alignment_of(problem.buffers[static_cast<size_t>(b)]));
    size_t pick = 0;
    int64_t pick_padding = INT64_MAX;
    int64_t pick_reached = 0;
    for (size_t k = 0; k < left.size(); ++k) {
      const Buffer& buffer = problem.buffers[static_cast<size_t>(left[k])];
      const int64_t at = align_up(top, alignment_of(buffer));
      const int64_t padding = at - top;
      const int64_t reached = std::min(largest, alignment_reached(at + buffer.size_bytes));
      // Less padding first; then the top that suits larger alignments; `left` is sorted, so ties
      // keep the largest alignment and size.
      if (padding < pick_padding || (padding == pick_padding && reached > pick_reached)) {
        pick = k;
        pick_padding = padding;
        pick_reached = reached;
      }
    }
    const int b = left[pick];
    const Buffer& buffer = problem.buffers[static_cast<size_t>(b)];
    allocations[static_cast<size_t>(b)].offset = align_up(top, alignment_of(buffer));
    top = allocations[static_cast<size_t>(b)].offset + buffer.size_bytes;
    left.erase(left.begin() + static_cast<std::ptrdiff_t>(pick));
  }
  return top;
}

}  // namespace

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
    if (alignment_of(x) != alignment_of(y)) return alignment_of(x) > alignment_of(y);
    if (slack_of(x) != slack_of(y)) return slack_of(x) < slack_of(y);
    return x.size_bytes > y.size_bytes;
  });
  // Up to three constructions; the lowest stack wins (the first on a tie).
  std::vector<Allocation> best = allocations;
  int64_t best_top = stack_filling_holes(problem, members, best);
  const int64_t bound = clique_lower_bound(problem, members);
  auto consider = [&](std::vector<Allocation> candidate, int64_t top) {
    if (top >= best_top) return;
    best = std::move(candidate);
    best_top = top;
  };
  if (best_top > bound) {
    // Largest first, whatever the alignment (TVM's greedy_by_size order): with many small buffers
    // the padding below fills up.
    std::vector<int> by_size = members;
    std::stable_sort(by_size.begin(), by_size.end(), [&](int a, int b) {
      return problem.buffers[static_cast<size_t>(a)].size_bytes > problem.buffers[static_cast<size_t>(b)].size_bytes;
    });
    std::vector<Allocation> candidate = allocations;
    const int64_t top = stack_filling_holes(problem, by_size, candidate);
    consider(std::move(candidate), top);
  }
  if (best_top > bound && members.size() <= kMaxBuffersForPaddingAvoidance) {
    std::vector<Allocation> candidate = allocations;
    const int64_t top = stack_avoiding_padding(problem, members, candidate);
    consider(std::move(candidate), top);
  }
  allocations = std::move(best);
  return best_top;
}

namespace {

// The top of `order` stacked tight (each at its alignment above the previous end); offsets too
// when `allocations` is given.
int64_t stack_top(const Problem& problem, const std::vector<int>& order, std::vector<Allocation>* allocations) {
  int64_t top = 0;
  for (int b : order) {
    const Buffer& buffer = problem.buffers[static_cast<size_t>(b)];
    const int64_t at = align_up(top, alignment_of(buffer));
    if (allocations) (*allocations)[static_cast<size_t>(b)].offset = at;
    top = at + buffer.size_bytes;
  }
  return top;
}

}  // namespace

int64_t improve_clique_stack(const Problem& problem, std::vector<Allocation>& allocations, int pool, int64_t moves) {
  std::vector<int> order;
  int64_t size = 0;
  for (size_t b = 0; b < problem.buffers.size() && b < allocations.size(); ++b) {
    if (allocations[b].pool != pool) continue;
    order.push_back(static_cast<int>(b));
    size = std::max(size, allocations[b].offset + problem.buffers[b].size_bytes);
  }
  if (order.size() < 2) return size;
  // Address order stacked tight is never higher than the placement itself.
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return allocations[static_cast<size_t>(a)].offset < allocations[static_cast<size_t>(b)].offset;
  });
  int64_t best = stack_top(problem, order, nullptr);
  std::mt19937_64 rng(1);
  std::uniform_int_distribution<size_t> pick(0, order.size() - 1);
  const int64_t bound = clique_lower_bound(problem, order);
  for (int64_t m = 0; m < moves && best > bound; ++m) {
    const size_t from = pick(rng);
    const size_t to = pick(rng);
    if (from == to) continue;
    auto move = [&](size_t f, size_t t) {
      if (f < t) {
        std::rotate(order.begin() + static_cast<std::ptrdiff_t>(f), order.begin() + static_cast<std::ptrdiff_t>(f) + 1,
                    order.begin() + static_cast<std::ptrdiff_t>(t) + 1);
      } else {
        std::rotate(order.begin() + static_cast<std::ptrdiff_t>(t), order.begin() + static_cast<std::ptrdiff_t>(f),
                    order.begin() + static_cast<std::ptrdiff_t>(f) + 1);
      }
    };
    move(from, to);
    const int64_t top = stack_top(problem, order, nullptr);
    if (top <= best) {
      best = top;
    } else {
      move(to, from);
    }
  }
  if (best >= size) return size;
  stack_top(problem, order, &allocations);
  return best;
}

}  // namespace usmpx
