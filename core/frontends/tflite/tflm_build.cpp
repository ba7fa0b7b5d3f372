#include "frontends/tflite/tflm_build.h"

#include "base/config_error.h"
#include "frontends/frontend.h"
#include "frontends/tflite/tflm_tree.h"

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

TflmBuild tflm_build_from(std::string_view kernels, std::string_view target, std::string_view version) {
  TflmBuild build;
  if (!version.empty()) {
    const auto v = parse_tflm_version(version);
    if (!v) throw ConfigError("--tflm-version: '" + std::string(version) + "' is not one of " + tflm_version_names());
    build.version = *v;
  }
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

namespace {

constexpr TflmKernels kAllKernels[] = {TflmKernels::kReference, TflmKernels::kCmsisNn};
constexpr TflmTarget kAllTargets[] = {TflmTarget::kCortexM, TflmTarget::kCortexM55, TflmTarget::kX86_64};

std::string label(TflmKernels kernels) {
  return kernels == TflmKernels::kCmsisNn ? "CMSIS-NN Kernels (Cortex-M4/M7/M33, DSP)" : "Reference Kernels";
}

std::string label(TflmTarget target) {
  switch (target) {
    case TflmTarget::kCortexM:
      return "Cortex-M Target (32-bit pointers)";
    case TflmTarget::kCortexM55:
      return "Cortex-M55 Target (Helium; the records of Cortex-M)";
    case TflmTarget::kX86_64:
      return "x86-64 Host (64-bit pointers)";
  }
  return std::string(to_string(target));
}

bool accepted(TflmKernels kernels, TflmTarget target) {
  try {
    tflm_build_from(to_string(kernels), to_string(target));
    return true;
  } catch (const ConfigError&) {
    return false;
  }
}

}  // namespace

RuntimeBuilds tflm_runtime_builds() {
  RuntimeBuilds builds;
  builds.runtime = "TFLM";
  for (const TflmKernels k : kAllKernels) {
    const std::string value(to_string(k));
    builds.kernels.push_back(value);
    builds.labels[value] = label(k);
    for (const TflmTarget t : kAllTargets)
      if (accepted(k, t)) builds.kernel_targets[value].emplace_back(to_string(t));
  }
  for (const TflmTarget t : kAllTargets) {
    builds.targets.emplace_back(to_string(t));
    builds.labels[builds.targets.back()] = label(t);
  }
  const auto& versions = tflm_versions();
  for (auto v = versions.rbegin(); v != versions.rend(); ++v) {
    const std::string value(v->name);
    builds.versions.push_back(value);
    builds.labels[value] =
        value + (v->version == kTflmDefaultVersion ? " (default): " : ": ") + std::string(v->shipped_by);
  }
  builds.read_tree = [](const std::string& dir) {
    try {
      const TflmTreeVersion r = recognise_tflm_tree(dir);
      return RuntimeTreeReading{r.version ? std::string(to_string(*r.version)) : std::string(), r.summary};
    } catch (const ConfigError& e) {
      return RuntimeTreeReading{"", e.what()};
    }
  };
  return builds;
}

std::string describe(const TflmBuild& build) {
  return "TFLM " + tflm_version_name(build.version) + ", " + std::string(to_string(build.kernels)) + ", " +
         std::string(to_string(build.target));
}

}  // namespace usmpx
