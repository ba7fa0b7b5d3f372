#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "model/buffer.h"

// The error the export raises for a construct it cannot emit, or for an input (module, plan,
// target) that does not fit together. what() reads "file:line:column: message", like InputError,
// or just the message when there is no position.
namespace usmpx {

class ExportError : public std::runtime_error {
 public:
  ExportError(SourceLocation location, const std::string& message);
  explicit ExportError(const std::string& message, SourceLocation location = {})
      : ExportError(std::move(location), message) {}

  // "<construct> is not supported by the C export" at `location`.
  static ExportError unsupported(const SourceLocation& location, std::string_view construct);

  const SourceLocation& location() const { return location_; }
  const std::string& message() const { return message_; }

 private:
  SourceLocation location_;
  std::string message_;
};

}  // namespace usmpx
