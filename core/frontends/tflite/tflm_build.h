#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "frontends/tflite/tflm_version.h"

namespace usmpx {

struct RuntimeBuilds;

// The TFLite Micro build a figure is for: its version, the kernel set it is compiled with and the
// target's pointer width. Persistent records, kernels' op data and their scratch requests all
// depend on it.
enum class TflmKernels { kReference, kCmsisNn };
// kCortexM55: a Cortex-M55 (Helium/MVE); its records are the 32-bit ones of kCortexM (measured
// equal with the reference kernels and the Ethos-U kernel), CMSIS-NN's MVE code paths are not modelled.
enum class TflmTarget { kCortexM, kCortexM55, kX86_64 };

struct TflmBuild {
  TflmKernels kernels = TflmKernels::kReference;
  TflmTarget target = TflmTarget::kCortexM;
  TflmVersion version = kTflmDefaultVersion;
};

// The TFLM version most ground truth is for (every build of ../shared/tflite), the default.
inline constexpr std::string_view kTflmVersion = "tflite-micro 90b983c";

std::string_view to_string(TflmKernels kernels);  // "reference", "cmsis_nn"
std::string_view to_string(TflmTarget target);    // "cortex-m", "cortex-m55", "x86-64"
std::optional<TflmKernels> parse_tflm_kernels(std::string_view text);
std::optional<TflmTarget> parse_tflm_target(std::string_view text);

// Reads the option values ("" = the default); throws ConfigError naming the bad value or a
// pair TFLM is not built as (CMSIS-NN's DSP code paths are for Arm cores only).
TflmBuild tflm_build_from(std::string_view kernels, std::string_view target, std::string_view version = "");

// Every kernel set, target and version by option value, the defaults first and the versions newest
// first, with what a menu calls each and the targets each kernel set builds for (the pairs
// tflm_build_from accepts), and the reading of a firmware's TFLM tree.
RuntimeBuilds tflm_runtime_builds();

// "TFLM tflite-micro 90b983c, cmsis_nn, cortex-m"
std::string describe(const TflmBuild& build);

}  // namespace usmpx
