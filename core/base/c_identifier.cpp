#include "base/c_identifier.h"

#include <cctype>

namespace usmpx {

std::string c_macro_name(std::string_view text) {
  std::string macro;
  macro.reserve(text.size());
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    macro += std::isalnum(u) ? static_cast<char>(std::toupper(u)) : '_';
  }
  return macro;
}

}  // namespace usmpx
