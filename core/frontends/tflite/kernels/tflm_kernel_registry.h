#pragma once

#include <span>
#include <string_view>

#include "frontends/tflite/kernels/tflm_kernel.h"

namespace usmpx {

// The registration table: every builtin kernel TFLM (kTflmVersion) registers, one TflmKernel
// entry each (kernels/tflm_kernel.h describes the entry's shape).

// The entry of a builtin by schema name; nullptr for a builtin TFLM registers no kernel for.
const TflmKernel* tflm_kernel(std::string_view name);

// Every entry, in name order (the table docs/tflite.md prints).
std::span<const TflmKernel* const> tflm_kernels();

}  // namespace usmpx
