#include "model/live_ranges.h"

#include <algorithm>

namespace usmpx {

std::vector<Lifetime> merged_ranges(std::vector<Lifetime> ranges) {
  ranges.erase(std::remove_if(ranges.begin(), ranges.end(), [](const Lifetime& r) { return r.empty(); }), ranges.end());
  std::sort(ranges.begin(), ranges.end(), [](const Lifetime& a, const Lifetime& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  std::vector<Lifetime> merged;
  for (const Lifetime& r : ranges) {
    if (!merged.empty() && r.begin <= merged.back().end) {
      merged.back().end = std::max(merged.back().end, r.end);
    } else {
      merged.push_back(r);
    }
  }
  return merged;
}

void set_live_ranges(Buffer& buffer, std::vector<Lifetime> ranges) {
  std::vector<Lifetime> merged = merged_ranges(std::move(ranges));
  if (merged.empty()) return;
  buffer.lifetime = Lifetime{merged.front().begin, merged.back().end};
  if (merged.size() > 1) {
    buffer.live_ranges = std::move(merged);
  } else {
    buffer.live_ranges.clear();
  }
}

std::vector<Lifetime> live_ranges_of(const Buffer& buffer) {
  if (!buffer.live_ranges.empty()) return buffer.live_ranges;
  if (buffer.lifetime && !buffer.lifetime->empty()) return {*buffer.lifetime};
  return {};
}

bool live_at_the_same_time(const Buffer& a, const Buffer& b) {
  if (!a.lifetime || !b.lifetime || !a.lifetime->overlaps(*b.lifetime)) return false;
  const std::vector<Lifetime> ra = live_ranges_of(a);
  const std::vector<Lifetime> rb = live_ranges_of(b);
  // Both sorted and disjoint: one merge pass.
  size_t i = 0, j = 0;
  while (i < ra.size() && j < rb.size()) {
    if (ra[i].overlaps(rb[j])) return true;
    if (ra[i].end <= rb[j].end) {
      ++i;
    } else {
      ++j;
    }
  }
  return false;
}

}  // namespace usmpx
