#include "planners/toolchains/tvm_hill_climb.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <tuple>
#include <utility>

#include "base/alignment.h"
#include "model/conflict_graph.h"
#include "planners/toolchains/glibc_rand.h"
#include "planners/toolchains/tvm_common.h"

namespace usmpx {
namespace {

constexpr int kMaxAttempts = 500;
constexpr const char* kIncreaseHints = "TVM USMP Error: Please increase the size_hints for memory pools.";

// One greedy pass: allocation per buffer plus whether it has been visited (TVM's map keys).
struct Pass {
  std::vector<Allocation> alloc;
  std::vector<bool> placed;
};

class HillClimb {
 public:
  HillClimb(const Problem& problem, const PlannerOptions& options)
      : problem_(problem), options_(options), conflicts_(conflict_lists(problem)) {}

  Plan run();

 private:
  const Buffer& buffer(int b) const { return problem_.buffers[static_cast<size_t>(b)]; }
  bool pinned(int b) const { return buffer(b).pin.has_value(); }
  int rnd() { return glibc_rand_r(&seed_); }
  Pass greedy(bool* could_not_fit) const;
  // Highest end per pool over placed buffers; -1 for pools without placements.
  std::vector<int64_t> highest(const Pass& pass) const;
  void swap_positions(int i1, int i2);
  void add_error(Plan& plan, int b, std::string message) const;
  void finish_overflowing(Plan& plan, const std::vector<bool>& placed) const;
  // TVM's starting order (size, then conflicts; pinned buffers apart); false, with the error in
  // `plan`, when a buffer has no pool to go to.
  bool start(Plan& plan);
  // The unpinned buffers of `pass` that define a pool's peak (`sizes`), in placement order.
  std::vector<int> peak_buffers(const Pass& pass, const std::vector<int64_t>& sizes) const;
  // TVM's move: a random peak buffer, a random earlier conflict of it (swap1) and a random
  // earlier conflict of its or of its conflicts (swap2); their positions, or nullopt when there
  // is nothing to swap. Draws the random numbers in TVM's order.
  std::optional<std::pair<int, int>> choose_swap(const std::vector<int>& peaks);
  void note_stopped_early(Plan& plan, int attempts, uint64_t total_size, uint64_t desired) const;

