#pragma once

// One model of an input that holds several (a firmware file, docs/several-models.md): its name,
// its ticks on the joint time axis and its buffers, for the explorer's chart and the report.

#include <cstdint>
#include <string>
#include <vector>

namespace usmpx {

struct ModelSpan {
  std::string name;
  int64_t first_tick = 0;  // closed: [first_tick, last_tick]
  int64_t last_tick = 0;
  std::vector<int> buffers;  // indices into the input's Problem
};

}  // namespace usmpx
