#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontends/tflite/tflite_model.h"
#include "frontends/tflite/tflm_build.h"

namespace usmpx {

// What one operator's TFLM kernel allocates in the arena's tail, for a build.
struct TflmKernelRecord {
  bool known = false;
  std::string why_unknown;
  int64_t options_bytes = 0;  // the builtin options struct the flatbuffer parser allocates (0: none)
  int64_t options_align = 1;
  std::vector<int64_t> init;     // Init's AllocatePersistentBuffer sizes (16-byte aligned each)
  std::vector<int64_t> prepare;  // Prepare's AllocatePersistentBuffer sizes (16-byte aligned each)
};

// The record of `op` (tflite-micro 90b983c kernels; CMSIS-NN kernels as built for a DSP core).
// Sizes are C struct sizes: on Cortex-M (arm-none-eabi) enums are one byte (-fshort-enums, the
// AAPCS default), on x86-64 four; pointers 4 and 8 bytes.
TflmKernelRecord tflm_kernel_record(const TfliteModel& model, const TfliteSubgraph& subgraph, const TfliteOperator& op,
                                    const TflmBuild& build);

}  // namespace usmpx
