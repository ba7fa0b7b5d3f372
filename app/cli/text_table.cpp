#include "text_table.h"

#include <algorithm>
#include <cstdio>

namespace usmpx::cli {

std::string format_bytes(int64_t bytes) {
  if (bytes < 0) return "-";
  std::string digits = std::to_string(bytes);
  std::string out;
  const size_t n = digits.size();
  for (size_t i = 0; i < n; ++i) {
    out += digits[i];
    if ((n - i - 1) % 3 == 0 && i + 1 < n) out += ',';
  }
  return out;
}

std::string format_percent(double numerator, double denominator) {
  if (denominator <= 0) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", 100.0 * numerator / denominator);
  return text;
}

std::string format_ms(double ms) {
  char text[32];
  std::snprintf(text, sizeof text, ms < 10 ? "%.2f" : "%.0f", ms);
  return text;
}

}  // namespace usmpx::cli
