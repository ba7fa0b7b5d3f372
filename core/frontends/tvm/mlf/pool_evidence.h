#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/pool.h"

namespace usmpx {

// What TVM's output says about a pool when its definition (lib0.c's array) does not: the
// alignment its plan shows, and its size from the totals TVM wrote elsewhere.

// The largest power of two, up to `cap`, that divides every offset; `cap` when there is none.
int64_t alignment_dividing(const std::vector<int64_t>& offsets, int64_t cap);

// A total TVM wrote for all pools of one kind: the interface header's TVMGEN_<MOD>_WORKSPACE_SIZE
// or metadata.json's workspace_size_bytes / constants_size_bytes (sums of the pools' sizes).
struct PoolTotal {
  PoolKind kind = PoolKind::kWorkspace;
  int64_t bytes = 0;
  std::string source;  // where it was read, for the note: "tvmgen_default.h's TVMGEN_DEFAULT_WORKSPACE_SIZE"
};

struct PoolSizeFromTotal {
  std::string pool;
  int64_t bytes = 0;
  std::string source;
};

// The size of each pool whose size nothing else states, when a total of its kind leaves exactly
// one such pool: the total minus the sizes known of the others. `known` maps pool names to the
// sizes the code declares; `pools` are the pools in the entry's order.
std::vector<PoolSizeFromTotal> sizes_from_totals(const std::vector<Pool>& pools,
                                                 const std::map<std::string, int64_t>& known,
                                                 const std::vector<PoolTotal>& totals);

}  // namespace usmpx
