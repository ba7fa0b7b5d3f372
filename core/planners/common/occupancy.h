#pragma once

// Where a buffer may still go in one pool: the free gaps of offsets left by the already placed
// buffers it conflicts with. Two indexes answer that question:
//
// - IntervalOccupancy, for lifetime problems. Time is compressed to the segments between
//   consecutive lifetime ends, and a segment tree over them keeps, per node, the union of the
//   offset ranges of the buffers whose lifetime covers the node ("cover") and the union over the
//   node's whole subtree ("sub"). A buffer's conflicts are then exactly the buffers found in the
//   "sub" of its O(log T) canonical nodes and in the "cover" of their ancestors, so a gap query
//   merges O(log T) unions instead of visiting every overlapping buffer; unions stay short because
//   touching ranges merge. This keeps 60k-buffer traces (180M overlapping pairs) well under a second.
// - GraphOccupancy, for explicit conflict lists (general graphs): the placed neighbours' ranges,
//   sorted and merged per query.
//
// Gaps are reported in increasing offset order; the last one is open ([lo, kOpenEnd)).

#include <cstdint>
#include <limits>
#include <vector>

#include "base/alignment.h"
#include "model/conflict_graph.h"
#include "model/problem.h"

namespace usmpx {

inline constexpr int64_t kOpenEnd = std::numeric_limits<int64_t>::max();

// Disjoint, non-touching [start, end) ranges in increasing order.
class RangeSet {
 public:
  struct Range {
    int64_t start;
    int64_t end;
  };
  void insert(int64_t start, int64_t end);
  bool empty() const { return ranges_.empty(); }
  const std::vector<Range>& ranges() const { return ranges_; }

 private:
  std::vector<Range> ranges_;
};

// Receives free gaps; returns false to stop the walk.
class GapVisitor {
 public:
  virtual bool gap(int64_t lo, int64_t hi) = 0;

 protected:
  ~GapVisitor() = default;
};

// Time compressed to segments: buffer b lives in segments [lo(b), hi(b)); lo == hi when it has no
// (or an empty) lifetime and therefore conflicts with nothing.
struct TimeAxis {
  int segments = 0;
  std::vector<int> lo;
  std::vector<int> hi;
  std::vector<int64_t> ticks;  // segment s is [ticks[s], ticks[s + 1])

  static TimeAxis of(const Problem& problem);
  bool timeless(int b) const { return lo[static_cast<size_t>(b)] >= hi[static_cast<size_t>(b)]; }
};

class Occupancy {
 public:
  virtual ~Occupancy() = default;
  // Buffer b now occupies [offset, offset + size) in this pool.
  virtual void insert(int b, int64_t offset, int64_t size) = 0;
  // Walks the free gaps for buffer b (ignoring b itself if placed).
  virtual void walk(int b, GapVisitor& visitor) = 0;
};

class IntervalOccupancy final : public Occupancy {
 public:
  explicit IntervalOccupancy(const TimeAxis& axis);
  void insert(int b, int64_t offset, int64_t size) override;
  void walk(int b, GapVisitor& visitor) override;

 private:
  void collect(int b);

  const TimeAxis& axis_;
  int leaves_ = 1;
  std::vector<RangeSet> cover_;
  std::vector<RangeSet> sub_;
  std::vector<uint32_t> stamp_;
  uint32_t epoch_ = 0;
  std::vector<int> canonical_;
  std::vector<int> ancestors_;
  std::vector<const RangeSet*> sets_;
  std::vector<size_t> cursor_;
};

class GraphOccupancy final : public Occupancy {
 public:
  // `neighbours`: symmetric conflict lists (both directions merged).
  explicit GraphOccupancy(const ConflictLists& neighbours);
  void insert(int b, int64_t offset, int64_t size) override;
  void walk(int b, GapVisitor& visitor) override;

 private:
  const ConflictLists& neighbours_;
  std::vector<int64_t> offset_;  // -1 when not placed in this pool
  std::vector<int64_t> size_;
  std::vector<RangeSet::Range> scratch_;
};

}  // namespace usmpx
