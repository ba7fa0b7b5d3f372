#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/plan.h"
#include "model/problem.h"

namespace usmpx {

// What a buffer is, for colouring: tensors passed between operators, buffers an operator
// allocates for itself (padded inputs, accumulators), constants, and the model's inputs/outputs.
enum class BufferRole { kIntermediate, kOperatorInternal, kConstant, kInputOutput, kReserved };

BufferRole buffer_role(const Buffer& buffer);
std::string_view to_string(BufferRole role);
// The buffer's kind as problem files and the CLI name it ("intermediate", "input", "output",
// "constant"), with "(in operator)" for intermediates an operator allocates for itself.
std::string kind_label(const Buffer& buffer);

// Whether a function name is the model's entry (TVM's __tvm_main__ or the older run_model).
bool is_entry_function(const std::string& function);

// Bytes of the buffers a plan puts into `pool` that are live at each tick, as a step function:
// each step holds from its tick until the next step's tick.
struct LiveStep {
  int64_t tick = 0;
  int64_t bytes = 0;
  bool operator==(const LiveStep&) const = default;
};
std::vector<LiveStep> live_bytes_profile(const Problem& problem, const Plan& plan, int pool);

// The lifetime to draw for a buffer: its own, except that constants, which sit in their pool for
// the whole run whatever ticks touch them, span every tick. Empty optional when there is none.
std::optional<Lifetime> display_lifetime(const Problem& problem, const Buffer& buffer);

// The ticks spanned by all buffer lifetimes: [first, end). {0, 1} when no buffer has a lifetime.
std::pair<int64_t, int64_t> tick_range(const Problem& problem);

}  // namespace usmpx
