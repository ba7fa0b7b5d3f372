#pragma once

#include <stdexcept>
#include <string>

#include "base/source_location.h"

namespace usmpx {

// "file:line:column" (or fewer parts when unknown).
std::string format_location(const SourceLocation& location);

// Unreadable or malformed input. what() reads "file:line:column: message".
class InputError : public std::runtime_error {
 public:
  InputError(SourceLocation location, const std::string& message);
  const SourceLocation& location() const { return location_; }
  const std::string& message() const { return message_; }

 private:
  SourceLocation location_;
  std::string message_;
};

// 1-based line and column of a byte offset in a text.
SourceLocation location_in_text(std::string_view text, size_t offset, const std::string& file);

}  // namespace usmpx
