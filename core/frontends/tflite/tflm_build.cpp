#include "frontends/tflite/tflm_build.h"

#include <vector>

#include "base/config_error.h"
#include "base/enum_names.h"
#include "frontends/frontend.h"
#include "frontends/tflite/tflm_tree.h"

namespace usmpx {

namespace {

// The esp-nn release ESP-NN's scratch formulas are for (esp-tflite-micro 1.4.0's dependency).
constexpr std::string_view kEspNnVersion = "esp-nn 1.2.3";

// An option's word and, on a value's first row, what a menu calls it; the first row's word is
// the one written, the others are other spellings read.
template <typename Enum>
struct OptionWord {
  Enum value;
  std::string_view name;
  std::string_view label = {};
};

constexpr OptionWord<TflmKernels> kKernelWords[] = {
    {TflmKernels::kReference, "reference", "Reference Kernels"},
    {TflmKernels::kCmsisNn, "cmsis_nn", "CMSIS-NN Kernels (Cortex-M4/M7/M33, DSP)"},
    {TflmKernels::kCmsisNn, "cmsis-nn"},
    {TflmKernels::kEspNn, "esp_nn", "ESP-NN Kernels (esp-tflite-micro, ESP32)"},
    {TflmKernels::kEspNn, "esp-nn"}};
constexpr OptionWord<TflmTarget> kTargetWords[] = {
    {TflmTarget::kCortexM, "cortex-m", "Cortex-M Target (32-bit pointers)"},
    {TflmTarget::kCortexM55, "cortex-m55", "Cortex-M55 Target (Helium; the records of Cortex-M)"},
    {TflmTarget::kX86_64, "x86-64", "x86-64 Host (64-bit pointers)"},
    {TflmTarget::kX86_64, "x86_64"},
    {TflmTarget::kEsp32S3, "esp32s3", "ESP32-S3 Target (esp-nn's S3 code paths)"},
    {TflmTarget::kEsp32S3, "esp32-s3"},
    // esp-nn builds its generic optimised functions for every chip but the S3 and the P4.
    {TflmTarget::kEsp32, "esp32", "ESP32 Target (ESP32, -S2, -C3, -C6)"},
    {TflmTarget::kEsp32, "esp32s2"},
    {TflmTarget::kEsp32, "esp32-s2"},
    {TflmTarget::kEsp32, "esp32c3"},
    {TflmTarget::kEsp32, "esp32-c3"},
    {TflmTarget::kEsp32, "esp32c6"},
    {TflmTarget::kEsp32, "esp32-c6"},
    {TflmTarget::kEspAnsi, "esp32-ansi", "ESP32 with esp-nn's C Fallback"}};

}  // namespace

bool esp32_layout(TflmTarget target) {
  return target == TflmTarget::kEsp32S3 || target == TflmTarget::kEsp32 || target == TflmTarget::kEspAnsi;
}

std::string_view to_string(TflmKernels kernels) {
  return name_of(kKernelWords, kernels);
}

std::string_view to_string(TflmTarget target) {
  return name_of(kTargetWords, target);
}

std::optional<TflmKernels> parse_tflm_kernels(std::string_view text) {
  return value_named(kKernelWords, text);
}

std::optional<TflmTarget> parse_tflm_target(std::string_view text) {
  return value_named(kTargetWords, text);
}

namespace {

// ESP-NN runs on the ESP32 targets only, CMSIS-NN on none of them, and ESP-NN's formulas are
// those of esp-tflite-micro 1.4.0 (TFLM 90b983c, esp-nn 1.2.3).
void check_esp_pair(const TflmBuild& build) {
  const bool esp = esp32_layout(build.target);
  if (build.kernels == TflmKernels::kEspNn && !esp) {
    throw ConfigError("--tflm-kernels esp_nn with --tflm-target " + std::string(to_string(build.target)) +
                      ": ESP-NN's kernels are Espressif's, for an ESP32 target (esp32s3, esp32, esp32-ansi)");
  }
  if (build.kernels == TflmKernels::kCmsisNn && esp) {
    throw ConfigError("--tflm-kernels cmsis_nn with --tflm-target " + std::string(to_string(build.target)) +
                      ": CMSIS-NN is for Arm Cortex-M cores; esp-tflite-micro builds ESP-NN (esp_nn) or the "
                      "reference kernels");
  }
  if (build.kernels == TflmKernels::kEspNn && (build.version != kTflmDefaultVersion || build.newer)) {
    throw ConfigError("--tflm-kernels esp_nn with --tflm-version " + tflm_version_label(build) +
                      ": ESP-NN is modelled for esp-tflite-micro 1.4.0 only (TFLM 90b983c with " +
                      std::string(kEspNnVersion) +
                      "); older esp-tflite-micro releases ship an older TFLM and esp-nn, whose convolutions "
                      "request other scratch sizes");
  }
}

}  // namespace

TflmBuild tflm_build_from(std::string_view kernels, std::string_view target, std::string_view version) {
  TflmBuild build;
  if (!version.empty()) {
    const auto v = parse_tflm_version(version);
    const auto around = tflm_versions_around(version);
    if (!v && !around) {
      throw ConfigError("--tflm-version: '" + std::string(version) + "' is not one of " + tflm_version_names() +
                        ", nor a date (YYYY-MM-DD) between " + std::string(tflm_versions().front().date) + " and " +
                        std::string(tflm_versions().back().date));
    }
    build.version = v ? *v : around->first;
    if (!v) {
      build.newer = around->second;
      build.date = std::string(version);
    }
  }
  if (!kernels.empty()) {
    const auto k = parse_tflm_kernels(kernels);
    if (!k)
      throw ConfigError("--tflm-kernels: '" + std::string(kernels) + "' is not one of reference, cmsis_nn, esp_nn");
    build.kernels = *k;
  }
  if (!target.empty()) {
    const auto t = parse_tflm_target(target);
    if (!t)
      throw ConfigError("--tflm-target: '" + std::string(target) +
                        "' is not one of cortex-m, cortex-m55, x86-64, esp32s3, esp32 (also esp32s2, esp32c3, "
                        "esp32c6), esp32-ansi");
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
  check_esp_pair(build);
  return build;
}

namespace {

// The values a menu offers: the rows with a label, in the table's order.
template <typename Enum, size_t N>
std::vector<Enum> offered(const OptionWord<Enum> (&rows)[N]) {
  std::vector<Enum> values;
  for (const OptionWord<Enum>& row : rows) {
    if (!row.label.empty()) values.push_back(row.value);
  }
  return values;
}

std::string label(TflmKernels kernels) {
  return std::string(row_of(kKernelWords, kernels)->label);
}

std::string label(TflmTarget target) {
  return std::string(row_of(kTargetWords, target)->label);
}

bool accepted(TflmKernels kernels, TflmTarget target, std::string_view version = "") {
  try {
    tflm_build_from(to_string(kernels), to_string(target), version);
    return true;
  } catch (const ConfigError&) {
    return false;
  }
}

}  // namespace

RuntimeBuilds tflm_runtime_builds() {
  RuntimeBuilds builds;
  builds.runtime = "TFLM";
  const std::vector<TflmTarget> targets = offered(kTargetWords);
  for (const TflmKernels k : offered(kKernelWords)) {
    const std::string value(to_string(k));
    builds.kernels.push_back(value);
    builds.labels[value] = label(k);
    for (const TflmTarget t : targets)
      if (accepted(k, t)) builds.kernel_targets[value].emplace_back(to_string(t));
    const TflmTarget target = parse_tflm_target(builds.kernel_targets[value].front()).value_or(TflmTarget::kCortexM);
    for (auto v = tflm_versions().rbegin(); v != tflm_versions().rend(); ++v)
      if (accepted(k, target, v->name)) builds.kernel_versions[value].emplace_back(v->name);
  }
  for (const TflmTarget t : targets) {
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

std::string tflm_version_label(const TflmBuild& build) {
  return build.newer ? build.date : std::string(to_string(build.version));
}

std::string tflm_version_name(const TflmBuild& build) {
  if (!build.newer) return tflm_version_name(build.version);
  return "tflite-micro of " + build.date + " (between " + std::string(to_string(build.version)) + " and " +
         std::string(to_string(*build.newer)) + ")";
}

std::string describe(const TflmBuild& build) {
  const std::string esp_nn =
      build.kernels == TflmKernels::kEspNn ? " (" + std::string(kEspNnVersion) + ")" : std::string();
  return "TFLM " + tflm_version_name(build) + ", " + std::string(to_string(build.kernels)) + esp_nn + ", " +
         std::string(to_string(build.target));
}

}  // namespace usmpx
