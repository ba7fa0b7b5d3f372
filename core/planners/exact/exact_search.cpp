#include "planners/exact/exact_search.h"

#include <algorithm>
#include <numeric>

#include "planners/common/occupancy.h"

namespace usmpx::exact {
namespace {

enum UndoKind { kOffset, kBase, kRemaining, kCrossing, kRank };

}  // namespace

Search::Search(const Instance& instance) : in_(instance) {}

int64_t Search::min_offset(int item, int64_t base) const {
  const int64_t align = in_.alignment[static_cast<size_t>(item)];
  const int64_t size = in_.size[static_cast<size_t>(item)];
  int64_t y = align_up(base, align);
  for (const FixedRange& f : in_.item_fixed[static_cast<size_t>(item)]) {
    if (f.end <= y) continue;
    if (f.start >= y + size) break;
    y = align_up(f.end, align);
  }
  return y;
}

// Bytes a section offers above `floor` within the capacity, minus pinned ranges there.
int64_t Search::room(int section, int64_t floor) const {
  int64_t free = capacity_ - floor;
  for (const FixedRange& f : in_.section_fixed[static_cast<size_t>(section)]) {
    const int64_t lo = std::max(f.start, floor);
    const int64_t hi = std::min(f.end, capacity_);
    if (hi > lo) free -= hi - lo;
  }
  return free;
}

bool Search::in_range(int item, int lo, int hi) const {
  if (!in_.intervals) return true;
  return in_.lo[static_cast<size_t>(item)] >= lo && in_.hi[static_cast<size_t>(item)] <= hi;
}

Outcome Search::run(int64_t capacity, const char* keys, int64_t node_limit, Deadline& deadline) {
  const auto n = static_cast<size_t>(in_.items);
  const auto sections = static_cast<size_t>(in_.sections);
  capacity_ = capacity;
  keys_ = keys;
  rank_ = preorder(in_, keys);
  part_total_.assign(n, 0);
  node_limit_ = node_limit;
  deadline_ = &deadline;
  nodes_ = 0;
  offset_.assign(n, -1);
  base_.assign(n, 0);
  minoff_.assign(n, 0);
  remaining_.assign(sections, 0);
  crossing_.assign(sections + 1, 0);
  next_free_.assign(sections + 1, 0);
  trail_.clear();
  // Candidate lists per depth (a split uses two levels), sized once so references stay valid.
  const size_t levels = 2 * n + 4;
  level_candidates_.assign(levels, {});
  level_cuts_.assign(levels, {});
  level_moved_.assign(levels, {});
  level_dominance_.assign(levels, 0);
  level_floor_.resize(levels);
  level_max_remaining_.assign(levels, 0);
  level_thresholds_.resize(levels);
  level_thresholds_ready_.assign(levels, 0);
  section_mark_.assign(sections, 0);
  mark_epoch_ = 0;
  any_fixed_ =
      std::any_of(in_.section_fixed.begin(), in_.section_fixed.end(), [](const auto& f) { return !f.empty(); });
  changed_.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    minoff_[i] = min_offset(static_cast<int>(i), 0);
    for (int s : in_.item_sections[i])
      remaining_[static_cast<size_t>(s)] += in_.size[i];
    if (in_.intervals) {
      for (int b = in_.lo[i] + 1; b < in_.hi[i]; ++b)
        ++crossing_[static_cast<size_t>(b)];
    }
  }
  Outcome result = Outcome::kFound;
  // Independent parts from the start: boundaries no item crosses (interval mode).
  std::vector<int> bounds;
  if (in_.intervals) {
    for (int b = 1; b < in_.sections; ++b) {
      if (crossing_[static_cast<size_t>(b)] == 0) bounds.push_back(b);
    }
  }
  bounds.push_back(in_.sections);
  int start = 0;
  for (int b : bounds) {
    if (!gather(start, b, 0, 0, nullptr, 0)) return Outcome::kInfeasible;
    result = solve(start, b, 0, -1, 0);
    if (result != Outcome::kFound) return result;
    start = b;
  }
  found_ = offset_;
  return result;
}

