#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "frontends/tflite/kernels/tflm_version_change.h"
#include "frontends/tflite/tflite_model.h"
#include "frontends/tflite/tflm_build.h"

namespace usmpx {

struct TflmKernelRecord;

// How the kernels of an older TFLM differ from 90b983c's rules (the kernel entries of
// kernels/*.cpp), as differences read from TFLM's own figures for each
// version (../shared/tflite/versions/tflm_versions.json, x86-64, reference kernels) and the
// kernels' sources. Everything not named here is 90b983c's rule.

// Whether the version's rule for `kernel` carries `change`.
bool tflm_version_has(TflmVersion version, std::string_view kernel, TflmChange change);

// Whether the version registers a kernel for the builtin that 90b983c registers.
bool tflm_version_registers(TflmVersion version, std::string_view kernel);

// Whether the rule holds the change in every version the build may be (both bounds of a date
// between two known versions): a change that asks less is taken only where it certainly holds.
bool tflm_build_has(const TflmBuild& build, std::string_view kernel, TflmChange change);

// Applies the version's differences to a 90b983c kernel record of `variant` (tflm_variant):
// options struct and op data sizes (on a target the version's ground truth was not measured on,
// the larger of the version's and 90b983c's: the safe side), Prepare's allocations, an operator
// the version lacks or refuses (the record becomes unknown, saying so). For a date between two
// known versions, the larger of their two records (a kernel either runs is counted).
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
// 90b983c's, a CMSIS-NN kernel (measured for 90b983c only); for a date between two known
// versions, a kernel whose rules differ between them (else what the older's says).
std::string tflm_version_unverified(const std::string& variant, const TflmBuild& build);

}  // namespace usmpx
