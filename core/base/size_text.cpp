#include "base/size_text.h"

#include <algorithm>
#include <cstdio>

namespace usmpx {
namespace {

constexpr int64_t kKiB = 1024;
constexpr int64_t kMiB = 1024 * 1024;
constexpr int64_t kGiB = 1024 * kMiB;
constexpr int64_t kPlainBelow = 10000;

// "37.5", "16" (not "16.0"): whole numbers without decimals.
std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  std::string s = text;
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0')
      s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

}  // namespace

std::string with_separators(int64_t value) {
  const uint64_t magnitude = value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  std::string digits = std::to_string(magnitude);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
    digits.insert(static_cast<size_t>(i), ",");
  return (value < 0 ? "-" : "") + digits;
}

namespace {

// `bytes` in the unit format_size gives `unit_of`.
std::string in_unit_of(int64_t bytes, int64_t unit_of) {
  if (unit_of < kPlainBelow) return with_separators(bytes) + " B";
  if (unit_of < kMiB) return fixed(static_cast<double>(bytes) / kKiB, 1) + " KiB";
  if (unit_of < kGiB) return fixed(static_cast<double>(bytes) / kMiB, 2) + " MiB";
  return fixed(static_cast<double>(bytes) / kGiB, 2) + " GiB";
}

}  // namespace

std::string format_size(int64_t bytes) {
  if (bytes < 0) return "unlimited";
  return in_unit_of(bytes, bytes);
}

std::string format_size_alike(int64_t bytes, int64_t other) {
  if (bytes < 0) return "unlimited";
  return in_unit_of(bytes, std::max(bytes, other));
}

std::string format_size_exact(int64_t bytes) {
  if (bytes < kPlainBelow) return format_size(bytes);
  return format_size(bytes) + " (" + with_separators(bytes) + " B)";
}

std::string format_gap(int64_t size, int64_t bound) {
  if (bound <= 0) return "-";
  const double percent = 100.0 * static_cast<double>(size - bound) / static_cast<double>(bound);
  if (size > bound && percent < 0.05) return "<0.1%";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", percent);
  return text;
}

std::string format_size_delta(int64_t bytes) {
  if (bytes == 0) return "\u00b10 B";
  const uint64_t magnitude = bytes < 0 ? 0 - static_cast<uint64_t>(bytes) : static_cast<uint64_t>(bytes);
  return (bytes < 0 ? "\u2212" : "+") + format_size(static_cast<int64_t>(magnitude));
}

}  // namespace usmpx