bool Search::infeasible_sections(const std::vector<int>& candidates, int lo, int hi, int64_t last_offset,
                                 size_t depth) {
  // Floor of each section: the lowest minimum offset of an unplaced item in it (candidates are
  // sorted by minimum offset, so the first item reaching a section sets its floor). Sections
  // without unplaced items keep kOpenEnd.
  std::vector<int64_t>& floor = level_floor_[depth];
  if (floor.size() != static_cast<size_t>(in_.sections)) floor.assign(static_cast<size_t>(in_.sections), kOpenEnd);
  std::fill(floor.begin() + lo, floor.begin() + hi, kOpenEnd);
  if (in_.intervals) {
    for (int s = lo; s <= hi; ++s)
      next_free_[static_cast<size_t>(s)] = s;
    auto find = [&](int s) {
      int root = s;
      while (next_free_[static_cast<size_t>(root)] != root)
        root = next_free_[static_cast<size_t>(root)];
      while (next_free_[static_cast<size_t>(s)] != root) {
        const int next = next_free_[static_cast<size_t>(s)];
        next_free_[static_cast<size_t>(s)] = root;
        s = next;
      }
      return root;
    };
    for (int item : candidates) {
      const int end = in_.hi[static_cast<size_t>(item)];
      for (int s = find(in_.lo[static_cast<size_t>(item)]); s < end; s = find(s)) {
        floor[static_cast<size_t>(s)] = minoff_[static_cast<size_t>(item)];
        next_free_[static_cast<size_t>(s)] = s + 1;
      }
    }
  } else {
    for (int item : candidates) {
      for (int s : in_.item_sections[static_cast<size_t>(item)]) {
        int64_t& f = floor[static_cast<size_t>(s)];
        f = std::min(f, minoff_[static_cast<size_t>(item)]);
      }
    }
  }
  int64_t heaviest = 0;
  for (int s = lo; s < hi; ++s) {
    const auto us = static_cast<size_t>(s);
    if (remaining_[us] <= 0 || floor[us] == kOpenEnd) continue;
    heaviest = std::max(heaviest, remaining_[us]);
    const int64_t f = std::max(floor[us], last_offset);
    const int64_t free = in_.section_fixed[us].empty() ? capacity_ - f : room(s, f);
    if (remaining_[us] > free) return true;
  }
  level_max_remaining_[depth] = heaviest;
  level_thresholds_ready_[depth] = 0;
  return false;
}

// A cheap necessary condition for placing `item` at `offset`, checked before placing it, from the
// floors of the current node: every section must still hold its remaining bytes above
// max(its floor, the offset), and the item's own sections above its top.
bool Search::quick_reject(int lo, int hi, int item, int64_t offset, size_t depth) {
  const std::vector<int64_t>& floor = level_floor_[depth];
  const auto ui = static_cast<size_t>(item);
  const int64_t size = in_.size[ui];
  const int64_t top = offset + size;
  auto overfull = [&](int s, int64_t remaining, int64_t f) {
    const auto us = static_cast<size_t>(s);
    const int64_t free = in_.section_fixed[us].empty() ? capacity_ - f : room(s, f);
    return remaining > free;
  };
  for (int s : in_.item_sections[ui]) {
    const int64_t remaining = remaining_[static_cast<size_t>(s)] - size;
    if (remaining > 0 && overfull(s, remaining, std::max(floor[static_cast<size_t>(s)], top))) return true;
  }
  // Other sections only feel the rising floor: section s overflows once the offset passes
  // capacity - remaining(s). Most nodes pass on the heaviest section alone; otherwise the sections
  // are taken in that threshold's order, once per node.
  if (!any_fixed_ && offset + level_max_remaining_[depth] <= capacity_) return false;
  if (++mark_epoch_ == 0) {
    std::fill(section_mark_.begin(), section_mark_.end(), 0);
    mark_epoch_ = 1;
  }
  for (int s : in_.item_sections[ui])
    section_mark_[static_cast<size_t>(s)] = mark_epoch_;
  if (any_fixed_) {
    for (int s = lo; s < hi; ++s) {
      const auto us = static_cast<size_t>(s);
      if (section_mark_[us] == mark_epoch_) continue;
      if (remaining_[us] > 0 && overfull(s, remaining_[us], std::max(floor[us], offset))) return true;
    }
    return false;
  }
  std::vector<std::pair<int64_t, int>>& thresholds = level_thresholds_[depth];
  if (!level_thresholds_ready_[depth]) {
    thresholds.clear();
    for (int s = lo; s < hi; ++s) {
      if (remaining_[static_cast<size_t>(s)] > 0)
        thresholds.emplace_back(capacity_ - remaining_[static_cast<size_t>(s)], s);
    }
    std::sort(thresholds.begin(), thresholds.end());
    level_thresholds_ready_[depth] = 1;
  }
  for (const auto& [threshold, s] : thresholds) {
    if (threshold >= offset) break;
    if (section_mark_[static_cast<size_t>(s)] != mark_epoch_) return true;
  }
  return false;
}

