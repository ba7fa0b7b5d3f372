#include "planners/common/occupancy.h"

#include <algorithm>

namespace usmpx {

void RangeSet::insert(int64_t start, int64_t end) {
  if (end <= start) return;
  // First range that ends at or after `start` (touching ranges merge).
  auto first = std::lower_bound(ranges_.begin(), ranges_.end(), start,
                                [](const Range& r, int64_t value) { return r.end < value; });
  auto last = first;
  while (last != ranges_.end() && last->start <= end) {
    start = std::min(start, last->start);
    end = std::max(end, last->end);
    ++last;
  }
  if (first == last) {
    ranges_.insert(first, Range{start, end});
  } else {
    *first = Range{start, end};
    ranges_.erase(first + 1, last);
  }
}

TimeAxis TimeAxis::of(const Problem& problem) {
  TimeAxis axis;
  const size_t n = problem.buffers.size();
  for (const Buffer& b : problem.buffers) {
    if (b.lifetime && !b.lifetime->empty()) {
      axis.ticks.push_back(b.lifetime->begin);
      axis.ticks.push_back(b.lifetime->end);
    }
  }
  std::sort(axis.ticks.begin(), axis.ticks.end());
  axis.ticks.erase(std::unique(axis.ticks.begin(), axis.ticks.end()), axis.ticks.end());
  axis.segments = axis.ticks.empty() ? 0 : static_cast<int>(axis.ticks.size()) - 1;
  axis.lo.assign(n, 0);
  axis.hi.assign(n, 0);
  auto index = [&](int64_t tick) {
    return static_cast<int>(std::lower_bound(axis.ticks.begin(), axis.ticks.end(), tick) - axis.ticks.begin());
  };
  for (size_t i = 0; i < n; ++i) {
    const auto& lt = problem.buffers[i].lifetime;
    if (!lt || lt->empty()) continue;
    axis.lo[i] = index(lt->begin);
    axis.hi[i] = index(lt->end);
  }
  return axis;
}

namespace {

// Merges the free gaps of several RangeSets: a point is free when no set covers it.
void walk_union(const std::vector<const RangeSet*>& sets, std::vector<size_t>& cursor, GapVisitor& visitor) {
  cursor.assign(sets.size(), 0);
  int64_t y = 0;
  while (true) {
    bool moved = true;
    while (moved) {
      moved = false;
      for (size_t k = 0; k < sets.size(); ++k) {
        const auto& r = sets[k]->ranges();
        size_t& c = cursor[k];
        while (c < r.size() && r[c].end <= y)
          ++c;
        if (c < r.size() && r[c].start <= y) {
          y = r[c].end;
          ++c;
          moved = true;
        }
      }
    }
    int64_t hi = kOpenEnd;
    for (size_t k = 0; k < sets.size(); ++k) {
      const auto& r = sets[k]->ranges();
      if (cursor[k] < r.size()) hi = std::min(hi, r[cursor[k]].start);
    }
    if (!visitor.gap(y, hi) || hi == kOpenEnd) return;
    y = hi;
  }
}

}  // namespace

IntervalOccupancy::IntervalOccupancy(const TimeAxis& axis) : axis_(axis) {
  while (leaves_ < std::max(1, axis.segments))
    leaves_ *= 2;
  const size_t nodes = 2 * static_cast<size_t>(leaves_);
  cover_.resize(nodes);
  sub_.resize(nodes);
  stamp_.assign(nodes, 0);
}

// Canonical nodes of b's segment range and their strict ancestors (each once).
void IntervalOccupancy::collect(int b) {
  canonical_.clear();
  ancestors_.clear();
  int l = axis_.lo[static_cast<size_t>(b)] + leaves_;
  int r = axis_.hi[static_cast<size_t>(b)] + leaves_;
  while (l < r) {
    if (l & 1) canonical_.push_back(l++);
    if (r & 1) canonical_.push_back(--r);
    l >>= 1;
    r >>= 1;
  }
  ++epoch_;
  for (int v : canonical_)
    stamp_[static_cast<size_t>(v)] = epoch_;
  for (int v : canonical_) {
    for (int a = v >> 1; a >= 1 && stamp_[static_cast<size_t>(a)] != epoch_; a >>= 1) {
      stamp_[static_cast<size_t>(a)] = epoch_;
      ancestors_.push_back(a);
    }
  }
}

void IntervalOccupancy::insert(int b, int64_t offset, int64_t size) {
  if (axis_.timeless(b) || size <= 0) return;
  collect(b);
  for (int v : canonical_) {
    cover_[static_cast<size_t>(v)].insert(offset, offset + size);
    sub_[static_cast<size_t>(v)].insert(offset, offset + size);
  }
  for (int a : ancestors_)
    sub_[static_cast<size_t>(a)].insert(offset, offset + size);
}

void IntervalOccupancy::walk(int b, GapVisitor& visitor) {
  sets_.clear();
  if (!axis_.timeless(b)) {
    collect(b);
    for (int v : canonical_) {
      if (!sub_[static_cast<size_t>(v)].empty()) sets_.push_back(&sub_[static_cast<size_t>(v)]);
    }
    for (int a : ancestors_) {
      if (!cover_[static_cast<size_t>(a)].empty()) sets_.push_back(&cover_[static_cast<size_t>(a)]);
    }
  }
  walk_union(sets_, cursor_, visitor);
}

GraphOccupancy::GraphOccupancy(const ConflictLists& neighbours)
    : neighbours_(neighbours), offset_(neighbours.size(), -1), size_(neighbours.size(), 0) {}

void GraphOccupancy::insert(int b, int64_t offset, int64_t size) {
  offset_[static_cast<size_t>(b)] = offset;
  size_[static_cast<size_t>(b)] = size;
}

void GraphOccupancy::walk(int b, GapVisitor& visitor) {
  scratch_.clear();
  for (int c : neighbours_[static_cast<size_t>(b)]) {
    const int64_t off = offset_[static_cast<size_t>(c)];
    if (off >= 0 && size_[static_cast<size_t>(c)] > 0) scratch_.push_back({off, off + size_[static_cast<size_t>(c)]});
  }
  std::sort(scratch_.begin(), scratch_.end(), [](const auto& x, const auto& y) { return x.start < y.start; });
  int64_t y = 0;
  for (const auto& r : scratch_) {
    if (r.start > y) {
      if (!visitor.gap(y, r.start)) return;
    }
    y = std::max(y, r.end);
  }
  visitor.gap(y, kOpenEnd);
}

}  // namespace usmpx
