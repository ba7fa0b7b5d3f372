#include "model/buffer_overlap.h"

#include <algorithm>

namespace usmpx {

BufferOverlap::BufferOverlap(const Problem& problem) : problem_(problem) {
  if (!problem.interval_conflicts()) lists_ = symmetric_conflicts(problem);
}

bool BufferOverlap::operator()(int a, int b) const {
  if (!problem_.interval_conflicts()) {
    const auto& l = lists_[static_cast<size_t>(a)];
    return std::binary_search(l.begin(), l.end(), b);
  }
  const auto& la = problem_.buffers[static_cast<size_t>(a)].lifetime;
  const auto& lb = problem_.buffers[static_cast<size_t>(b)].lifetime;
  if (!la || !lb) return true;
  return !(la->first() > lb->last() || lb->first() > la->last());
}

}  // namespace usmpx
