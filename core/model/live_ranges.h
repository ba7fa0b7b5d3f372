#pragma once

#include <vector>

#include "model/buffer.h"

namespace usmpx {

// `ranges` (half-open: ticks or bytes, any order) sorted, with those that overlap or touch merged
// ([1, 6) and [6, 9) leave nothing between them: [1, 9)) and empty ones dropped.
std::vector<Lifetime> merged_ranges(std::vector<Lifetime> ranges);

// Sets the buffer's lifetime to span `ranges` (half-open, any order, may overlap) and keeps them in
// live_ranges when, merged, they are more than one range. Leaves the buffer alone when `ranges`
// holds no non-empty range.
void set_live_ranges(Buffer& buffer, std::vector<Lifetime> ranges);

// The ticks in which a buffer is live as its conflicts were computed: its live_ranges when it has
// them, else its lifetime, else none. Sorted and disjoint.
std::vector<Lifetime> live_ranges_of(const Buffer& buffer);

// Whether two buffers are live at a common tick by live_ranges_of.
bool live_at_the_same_time(const Buffer& a, const Buffer& b);

}  // namespace usmpx
