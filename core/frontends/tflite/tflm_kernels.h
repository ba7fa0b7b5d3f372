#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontends/tflite/tflite_model.h"
#include "frontends/tflite/tflm_build.h"

namespace usmpx {

// What one operator's TFLM kernel allocates in the arena's tail, for a build.
struct TflmKernelRecord {
  bool known = false;         // a rule models the kernel (false: custom operators, builtins TFLM lacks)
  bool proven = false;        // the rule's variant is one the tests hold to TFLM's own figures
  std::string variant;        // "CONV_2D INT8 per-channel": operator, types, what selects its code path
  std::string why_unknown;    // when !known
  int64_t options_bytes = 0;  // the builtin options struct the flatbuffer parser allocates (0: none)
  int64_t options_align = 1;
  std::vector<int64_t> init;     // Init's AllocatePersistentBuffer sizes (16-byte aligned each)
  std::vector<int64_t> prepare;  // Prepare's AllocatePersistentBuffer sizes (16-byte aligned each)
};

// Resource variables already given a buffer while the model's kernels are prepared in order:
// ASSIGN_VARIABLE allocates a resource's buffer only the first time (MicroResourceVariables).
struct TflmResourceState {
  std::vector<std::string> assigned;  // VAR_HANDLE resource names (container/shared_name) assigned so far
};

// The record of `op` (tflite-micro 90b983c kernels; CMSIS-NN kernels as built for a DSP core;
// an older TFLM's differences applied, tflm_version_rules.h).
// Sizes are C struct sizes: on Cortex-M (arm-none-eabi) enums are one byte (-fshort-enums, the
// AAPCS default), on x86-64 four; pointers 4 and 8 bytes. `resources` is updated in Prepare order.
TflmKernelRecord tflm_kernel_record(const TfliteModel& model, const TfliteSubgraph& subgraph, const TfliteOperator& op,
                                    const TflmBuild& build, TflmResourceState* resources = nullptr);

// The variant of an operator the proof table is keyed by: the operator's name, its input and
// output types and, for the weighted layers, whether the filter is quantized per channel.
std::string tflm_variant(const TfliteModel& model, const TfliteSubgraph& subgraph, const TfliteOperator& op);

// Whether the variant's figures are held by the tests to TFLM's own (tests/core/frontends/tflite/
// tflm_ops_test.cpp against ../shared/tflite/ops): the table in tflm_proven.cpp.
bool tflm_variant_proven(const std::string& variant, TflmKernels kernels);

// Every proven variant of a kernel set, for the test that holds the table to the ground truth.
std::vector<std::string> tflm_proven_variants(TflmKernels kernels);

// The same for a build of any TFLM version: 90b983c's proven variants less those the version's
// ground truth does not hold for the build (tflm_version_unverified).
bool tflm_variant_proven(const std::string& variant, const TflmBuild& build);
std::vector<std::string> tflm_proven_variants(const TflmBuild& build);

}  // namespace usmpx
