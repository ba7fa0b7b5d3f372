#pragma once

#include <string_view>

namespace usmpx {

// The TFLite Micro build whose behaviour the tool reproduces: the kernel set it is compiled with
// (OPTIMIZED_KERNEL_DIR) and the target's pointer width. The facts behind every TFLM figure and
// rule are those of one TFLM version, named wherever they are shown.
enum class TflmKernels { kReference, kCmsisNn };
enum class TflmTarget { kCortexM, kX86_64 };

struct TflmBuild {
  TflmKernels kernels = TflmKernels::kReference;
  TflmTarget target = TflmTarget::kCortexM;
};

inline constexpr std::string_view kTflmVersion = "tflite-micro 90b983c";

// "reference" / "cmsis_nn", as the command line names them.
constexpr std::string_view to_string(TflmKernels kernels) {
  return kernels == TflmKernels::kCmsisNn ? "cmsis_nn" : "reference";
}

// "cortex-m" / "x86-64", as the command line names them.
constexpr std::string_view to_string(TflmTarget target) {
  return target == TflmTarget::kX86_64 ? "x86-64" : "cortex-m";
}

}  // namespace usmpx
