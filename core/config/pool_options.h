#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/problem.h"

namespace usmpx {

template <typename T>
using NamedValues = std::vector<std::pair<std::string, T>>;

// Pool settings in the style of tvmc: --workspace-pools, --workspace-pools-size-hint-bytes,
// --workspace-pools-targets, the matching --constant-pools-* options, and --capacity.
struct PoolOptions {
  std::vector<std::string> workspace_pools;
  NamedValues<int64_t> workspace_size_hints;
  NamedValues<std::string> workspace_targets;
  std::vector<std::string> constant_pools;
  NamedValues<int64_t> constant_size_hints;
  NamedValues<std::string> constant_targets;
  std::optional<int64_t> capacity;
  bool use_workspace_io = false;
  bool io_live_throughout = false;  // with use_workspace_io: inputs live from the start, outputs to the end

  bool empty() const;
};

// "a,b,c" -> names. Throws ConfigError naming `option` on empty or repeated names.
std::vector<std::string> parse_name_list(std::string_view option, std::string_view value);
// "sram:262144,dtcm:65536" -> (pool, bytes). -1 means unrestricted.
NamedValues<int64_t> parse_size_hints(std::string_view option, std::string_view value);
// "sram:c,dtcm:c" -> (pool, target).
NamedValues<std::string> parse_targets(std::string_view option, std::string_view value);
// A byte count such as 1048576, 256k or 1M (binary multiples).
int64_t parse_byte_count(std::string_view option, std::string_view value);

// Applies the options to a problem whose buffers already have candidates (problem JSON, CSV):
// listed workspace (constant) pools replace the existing ones of that kind and become every
// non-constant (constant) buffer's candidates in the given order; size hints and targets update
// the named pools; --capacity limits the only pool, or the only unrestricted workspace pool.
// Throws ConfigError when an option names an unknown pool or cannot be applied.
void apply_pool_options(Problem& problem, const PoolOptions& options);

}  // namespace usmpx