bool Search::has_unplaced_neighbour(int item) const {
  for (int u : in_.neighbours[static_cast<size_t>(item)]) {
    if (offset_[static_cast<size_t>(u)] < 0) return true;
  }
  return false;
}

bool Search::place(int item, int lo, int hi, std::vector<int>& cuts) {
  const auto i = static_cast<size_t>(item);
  const int64_t offset = minoff_[i];
  trail_.push_back({kOffset, item, offset_[i], 0});
  offset_[i] = offset;
  const int64_t top = offset + in_.size[i];
  bool hat = false;
  ++event_;  // stamps the neighbours whose minimum offset this placement raises
  for (int u : in_.neighbours[i]) {
    const auto uu = static_cast<size_t>(u);
    if (offset_[uu] >= 0) continue;
    hat = true;
    if (top > base_[uu]) {
      trail_.push_back({kBase, u, base_[uu], minoff_[uu]});
      base_[uu] = top;
      const int64_t next = min_offset(u, top);
      if (next != minoff_[uu]) changed_[uu] = event_;
      minoff_[uu] = next;
    }
  }
  for (int s : in_.item_sections[i]) {
    trail_.push_back({kRemaining, s, remaining_[static_cast<size_t>(s)], 0});
    remaining_[static_cast<size_t>(s)] -= in_.size[i];
  }
  if (in_.intervals) {
    for (int b = in_.lo[i] + 1; b < in_.hi[i]; ++b) {
      trail_.push_back({kCrossing, b, crossing_[static_cast<size_t>(b)], 0});
      if (--crossing_[static_cast<size_t>(b)] == 0 && b > lo && b < hi) cuts.push_back(b);
    }
  }
  return hat;
}

void Search::undo_to(size_t mark) {
  while (trail_.size() > mark) {
    const Undo& u = trail_.back();
    const auto k = static_cast<size_t>(u.index);
    switch (u.kind) {
      case kOffset: offset_[k] = u.a; break;
      case kBase:
        base_[k] = u.a;
        minoff_[k] = u.b;
        break;
      case kRemaining: remaining_[k] = u.a; break;
      case kRank: rank_[k] = static_cast<int>(u.a); break;
      default: crossing_[k] = static_cast<int>(u.a); break;
    }
    trail_.pop_back();
  }
}

// A new static order for the unplaced items `items` of an independent part, with the heaviest
// section totals as they are now (MiniMalloc re-sorts each sub-problem it splits off).
void Search::rerank(std::vector<int>& items) {
  for (int i : items) {
    const auto ui = static_cast<size_t>(i);
    int64_t total = 0;
    for (int s : in_.item_sections[ui])
      total = std::max(total, remaining_[static_cast<size_t>(s)]);
    part_total_[ui] = total;
  }
  sort_by_keys(in_, keys_, part_total_, items);
  for (size_t r = 0; r < items.size(); ++r) {
    const auto ui = static_cast<size_t>(items[r]);
    trail_.push_back({kRank, items[r], rank_[ui], 0});
    rank_[ui] = static_cast<int>(r);
  }
}

bool Search::before(int a, int b) const {
  const int64_t ma = minoff_[static_cast<size_t>(a)];
  const int64_t mb = minoff_[static_cast<size_t>(b)];
  return ma != mb ? ma < mb : rank_[static_cast<size_t>(a)] < rank_[static_cast<size_t>(b)];
}

