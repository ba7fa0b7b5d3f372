#pragma once

#include "model/conflict_graph.h"
#include "model/problem.h"

namespace usmpx {

// Whether two buffers may not share bytes: their closed lifetimes overlap (a buffer without a
// lifetime is live throughout), or, for conflict-list problems, either lists the other. Keeps a
// reference to the problem.
class BufferOverlap {
 public:
  explicit BufferOverlap(const Problem& problem);
  bool operator()(int a, int b) const;

 private:
  const Problem& problem_;
  ConflictLists lists_;  // conflict-list problems only
};

}  // namespace usmpx
