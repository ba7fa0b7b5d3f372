#pragma once

#include <span>

#include "frontends/tflite/kernels/tflm_kernel.h"

namespace usmpx {

// Each family file's entries (kernels/<family>.cpp), gathered by the registry
// (tflm_kernel_registry.cpp). A new family declares its span here and adds one line there.
extern const std::span<const TflmKernel> kTflmActivationKernels;
extern const std::span<const TflmKernel> kTflmBinaryKernels;
extern const std::span<const TflmKernel> kTflmControlFlowKernels;
extern const std::span<const TflmKernel> kTflmEthosUKernels;
extern const std::span<const TflmKernel> kTflmConvKernels;
extern const std::span<const TflmKernel> kTflmFullyConnectedKernels;
extern const std::span<const TflmKernel> kTflmIndexingKernels;
extern const std::span<const TflmKernel> kTflmPoolingKernels;
extern const std::span<const TflmKernel> kTflmQuantizeKernels;
extern const std::span<const TflmKernel> kTflmRecurrentKernels;
extern const std::span<const TflmKernel> kTflmReduceKernels;
extern const std::span<const TflmKernel> kTflmResourceKernels;
extern const std::span<const TflmKernel> kTflmShapeKernels;
extern const std::span<const TflmKernel> kTflmSpatialKernels;
extern const std::span<const TflmKernel> kTflmUnaryKernels;

}  // namespace usmpx
