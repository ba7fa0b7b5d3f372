#include "base/input_error.h"

namespace usmpx {

std::string format_location(const SourceLocation& location) {
  std::string out = location.file;
  if (location.line > 0) {
    out += ":" + std::to_string(location.line);
    if (location.column > 0) out += ":" + std::to_string(location.column);
  }
  return out;
}

InputError::InputError(SourceLocation location, const std::string& message)
    : std::runtime_error(format_location(location).empty() ? message : format_location(location) + ": " + message),
      location_(std::move(location)),
      message_(message) {}

SourceLocation location_in_text(std::string_view text, size_t offset, const std::string& file) {
  SourceLocation loc{file, 1, 1};
  const size_t end = std::min(offset, text.size());
  for (size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++loc.line;
      loc.column = 1;
    } else {
      ++loc.column;
    }
  }
  return loc;
}

}  // namespace usmpx
