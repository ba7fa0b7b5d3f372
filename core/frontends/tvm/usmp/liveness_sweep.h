#pragma once

#include <cstdint>
#include <vector>

namespace usmpx {

// The first and last tick (inclusive) at which one buffer was accessed during one call of the
// function that owns it. A function called twice gives its buffers two intervals.
struct AccessInterval {
  int buffer = -1;
  int64_t first = 0;
  int64_t last = 0;
};

struct LivenessResult {
  std::vector<std::vector<int>> conflicts;  // per buffer, in sweep order; may repeat and hold itself
  int64_t memory_pressure = 0;
};

// ExtractBufferInfo's sweep, with its quirks: one START and one END event per interval, sorted by
// tick with STARTs first at equal ticks (closed intervals); at each START, every open buffer gets
// the new one appended and the new one gets every open buffer other than itself. The open set
// holds each buffer once, but the live-byte count adds every START and subtracts every END, and
// memory pressure is its maximum (alignment ignored, constants included). Afterwards constants
// conflict with every other constant exactly once, and workspace buffers lose their constant
// conflicts. Ties TVM leaves to hashing are broken by buffer index, so the result is deterministic.
// For --io-live-throughout: the application writes the inputs before a run and reads the outputs
// after it, so an input (kinds[b] true for inputs) is live from tick 0 to its last access and an
// output from its first access to `last_tick`; each gets one interval. TVM's USMP keeps the access
// intervals, which lets a planner reuse an input's bytes before it is read or an output's after
// its last write.
void keep_io_live(std::vector<AccessInterval>& intervals, const std::vector<int>& inputs,
                  const std::vector<int>& outputs, int64_t last_tick);

LivenessResult sweep_liveness(const std::vector<int64_t>& sizes, const std::vector<bool>& is_constant,
                              const std::vector<AccessInterval>& intervals);

}  // namespace usmpx
