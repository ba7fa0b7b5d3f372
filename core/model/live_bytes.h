#pragma once

#include <cstdint>
#include <vector>

#include "model/problem.h"

namespace usmpx {

// The most bytes live at one tick among `subset` (lifetimes half-open: a buffer ending at a tick
// is not live with one starting there) and the buffers live then. A buffer without a lifetime
// conflicts with nothing: when it alone is larger, it is the peak.
struct PeakLive {
  int64_t bytes = 0;
  std::vector<int> live;
};
PeakLive peak_live_bytes(const Problem& problem, const std::vector<int>& subset);

// The buffers grouped by the pools they can share: pools that some buffer may choose between
// belong to one group. One group per pool index (most empty), with the number of pools in it;
// buffers without a candidate pool are in none. `group_of_pool` names each pool's group.
struct PoolSharing {
  std::vector<std::vector<int>> buffers;
  std::vector<int> pool_count;
  std::vector<int> group_of_pool;
};
PoolSharing pool_sharing_groups(const Problem& problem);

// What a lifetime problem needs at least: over the groups, the sum of their peak live bytes.
int64_t lifetime_memory_pressure(const Problem& problem);

}  // namespace usmpx
