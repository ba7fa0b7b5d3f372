#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace usmpx {

// The TFLite Micro build a figure is for: the kernel set it is compiled with and the target's
// pointer width. Persistent records, kernels' op data and their scratch requests all depend on it.
enum class TflmKernels { kReference, kCmsisNn };
// kCortexM55: a Cortex-M55 (Helium/MVE); its records are the 32-bit ones of kCortexM (measured
// equal with the reference kernels and the Ethos-U kernel), CMSIS-NN's MVE code paths are not modelled.
enum class TflmTarget { kCortexM, kCortexM55, kX86_64 };

struct TflmBuild {
  TflmKernels kernels = TflmKernels::kReference;
  TflmTarget target = TflmTarget::kCortexM;
};

// The TFLM version whose structures and kernels the figures model (the ground truth's version).
inline constexpr std::string_view kTflmVersion = "tflite-micro 90b983c";

std::string_view to_string(TflmKernels kernels);  // "reference", "cmsis_nn"
std::string_view to_string(TflmTarget target);    // "cortex-m", "cortex-m55", "x86-64"
std::optional<TflmKernels> parse_tflm_kernels(std::string_view text);
std::optional<TflmTarget> parse_tflm_target(std::string_view text);

// Reads the two option values ("" = the default); throws ConfigError naming the bad value or a
// pair TFLM is not built as (CMSIS-NN's DSP code paths are for Arm cores only).
TflmBuild tflm_build_from(std::string_view kernels, std::string_view target);

// "TFLM tflite-micro 90b983c, cmsis_nn, cortex-m"
std::string describe(const TflmBuild& build);

}  // namespace usmpx
