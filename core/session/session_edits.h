#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config/pins.h"
#include "model/problem.h"

namespace usmpx {

// One pool as the user configured it in a session. `base` names the pool of the loaded input it
// stems from (empty for a pool the user added); renaming keeps the link.
struct PoolSetting {
  Pool pool;
  std::string base;
  bool operator==(const PoolSetting&) const = default;
};

// Everything the user changed on top of a loaded input: the pool list (order = preference), pins
// and the chosen algorithm. Small enough to copy for every undo step.
struct SessionEdits {
  std::vector<PoolSetting> pools;
  std::vector<PinSpec> pins;
  std::string algorithm = "greedy_by_size";
  double time_limit_seconds = 5.0;
  // The runtime build the memory figures are for (TFLM's kernels, target and version; "" = the
  // default): an edit like the others, so that switching it can be undone. Changing it reads the
  // input again.
  std::string runtime_kernels;
  std::string runtime_target;
  std::string runtime_version;
  bool operator==(const SessionEdits&) const = default;
};

// The edits that leave `base` unchanged: its pools, no pins.
SessionEdits initial_edits(const Problem& base, const std::string& algorithm);

// The problem the planners see: `base` with the edited pools and the pins. A buffer's candidates
// are the edited pools, in their order, that stem from one of its base candidates, followed by
// the pools the user added whose kind matches the buffer. Pins of the input itself stay unless the
// edits pin that buffer. Throws ConfigError when a pin names an unknown buffer or pool or a pool of
// the wrong kind, or when two pools share a name.
Problem apply_edits(const Problem& base, const SessionEdits& edits);

// The pin of a buffer in the edits, if any.
const PinSpec* find_pin(const SessionEdits& edits, const std::string& buffer);
// Returns edits with the buffer's pin replaced (or removed when `pin` is empty).
SessionEdits with_pin(SessionEdits edits, const std::string& buffer, std::optional<PinSpec> pin);

}  // namespace usmpx
