#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frontends/tflite/kernels/tflm_kernel.h"
#include "frontends/tflite/tflite_model.h"
#include "frontends/tflite/tflm_build.h"

namespace usmpx {

// What TFLM's kernels do to the arena for one operator, read from the kernel's entry in the
// registration table (kernels/tflm_kernel_registry.h; one entry per builtin kernel, shaped as
// kernels/tflm_kernel.h describes).

// What one operator's TFLM kernel allocates in the arena's tail, for a build.
struct TflmKernelRecord {
  bool known = false;         // a rule models the kernel (false: custom operators, builtins TFLM lacks)
  bool proven = false;        // the rule's variant is one the tests hold to TFLM's own figures
  std::string variant;        // "CONV_2D INT8>INT8 per-channel": operator, types, what selects its code path
  std::string why_unknown;    // when !known
  int64_t options_bytes = 0;  // the builtin options struct the flatbuffer parser allocates (0: none)
  int64_t options_align = 1;
  std::vector<int64_t> init;     // Init's AllocatePersistentBuffer sizes (16-byte aligned each)
  std::vector<int64_t> prepare;  // Prepare's AllocatePersistentBuffer sizes (16-byte aligned each)
  // The temporary tensors Prepare allocates, when not every input and output (the entry's rule).
  std::optional<std::vector<const TfliteTensor*>> temp_tensors;
  std::string assumes;  // what the firmware must provide for the kernel to run ("" = nothing)
};

// The record of `op` (kTflmVersion's kernels; CMSIS-NN kernels as built for a DSP core).
// Sizes are C struct sizes: on Cortex-M (arm-none-eabi) enums are one byte (-fshort-enums, the
// AAPCS default), on x86-64 four; pointers 4 and 8 bytes. `resources` is updated in Prepare order.
TflmKernelRecord tflm_kernel_record(const TfliteModel& model, const TfliteSubgraph& subgraph, const TfliteOperator& op,
                                    const TflmBuild& build, TflmResourceState* resources = nullptr);

// The scratch buffers the operator's kernel requests in Prepare (RequestScratchBufferInArena), in
// request order: its entry's rule; unknown for custom operators and builtins TFLM has no kernel for.
ScratchNeed scratch_need(const TfliteModel& model, const TfliteSubgraph& subgraph, const TfliteOperator& op,
                         const TflmBuild& build = {});

// The variant of an operator the proof table is keyed by, for a build: the operator's name, its data
// input's and output's types and its entry's key words (for the weighted layers, whether the filter
// is quantized per channel and, for CMSIS-NN, which of its code paths runs).
std::string tflm_variant(const TfliteModel& model, const TfliteSubgraph& subgraph, const TfliteOperator& op,
                         const TflmBuild& build = {});

// What the operator's Prepare and scratch rules read (TflmKeyPart bits) that its key words do not,
// beyond the data input's and output's types: 0 when the variant key covers every path the rules
// can take for this operator. Exposed for the test that holds every entry to it.
uint32_t tflm_rule_reads_outside_key(const TflmKernel& kernel, const TfliteModel& model, const TfliteSubgraph& subgraph,
                                     const TfliteOperator& op, const TflmBuild& build);

// Whether the variant's figures are held by the tests to TFLM's own (tests/core/frontends/tflite/
// tflm_ops_test.cpp against ../shared/tflite/ops) for the kernel set: the entries' `proven` lists.
bool tflm_variant_proven(const std::string& variant, TflmKernels kernels);

// Every proven variant of a kernel set, sorted, for the test that holds the entries to the ground truth.
std::vector<std::string> tflm_proven_variants(TflmKernels kernels);

// The same for a build of any TFLM version and target: 90b983c's proven variants (on the ESP32
// targets the "esp32: " ones) less those the version's ground truth does not hold for the build
// (tflm_version_unverified).
bool tflm_variant_proven(const std::string& variant, const TflmBuild& build);
std::vector<std::string> tflm_proven_variants(const TflmBuild& build);

}  // namespace usmpx