bool Search::gather(int lo, int hi, int64_t last_offset, size_t depth, const std::vector<int>* parent, uint32_t event) {
  std::vector<int>& candidates = level_candidates_[depth];
  candidates.clear();
  auto by_order = [this](int a, int b) { return before(a, b); };
  int64_t dominance = kOpenEnd;
  auto admit = [&](int i) {
    const auto ui = static_cast<size_t>(i);
    const int64_t end = minoff_[ui] + in_.size[ui];
    dominance = std::min(dominance, end);
    return end <= capacity_;
  };
  if (parent == nullptr) {
    for (int i = 0; i < in_.items; ++i) {
      if (offset_[static_cast<size_t>(i)] >= 0 || !in_range(i, lo, hi)) continue;
      if (!admit(i)) return false;
      candidates.push_back(i);
    }
    std::sort(candidates.begin(), candidates.end(), by_order);
  } else {
    // The parent's order stays valid for items whose minimum offset did not change; the few
    // that moved up (neighbours of the item just placed) are sorted apart and merged in.
    std::vector<int>& moved = level_moved_[depth];
    moved.clear();
    for (int i : *parent) {
      const auto ui = static_cast<size_t>(i);
      if (offset_[ui] >= 0 || !in_range(i, lo, hi)) continue;
      if (!admit(i)) return false;
      (changed_[ui] == event ? moved : candidates).push_back(i);
    }
    if (!moved.empty()) {
      std::sort(moved.begin(), moved.end(), by_order);
      const auto middle = static_cast<std::ptrdiff_t>(candidates.size());
      candidates.insert(candidates.end(), moved.begin(), moved.end());
      std::inplace_merge(candidates.begin(), candidates.begin() + middle, candidates.end(), by_order);
    }
  }
  level_dominance_[depth] = dominance;
  return !infeasible_sections(candidates, lo, hi, last_offset, depth);
}

// Candidates of the part [lo, hi) of the (gathered, checked) list at `from`, into level `depth`.
void Search::gather_part(int lo, int hi, size_t from, size_t depth) {
  std::vector<int>& candidates = level_candidates_[depth];
  candidates.clear();
  int64_t dominance = kOpenEnd;
  for (int i : level_candidates_[from]) {
    const auto ui = static_cast<size_t>(i);
    if (!in_range(i, lo, hi)) continue;
    candidates.push_back(i);
    dominance = std::min(dominance, minoff_[ui] + in_.size[ui]);
  }
  if (!candidates.empty()) {
    rerank(candidates);
    std::sort(candidates.begin(), candidates.end(), [this](int a, int b) { return before(a, b); });
  }
  level_dominance_[depth] = dominance;
  level_max_remaining_[depth] = level_max_remaining_[from];
  level_thresholds_ready_[depth] = 0;
  // The part's section floors are those of the whole component.
  std::vector<int64_t>& floor = level_floor_[depth];
  floor.resize(static_cast<size_t>(in_.sections), kOpenEnd);
  std::copy(level_floor_[from].begin() + lo, level_floor_[from].begin() + hi, floor.begin() + lo);
}

// Explores the component [lo, hi) whose candidates were gathered into level `depth`.
Outcome Search::solve(int lo, int hi, int64_t last_offset, int last_rank, size_t depth) {
  const std::vector<int>& candidates = level_candidates_[depth];
  if (candidates.empty()) return Outcome::kFound;
  if (++nodes_ > node_limit_ || deadline_->expired()) return Outcome::kStopped;
  const int64_t dominance = level_dominance_[depth];
  for (const int item : candidates) {
    const auto ui = static_cast<size_t>(item);
    const int64_t offset = minoff_[ui];
    if (offset >= dominance) break;
    const int rank = rank_[ui];
    if (offset < last_offset || (offset == last_offset && rank < last_rank)) continue;
    if (quick_reject(lo, hi, item, offset, depth)) {
      if (!has_unplaced_neighbour(item)) break;  // hatless: see below
      continue;
    }
    const size_t mark = trail_.size();
    std::vector<int>& cuts = level_cuts_[depth];
    cuts.clear();
    const bool hat = place(item, lo, hi, cuts);
    Outcome result = Outcome::kInfeasible;
    // The whole component is checked (with the monotonic floor) before it is split.
    if (gather(lo, hi, offset, depth + 1, &candidates, event_)) {
      if (cuts.empty()) {
        result = solve(lo, hi, offset, rank, depth + 1);
      } else {
        std::sort(cuts.begin(), cuts.end());
        cuts.push_back(hi);
        result = Outcome::kFound;
        int start = lo;
        for (int b : cuts) {
          gather_part(start, b, depth + 1, depth + 2);
          result = solve(start, b, offset, -1, depth + 2);  // new ranks: any item may go at `offset`
          if (result != Outcome::kFound) break;
          start = b;
        }
      }
    }
    if (result == Outcome::kFound) return result;
    undo_to(mark);
    if (result == Outcome::kStopped) return result;
    if (!hat) break;
  }
  return Outcome::kInfeasible;
}

}  // namespace usmpx::exact
