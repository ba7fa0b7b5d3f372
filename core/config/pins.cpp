#include "config/pins.h"

#include <charconv>
#include <set>

#include "base/config_error.h"

namespace usmpx {

PinSpec parse_pin(std::string_view text) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0 || eq + 1 == text.size()) {
    throw ConfigError("--pin: expected BUF=POOL or BUF=POOL@OFFSET, got \"" + std::string(text) + "\"");
  }
  PinSpec pin;
  pin.buffer = std::string(text.substr(0, eq));
  std::string_view rest = text.substr(eq + 1);
  const size_t at = rest.rfind('@');
  pin.pool = std::string(rest.substr(0, at));
  if (at != std::string_view::npos) {
    std::string_view number = rest.substr(at + 1);
    int64_t offset = 0;
    const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), offset);
    if (number.empty() || ec != std::errc() || ptr != number.data() + number.size() || offset < 0) {
      throw ConfigError("--pin: offset must be a non-negative integer, got \"" + std::string(number) + "\"");
    }
    pin.offset = offset;
  }
  if (pin.pool.empty()) throw ConfigError("--pin: missing pool name in \"" + std::string(text) + "\"");
  return pin;
}

void apply_pins(Problem& problem, const std::vector<PinSpec>& pins) {
  std::set<std::string> seen;
  for (const PinSpec& spec : pins) {
    const auto b = problem.find_buffer(spec.buffer);
    if (!b) throw ConfigError("--pin: unknown buffer '" + spec.buffer + "'");
    const auto p = problem.find_pool(spec.pool);
    if (!p) throw ConfigError("--pin: unknown pool '" + spec.pool + "'");
    if (!seen.insert(spec.buffer).second) throw ConfigError("--pin: buffer '" + spec.buffer + "' is pinned twice");
    Buffer& buffer = problem.buffers[static_cast<size_t>(*b)];
    const Pool& pool = problem.pools[static_cast<size_t>(*p)];
    const bool constant = buffer.kind == BufferKind::kConstant;
    if (constant != (pool.kind == PoolKind::kConstant)) {
      throw ConfigError("--pin: " + std::string(constant ? "constant" : "workspace") + " buffer '" + buffer.name +
                        "' cannot go into " + std::string(to_string(pool.kind)) + " pool '" + pool.name + "'");
    }
    buffer.pin = Pin{*p, spec.offset};
  }
}

}  // namespace usmpx
