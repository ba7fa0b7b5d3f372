#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "frontends/tflite/tflite_model.h"
#include "frontends/tflite/tflm_build.h"

namespace usmpx {

struct TflmKernelRecord;

// How the kernels of an older TFLM differ from 90b983c's rules (the kernel entries of
// kernels/*.cpp), as differences read from TFLM's own figures for each
// version (../shared/tflite/versions/tflm_versions.json, x86-64, reference kernels) and the
// kernels' sources. Everything not named here is 90b983c's rule.
enum class TflmChange {
  kUnregistered,        // the version has no kernel for the builtin (MicroMutableOpResolver lacks its Add*)
  kOptions,             // the builtin options struct is another size (no quantized_bias_type before 2024)
  kInitOpData,          // Init's op data is another size (reference kernels)
  kNoPerChannelArrays,  // FULLY_CONNECTED: Prepare keeps no per-channel multipliers and shifts
  kInt8InputArrays,     // CONCATENATION: int8 Prepare keeps input scales and zero points (4 x inputs each)
  kReduceTempSumOnly,   // MEAN / SUM: int8/int16 request only the int32 sums; float requests nothing
  kRefusedAtAllocate,   // the variant is refused in Prepare, with TFLM's message
  kRefusedAtInvoke,     // the variant passes AllocateTensors and fails in Eval, with TFLM's message
};

// Whether the version's rule for `kernel` carries `change`.
bool tflm_version_has(TflmVersion version, std::string_view kernel, TflmChange change);

// Whether the version registers a kernel for the builtin that 90b983c registers.
bool tflm_version_registers(TflmVersion version, std::string_view kernel);

// Applies the version's differences to a 90b983c kernel record of `variant` (tflm_variant):
// options struct and op data sizes (on a target the version's ground truth was not measured on,
// the larger of the version's and 90b983c's: the safe side), Prepare's allocations, an operator
// the version lacks or refuses (the record becomes unknown, saying so).
void apply_tflm_version(TflmKernelRecord& record, const TflmBuild& build, int64_t input_count);

// TFLM's refusal of `variant` in the version, when it refuses it and 90b983c does not.
struct TflmVersionRefusal {
  std::string message;  // TFLM's own message
  bool at_invoke = false;
};
std::optional<TflmVersionRefusal> tflm_version_refusal(const std::string& variant, TflmVersion version);

// Why the version's figure for `variant` is not held by that version's ground truth ("" when it
// is, or the version is 90b983c): a kernel the version lacks or refuses, a variant the version's
// measurements do not include, a rule measured only on x86-64 whose struct sizes differ from
// 90b983c's, a CMSIS-NN kernel (measured for 90b983c only).
std::string tflm_version_unverified(const std::string& variant, const TflmBuild& build);

}  // namespace usmpx
