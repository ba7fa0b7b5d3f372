#include "frontends/tflite/tflm_version.h"

#include <algorithm>

namespace usmpx {

const std::vector<TflmVersionInfo>& tflm_versions() {
  static const std::vector<TflmVersionInfo> versions = {
      {TflmVersion::k2023_06_30, "2023-06-30", "13cd6d82406728fe38880de20933e765ebe0b59d", "2023-06-30",
       "Zephyr's tflite-micro module branch zephyr-v3.6.0; the Arduino libraries (early 2023)"},
      {TflmVersion::k2024_05_29, "2024-05-29", "71fba59b5bebfd64b48e167bfcb669fff568ec74", "2024-05-29",
       "esp-tflite-micro v1.3.1; Zephyr's tflite-micro module branch zephyr"},
      {TflmVersion::k2025_02_07, "2025-02-07", "ef64591270691022a329cf04ba9e73ecfb15ddb8", "2025-02-07",
       "Zephyr main (submanifests/optional.yaml)"},
      {TflmVersion::k90b983c, "90b983c", "90b983c", "2026-08-20", "upstream of August 2026"},
  };
  return versions;
}

const TflmVersionInfo& tflm_version_info(TflmVersion version) {
  const auto& all = tflm_versions();
  return *std::find_if(all.begin(), all.end(), [&](const TflmVersionInfo& v) { return v.version == version; });
}

std::string_view to_string(TflmVersion version) {
  return tflm_version_info(version).name;
}

std::optional<TflmVersion> parse_tflm_version(std::string_view text) {
  for (const TflmVersionInfo& v : tflm_versions())
    if (text == v.name) return v.version;
  return std::nullopt;
}

std::string tflm_version_name(TflmVersion version) {
  const TflmVersionInfo& v = tflm_version_info(version);
  if (v.name == v.commit) return "tflite-micro " + std::string(v.name);
  return "tflite-micro " + std::string(v.name) + " (" + std::string(v.commit.substr(0, 7)) + ")";
}

namespace {

// YYYY-MM-DD with a month 01-12 and a day 01-31 (ordered as text).
bool is_date(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  for (size_t k : {0, 1, 2, 3, 5, 6, 8, 9})
    if (text[k] < '0' || text[k] > '9') return false;
  const std::string_view month = text.substr(5, 2), day = text.substr(8, 2);
  return month >= "01" && month <= "12" && day >= "01" && day <= "31";
}

}  // namespace

std::optional<std::pair<TflmVersion, TflmVersion>> tflm_versions_around(std::string_view date) {
  if (!is_date(date)) return std::nullopt;
  const auto& all = tflm_versions();
  for (size_t k = 0; k + 1 < all.size(); ++k) {
    if (date > all[k].date && date < all[k + 1].date) return std::pair{all[k].version, all[k + 1].version};
  }
  return std::nullopt;
}

std::string tflm_version_names() {
  std::string out;
  for (const TflmVersionInfo& v : tflm_versions())
    out += (out.empty() ? "" : ", ") + std::string(v.name);
  return out;
}

}  // namespace usmpx
