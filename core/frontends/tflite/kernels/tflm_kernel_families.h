#pragma once

#include <span>

#include "frontends/tflite/kernels/tflm_kernel.h"

namespace usmpx {

// Each family file's entries (kernels/<family>.cpp), gathered by the registry
// (tflm_kernel_registry.cpp). A new family adds its function here and one line there.
std::span<const TflmKernel> tflm_activation_kernels();
std::span<const TflmKernel> tflm_binary_kernels();
std::span<const TflmKernel> tflm_control_flow_kernels();
std::span<const TflmKernel> tflm_ethos_u_kernels();
std::span<const TflmKernel> tflm_conv_kernels();
std::span<const TflmKernel> tflm_fully_connected_kernels();
std::span<const TflmKernel> tflm_indexing_kernels();
std::span<const TflmKernel> tflm_pooling_kernels();
std::span<const TflmKernel> tflm_quantize_kernels();
std::span<const TflmKernel> tflm_recurrent_kernels();
std::span<const TflmKernel> tflm_reduce_kernels();
std::span<const TflmKernel> tflm_resource_kernels();
std::span<const TflmKernel> tflm_shape_kernels();
std::span<const TflmKernel> tflm_spatial_kernels();
std::span<const TflmKernel> tflm_unary_kernels();

}  // namespace usmpx
