#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace usmpx {

// The parts with `separator` between each two: {"a", "b"}, ", " -> "a, b".
inline std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string text;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) text += separator;
    text += parts[i];
  }
  return text;
}

}  // namespace usmpx
