#pragma once

#include <stdexcept>
#include <string>

#include "io/input_error.h"
#include "model/buffer.h"

namespace usmpx {

// An input, plan or option the exporter cannot turn into firmware sources. what() reads
// "file:line:column: message" when the construct has a position, else just the message.
class ExportError : public std::runtime_error {
 public:
  explicit ExportError(const std::string& message, SourceLocation location = {})
      : std::runtime_error(location.file.empty() ? message : format_location(location) + ": " + message),
        location_(std::move(location)) {}
  const SourceLocation& location() const { return location_; }

 private:
  SourceLocation location_;
};

}  // namespace usmpx
