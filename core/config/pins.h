#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/problem.h"

namespace usmpx {

// A pin as written on the command line: BUF=POOL or BUF=POOL@OFFSET.
struct PinSpec {
  std::string buffer;
  std::string pool;
  std::optional<int64_t> offset;
  bool operator==(const PinSpec&) const = default;
};

// Throws ConfigError when the text is not of that form.
PinSpec parse_pin(std::string_view text);

// Pins the named buffers. Throws ConfigError for unknown buffers or pools, a pool of the wrong
// kind (constants go into constant pools, everything else into workspace pools) and buffers
// pinned twice.
void apply_pins(Problem& problem, const std::vector<PinSpec>& pins);

}  // namespace usmpx
