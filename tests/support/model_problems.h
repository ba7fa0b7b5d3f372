#pragma once

#include <cstdint>
#include <string>

#include "model/problem.h"

namespace usmpx::testing {

// A problem shaped like a TVM model of `buffers` buffers: one in eight a constant, all live for
// the whole run in the constant pool 'flash' and adding up to `constant_bytes`; the rest short-
// lived activations and operator scratch over a run of buffers / 2 ticks, into 'dtcm' (128 KiB
// hint) or 'sram'. Deterministic.
Problem model_shaped_problem(int buffers, int64_t constant_bytes);

// The same shape with constants as TVM emits weights: sizes in bytes, not rounded to their
// alignment, and alignments mixed (64, 16, 4 and 1 bytes), so that stacking them pads unless the
// order is chosen well. `seed` varies the sizes.
Problem model_shaped_mixed_alignment_problem(int buffers, int64_t constant_bytes, uint64_t seed = 1);

// The same, written as a usmpx problem JSON file at `path`; returns the path.
std::string write_model_shaped_problem(const std::string& path, int buffers, int64_t constant_bytes);

}  // namespace usmpx::testing