  const Problem& problem_;
  const PlannerOptions& options_;
  ConflictLists conflicts_;
  std::vector<int> pinned_;  // pinned buffers, those at an offset first, placed before order_
  std::vector<int> order_;   // unpinned buffers in placement order
  std::vector<int> pos_;     // position of each buffer in order_, -1 for pinned buffers
  uint32_t seed_ = 0;
};

Pass HillClimb::greedy(bool* could_not_fit) const {
  const size_t n = problem_.buffers.size();
  Pass pass{std::vector<Allocation>(n), std::vector<bool>(n, false)};
  // Pinned buffers come first, at their pinned place (or the bottom of their pool).
  std::vector<int> sequence = pinned_;
  sequence.insert(sequence.end(), order_.begin(), order_.end());

  tvm_compat::PoolCandidates pools(problem_.pools.size());
  std::vector<int> placed_conflicts;
  for (int b : sequence) {
    const Buffer& buf = buffer(b);
    if (buf.pin && buf.pin->offset) {
      pass.alloc[static_cast<size_t>(b)] = {buf.pin->pool, *buf.pin->offset};
      pass.placed[static_cast<size_t>(b)] = true;
      continue;
    }
    const std::vector<int> candidates = problem_.effective_candidates(b);
    pools.start(problem_, candidates, buf.size_bytes);
    placed_conflicts.clear();
    for (int c : conflicts_[static_cast<size_t>(b)]) {
      if (pass.placed[static_cast<size_t>(c)]) placed_conflicts.push_back(c);
    }
    // Same comparator and input order as TVM, so libstdc++'s unstable sort ties break the same way.
    std::sort(placed_conflicts.begin(), placed_conflicts.end(), [&](int x, int y) {
      return pass.alloc[static_cast<size_t>(x)].offset < pass.alloc[static_cast<size_t>(y)].offset;
    });
    for (int c : placed_conflicts) {
      const Allocation& a = pass.alloc[static_cast<size_t>(c)];
      if (!a.placed() || !pools.present[static_cast<size_t>(a.pool)]) continue;
      const auto p = static_cast<size_t>(a.pool);
      const int64_t next = align_up(a.offset + buffer(c).size_bytes, buffer(c).alignment);
      if (problem_.pools[p].fits(next, buf.size_bytes)) {
        if (next > pools.offset[p] && pools.offset[p] + buf.size_bytes > a.offset) pools.offset[p] = next;
      } else {
        pools.present[p] = 0;
      }
    }
    const int selected = pools.select(candidates);
    if (selected < 0) *could_not_fit = true;
    pass.alloc[static_cast<size_t>(b)] =
        selected < 0 ? Allocation{} : Allocation{selected, pools.offset[static_cast<size_t>(selected)]};
    pass.placed[static_cast<size_t>(b)] = true;
  }
  return pass;
}

std::vector<int64_t> HillClimb::highest(const Pass& pass) const {
  std::vector<int64_t> sizes(problem_.pools.size(), -1);
  for (size_t b = 0; b < pass.alloc.size(); ++b) {
    const Allocation& a = pass.alloc[b];
    if (!pass.placed[b] || !a.placed()) continue;
    int64_t& size = sizes[static_cast<size_t>(a.pool)];
    size = std::max(size, a.offset + problem_.buffers[b].size_bytes);
  }
  return sizes;
}

void HillClimb::swap_positions(int i1, int i2) {
  if (i1 == i2) return;
  std::swap(order_[static_cast<size_t>(i1)], order_[static_cast<size_t>(i2)]);
  pos_[static_cast<size_t>(order_[static_cast<size_t>(i1)])] = i1;
  pos_[static_cast<size_t>(order_[static_cast<size_t>(i2)])] = i2;
}

void HillClimb::add_error(Plan& plan, int b, std::string message) const {
  Diagnostic d;
  d.code = "planner-error";
  d.message = std::move(message);
  if (b >= 0) d.buffers = {b};
  plan.diagnostics.push_back(std::move(d));
}

// Places every buffer the last accepted pass could not fit above its conflicts, so the user sees
// the overflow, after reporting the first of them with TVM's error text.
void HillClimb::finish_overflowing(Plan& plan, const std::vector<bool>& placed) const {
  bool reported = false;
  std::vector<int> sequence = pinned_;
  sequence.insert(sequence.end(), order_.begin(), order_.end());
  for (int b : sequence) {
    if (plan.allocations[static_cast<size_t>(b)].placed()) continue;
    if (!reported) {
      add_error(plan, b, tvm_compat::placement_error_text(problem_, b, conflicts_[static_cast<size_t>(b)].size()));
      reported = true;
    }
    tvm_compat::place_overflowing(problem_, conflicts_, placed, b, plan);
  }
}

bool HillClimb::start(Plan& plan) {
  const size_t n = problem_.buffers.size();
  for (size_t b = 0; b < n; ++b) {
    if (problem_.effective_candidates(static_cast<int>(b)).empty()) {
      add_error(plan, static_cast<int>(b),
                "Cannot process buffer \"" + buffer(static_cast<int>(b)).name + "\" with no pool candidates");
      return false;
    }
  }
  std::vector<int> sorted = tvm_compat::order_by_size(problem_, conflicts_);
  tvm_compat::pinned_first(problem_, sorted);
  for (int b : sorted)
    (pinned(b) ? pinned_ : order_).push_back(b);
  pos_.assign(n, -1);
  for (size_t i = 0; i < order_.size(); ++i)
    pos_[static_cast<size_t>(order_[i])] = static_cast<int>(i);
  return true;
}

std::vector<int> HillClimb::peak_buffers(const Pass& pass, const std::vector<int64_t>& sizes) const {
  std::vector<int> peaks;
  for (size_t b = 0; b < pass.alloc.size(); ++b) {
    const Allocation& a = pass.alloc[b];
    if (!pass.placed[b] || !a.placed() || pinned(static_cast<int>(b))) continue;
    if (sizes[static_cast<size_t>(a.pool)] == a.offset + problem_.buffers[b].size_bytes) {
      peaks.push_back(static_cast<int>(b));
    }
  }
  std::sort(peaks.begin(), peaks.end(),
            [&](int x, int y) { return pos_[static_cast<size_t>(x)] < pos_[static_cast<size_t>(y)]; });
  return peaks;
}

std::optional<std::pair<int, int>> HillClimb::choose_swap(const std::vector<int>& peaks) {
  // Without pins some buffer always defines a peak here; with pins, when only pinned buffers
  // do, there is nothing to swap.
  if (peaks.empty()) return std::nullopt;
  auto by_position = [&](int x, int y) { return pos_[static_cast<size_t>(x)] < pos_[static_cast<size_t>(y)]; };
  const int node = peaks[static_cast<size_t>(rnd()) % peaks.size()];

  std::vector<int> first_level;
  std::vector<int> second_level;
  const int node_pos = pos_[static_cast<size_t>(node)];
  for (int c1 : conflicts_[static_cast<size_t>(node)]) {
    if (pinned(c1)) continue;
    const int c1_pos = pos_[static_cast<size_t>(c1)];
    if (node_pos > c1_pos) first_level.push_back(c1);
    for (int c2 : conflicts_[static_cast<size_t>(c1)]) {
      if (!pinned(c2) && c1_pos > pos_[static_cast<size_t>(c2)]) second_level.push_back(c2);
    }
  }
  std::sort(first_level.begin(), first_level.end(), by_position);
  std::sort(second_level.begin(), second_level.end(), by_position);
  if (first_level.empty()) return std::nullopt;

  const int swap1 = first_level[static_cast<size_t>(rnd()) % first_level.size()];
  int swap2 = swap1;
  // TVM loops forever when every neighbour is swap1 itself; stop instead.
  const auto differs = [&](int b) { return b != swap1; };
  const bool can_differ = std::any_of(first_level.begin(), first_level.end(), differs) ||
                          std::any_of(second_level.begin(), second_level.end(), differs);
  const bool loop_ends_by_size = second_level.size() < 2 && first_level.size() < 2;
  if (!can_differ && !loop_ends_by_size) return std::nullopt;
  while (swap2 == swap1) {
    swap2 = (!second_level.empty() && rnd() % 100 > 25) ? second_level[static_cast<size_t>(rnd()) % second_level.size()]
                                                        : first_level[static_cast<size_t>(rnd()) % first_level.size()];
    if (loop_ends_by_size) break;
  }
  if (swap1 == swap2) return std::nullopt;
  return std::make_pair(pos_[static_cast<size_t>(swap1)], pos_[static_cast<size_t>(swap2)]);
}

void HillClimb::note_stopped_early(Plan& plan, int attempts, uint64_t total_size, uint64_t desired) const {
  if (attempts >= kMaxAttempts || !(options_.cancelled() || total_size > desired) || plan.has_errors()) return;
  Diagnostic d;
  d.severity = Severity::kWarning;
  d.code = "stopped-early";
  d.message = "hill_climb stopped after " + std::to_string(attempts) + " of " + std::to_string(kMaxAttempts) +
              " attempts (" +
              (options_.cancelled()                                            ? "cancelled"
               : options_.step_budget >= 0 && attempts >= options_.step_budget ? "step budget"
                                                                               : "time limit") +
              "); TVM would have continued";
  plan.diagnostics.push_back(std::move(d));
}

Plan HillClimb::run() {
  Plan plan;
  plan.allocations.assign(problem_.buffers.size(), Allocation{});
  if (problem_.buffers.empty() || !start(plan)) return plan;
  const auto started = std::chrono::steady_clock::now();
  const auto desired = static_cast<uint64_t>(std::max<int64_t>(problem_.memory_pressure, 0));
  uint64_t total_size = 0;
  int swap_i1 = -1;
  int swap_i2 = -1;
  Pass current;
  Pass result;
  bool have_result = false;
  int attempts = 0;
  for (; attempts < kMaxAttempts; ++attempts) {
    if (options_.cancelled()) break;
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - started;
    if (attempts > 0 && elapsed.count() > options_.time_limit_seconds) break;
    if (attempts > 0 && options_.step_budget >= 0 && attempts >= options_.step_budget) break;
    if (options_.progress && attempts % 25 == 0) {
      options_.progress({attempts / static_cast<double>(kMaxAttempts),
                         total_size ? static_cast<int64_t>(total_size) : -1, "hill climbing"});
    }

    Pass rollback = std::move(current);
    bool could_not_fit = false;
    current = greedy(&could_not_fit);
    std::vector<int64_t> sizes = highest(current);
    if (std::all_of(sizes.begin(), sizes.end(), [](int64_t s) { return s < 0; })) {
      add_error(plan, -1, kIncreaseHints);
      result = std::move(current);
      have_result = true;
      break;
    }
    uint64_t total = 0;
    for (int64_t s : sizes)
      total += s > 0 ? static_cast<uint64_t>(s) : 0;

    // The random draw happens only when the earlier conditions do not decide (short-circuit).
    if (total_size == 0 ||
        (!could_not_fit && (total_size > total || rnd() % 100 < static_cast<int>(50 * (total - total_size) / total /
                                                                                 static_cast<uint64_t>(attempts))))) {
      result = current;
      have_result = true;
      if (!could_not_fit) {
        total_size = total;
        if (total_size <= desired) break;
      }
    } else {
      swap_positions(swap_i2, swap_i1);
      current = std::move(rollback);
      sizes = highest(current);
    }
    if (const auto swap = choose_swap(peak_buffers(current, sizes))) {
      std::tie(swap_i1, swap_i2) = *swap;
      swap_positions(swap_i1, swap_i2);
    }
  }
  note_stopped_early(plan, attempts, total_size, desired);
  if (!have_result) return plan;
  plan.allocations = result.alloc;
  finish_overflowing(plan, result.placed);
  return plan;
}

}  // namespace

Plan plan_tvm_hill_climb(const Problem& problem, const PlannerOptions& options) {
  return HillClimb(problem, options).run();
}

}  // namespace usmpx
