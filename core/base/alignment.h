#pragma once

// Rounding sizes and offsets up to an alignment: one definition for every planner, reader and
// writer (TVM's round_up_to_byte_alignment, TFLM's and ExecuTorch's alignment of sizes, file
// offsets in a flatbuffer).

#include <cstdint>

namespace usmpx {

// `value` rounded up to a multiple of `alignment`; alignments of 1 or less leave it as it is.
// For values >= 0.
constexpr int64_t align_up(int64_t value, int64_t alignment) {
  return alignment > 1 ? (value + alignment - 1) / alignment * alignment : value;
}
constexpr uint64_t align_up(uint64_t value, uint64_t alignment) {
  return alignment > 1 ? (value + alignment - 1) / alignment * alignment : value;
}

}  // namespace usmpx
