#pragma once

#include <cstdint>
#include <string_view>

#include "frontends/tflite/tflm_version.h"

namespace usmpx {

// What a kernel's rule in an older TFLM does differently from its 90b983c rule (read from TFLM's
// own figures for each version, ../shared/tflite/versions/tflm_versions.json, and the kernels'
// sources). A kernel entry lists its differences beside its rules (TflmKernel::versions).
enum class TflmChange {
  kUnregistered,        // the version has no kernel for the builtin (MicroMutableOpResolver lacks its Add*)
  kOptions,             // the builtin options struct is another size (no quantized_bias_type before 2024)
  kInitOpData,          // Init's op data is another size (reference kernels)
  kNoPerChannelArrays,  // FULLY_CONNECTED: Prepare keeps no per-channel multipliers and shifts
  kInt8InputArrays,     // CONCATENATION: int8 Prepare keeps input scales and zero points (4 x inputs each)
  kReduceTempSumOnly,   // MEAN / SUM: int8/int16 request only the int32 sums; float requests nothing
  kRefusedAtAllocate,   // the variant is refused in Prepare, with TFLM's message
  kRefusedAtInvoke,     // the variant passes AllocateTensors and fails in Eval, with TFLM's message
  kNotMeasured,         // the versions' recordings hold no figure of the variant: its figure says "at least"
};

// {bytes, alignment} of an options struct on arm-none-eabi and on x86-64.
struct TflmVersionOptions {
  int64_t bytes32 = 0, align32 = 1, bytes64 = 0, align64 = 1;
};

// One difference, holding for the versions first..last.
struct TflmVersionChange {
  TflmVersion first, last;
  TflmChange change;
  TflmVersionOptions options{};  // kOptions
  int64_t bytes = 0;             // kInitOpData: the op data's size (no pointers in it: the same on both widths)
  std::string_view variant;  // kRefused*, kNotMeasured: the variants refused or not measured (tflm_variant's key, "*"
                             // matches any text)
  std::string_view message;  // kRefused*: TFLM's message as it prints it (some begin with the file)
};

// A variant the versions refuse, with TFLM's message: in Prepare (AllocateTensors fails) or in
// Eval (AllocateTensors passes, Invoke fails).
constexpr TflmVersionChange refused_at_allocate(TflmVersion first, TflmVersion last, std::string_view variant,
                                                std::string_view message) {
  return {first, last, TflmChange::kRefusedAtAllocate, {}, 0, variant, message};
}
constexpr TflmVersionChange refused_at_invoke(TflmVersion first, TflmVersion last, std::string_view variant,
                                              std::string_view message) {
  return {first, last, TflmChange::kRefusedAtInvoke, {}, 0, variant, message};
}

// The variants the older versions' recordings hold no figure of (`variant`, "*" any text): the
// rules stay 90b983c's, and the figure says "at least".
constexpr TflmVersionChange not_measured_before_90b983c(std::string_view variant) {
  return {TflmVersion::k2023_06_30, TflmVersion::k2025_02_07, TflmChange::kNotMeasured, {}, 0, variant, {}};
}

}  // namespace usmpx
