#pragma once

#include <algorithm>
#include <cstddef>
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

// The first `most` parts joined with ", ", then ", ... (N in all)" when there are more.
inline std::string join_first(const std::vector<std::string>& parts, size_t most) {
  const std::vector<std::string> shown(parts.begin(),
                                       parts.begin() + static_cast<std::ptrdiff_t>(std::min(most, parts.size())));
  const std::string text = join(shown, ", ");
  return parts.size() > most ? text + ", ... (" + std::to_string(parts.size()) + " in all)" : text;
}

}  // namespace usmpx
