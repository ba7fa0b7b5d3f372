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
// kEspNn: Espressif's esp-tflite-micro 1.4.0 (TFLM 90b983c) with its ESP-NN kernels over esp-nn 1.2.3,
// on an ESP32 target only.
enum class TflmKernels { kReference, kCmsisNn, kEspNn };
// kCortexM55: a Cortex-M55 (Helium/MVE); its records are the 32-bit ones of kCortexM (measured
// equal with the reference kernels and the Ethos-U kernel), CMSIS-NN's MVE code paths are not modelled.
// The ESP32 targets share one data layout (ILP32, four-byte enums, eight-byte aligned double, as
// Xtensa LX builds) and differ in which esp-nn scratch-size functions ESP-NN's kernels call:
// kEsp32S3 the S3's, kEsp32 the generic optimised ones (ESP32, ESP32-S2, ESP32-C3 and the other
// chips but the S3 and P4), kEspAnsi the ANSI C fallback (CONFIG_NN_ANSI_C).
enum class TflmTarget { kCortexM, kCortexM55, kX86_64, kEsp32S3, kEsp32, kEspAnsi };

// Whether the target has the ESP32 data layout (four-byte enums with 32-bit pointers).
bool esp32_layout(TflmTarget target);

struct TflmBuild {
  TflmKernels kernels = TflmKernels::kReference;
  TflmTarget target = TflmTarget::kCortexM;
  TflmVersion version = kTflmDefaultVersion;
  // A TFLM dated between two known versions (--tflm-version YYYY-MM-DD): `version` is the one
  // before, `newer` the one after, `date` the date given. Each kernel takes the two versions' rule
  // where they agree, else the larger and the figure names it (tflm_version_rules.h).
  std::optional<TflmVersion> newer;
  std::string date;
};

// How figures name the build's TFLM: "2024-05-29", "90b983c", or a date between two known ones.
std::string tflm_version_label(const TflmBuild& build);
// "tflite-micro 2024-05-29 (71fba59)"; between: "tflite-micro of 2024-12-01 (between 2024-05-29
// and 2025-02-07)".
std::string tflm_version_name(const TflmBuild& build);

// The TFLM version most ground truth is for (every build of ../shared/tflite), the default.
inline constexpr std::string_view kTflmVersion = "tflite-micro 90b983c";

std::string_view to_string(TflmKernels kernels);  // "reference", "cmsis_nn", "esp_nn"
// "cortex-m", "cortex-m55", "x86-64", "esp32s3", "esp32", "esp32-ansi"
std::string_view to_string(TflmTarget target);
std::optional<TflmKernels> parse_tflm_kernels(std::string_view text);
std::optional<TflmTarget> parse_tflm_target(std::string_view text);

// Reads the option values ("" = the default); throws ConfigError naming the bad value or a
// pair TFLM is not built as (CMSIS-NN's DSP code paths are for Arm cores only, ESP-NN's for ESP32
// targets, and ESP-NN is modelled for TFLM 90b983c only).
TflmBuild tflm_build_from(std::string_view kernels, std::string_view target, std::string_view version = "");

// Every kernel set, target and version by option value, the defaults first and the versions newest
// first, with what a menu calls each and the targets each kernel set builds for (the pairs
// tflm_build_from accepts), and the reading of a firmware's TFLM tree.
RuntimeBuilds tflm_runtime_builds();

// "TFLM tflite-micro 90b983c, cmsis_nn, cortex-m"; ESP-NN names its esp-nn version:
// "TFLM tflite-micro 90b983c, esp_nn (esp-nn 1.2.3), esp32s3"
std::string describe(const TflmBuild& build);

}  // namespace usmpx
