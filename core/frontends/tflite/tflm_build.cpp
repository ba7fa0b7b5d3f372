#include "frontends/tflite/tflm_build.h"

#include "base/config_error.h"

namespace usmpx {

std::string_view to_string(TflmKernels kernels) {
  return kernels == TflmKernels::kCmsisNn ? "cmsis_nn" : "reference";
}

std::string_view to_string(TflmTarget target) {
  switch (target) {
    case TflmTarget::kCortexM:
      return "cortex-m";
    case TflmTarget::kCortexM55:
      return "cortex-m55";
    case TflmTarget::kX86_64:
      return "x86-64";
  }
  return "cortex-m";
}

std::optional<TflmKernels> parse_tflm_kernels(std::string_view text) {
  if (text == "reference") return TflmKernels::kReference;
  if (text == "cmsis_nn" || text == "cmsis-nn") return TflmKernels::kCmsisNn;
  return std::nullopt;
}

std::optional<TflmTarget> parse_tflm_target(std::string_view text) {
  if (text == "cortex-m") return TflmTarget::kCortexM;
  if (text == "cortex-m55") return TflmTarget::kCortexM55;
  if (text == "x86-64" || text == "x86_64") return TflmTarget::kX86_64;
  return std::nullopt;
}

TflmBuild tflm_build_from(std::string_view kernels, std::string_view target) {
  TflmBuild build;
  if (!kernels.empty()) {
    const auto k = parse_tflm_kernels(kernels);
    if (!k) throw ConfigError("--tflm-kernels: '" + std::string(kernels) + "' is not one of reference, cmsis_nn");
    build.kernels = *k;
  }
  if (!target.empty()) {
    const auto t = parse_tflm_target(target);
    if (!t)
      throw ConfigError("--tflm-target: '" + std::string(target) + "' is not one of cortex-m, cortex-m55, x86-64");
    build.target = *t;
  }
  if (build.kernels == TflmKernels::kCmsisNn && build.target == TflmTarget::kX86_64) {
    throw ConfigError(
        "--tflm-kernels cmsis_nn with --tflm-target x86-64: CMSIS-NN's optimized code paths are for Arm Cortex-M "
        "cores; a host build of TFLM uses the reference kernels");
  }
  if (build.kernels == TflmKernels::kCmsisNn && build.target == TflmTarget::kCortexM55) {
    throw ConfigError(
        "--tflm-kernels cmsis_nn with --tflm-target cortex-m55: CMSIS-NN's Helium (MVE) code paths, which a "
        "Cortex-M55 build takes, request other scratch buffers than the DSP ones the tool models; use "
        "--tflm-target cortex-m for a DSP core (M4, M7, M33), or the reference kernels");
  }
  return build;
}

std::string describe(const TflmBuild& build) {
  return "TFLM " + std::string(kTflmVersion) + ", " + std::string(to_string(build.kernels)) + ", " +
         std::string(to_string(build.target));
}

}  // namespace usmpx
