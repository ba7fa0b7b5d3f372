#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace usmpx {

// The TFLite Micro versions whose kernels the figures model, oldest first: three upstream commits
// firmware ships (../shared/tflite/versions/tflm_versions.json holds TFLM's own figures for them)
// and 90b983c (August 2026), the version every other ground truth is for and the default.
enum class TflmVersion { k2023_06_30, k2024_05_29, k2025_02_07, k90b983c };

inline constexpr TflmVersion kTflmDefaultVersion = TflmVersion::k90b983c;

struct TflmVersionInfo {
  TflmVersion version;
  std::string_view name;        // what --tflm-version takes: "2024-05-29", "90b983c"
  std::string_view commit;      // the upstream tensorflow/tflite-micro commit
  std::string_view date;        // the commit's date, YYYY-MM-DD
  std::string_view shipped_by;  // firmware projects whose vendored TFLM is this version
};

// Every version, oldest first.
const std::vector<TflmVersionInfo>& tflm_versions();
const TflmVersionInfo& tflm_version_info(TflmVersion version);

std::string_view to_string(TflmVersion version);  // "2023-06-30", ..., "90b983c"
std::optional<TflmVersion> parse_tflm_version(std::string_view text);

// "tflite-micro 90b983c", "tflite-micro 2024-05-29 (71fba59)": how figures name the version.
std::string tflm_version_name(TflmVersion version);

// "2023-06-30, 2024-05-29, 2025-02-07, 90b983c": the names --tflm-version takes.
std::string tflm_version_names();

// The known versions just before and after a date (YYYY-MM-DD) strictly between the oldest's and
// the newest's; nullopt for any other text.
std::optional<std::pair<TflmVersion, TflmVersion>> tflm_versions_around(std::string_view date);

}  // namespace usmpx
