#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "frontends/tflite/tflite_model.h"
#include "frontends/tflite/tflm_build.h"
#include "model/diagnostic.h"

namespace usmpx {

// What TFLite Micro (kTflmVersion) refuses at AllocateTensors, read from the model alone: an
// operator without a kernel in the build's kernel set, a custom operator TFLM does not register
// (Flex, TensorList, any other without an entry; the Ethos-U operator has one, and the figure
// assumes the firmware registers it), a type
// combination a kernel's Prepare rejects (hybrid float/int8 models, legacy uint8 quantization,
// DEQUANTIZE from float16, ...), resource variables without a resource-variable store. One
// warning (code "tflm-refuses") per operator, naming it, in subgraph and operator order.
std::vector<Diagnostic> tflm_refusals(const TfliteModel& model, const TflmBuild& build);

// Whether the kernel set registers a kernel for the builtin operator (MicroMutableOpResolver's
// Add* functions; CMSIS-NN replaces some kernels but registers the same builtins).
bool tflm_has_builtin_kernel(int32_t builtin, TflmKernels kernels);

// Whether TFLM registers a kernel for the custom code (its own custom operators: the signal
// library, CIRCULAR_BUFFER, TFLite_Detection_PostProcess, TFLM_DECODE; not ethos-u, which needs
// a build with the Ethos-U driver).
bool tflm_has_custom_kernel(std::string_view custom_code);

}  // namespace usmpx
