#include "export/export_error.h"

#include "base/input_error.h"

namespace usmpx {

ExportError::ExportError(SourceLocation location, const std::string& message)
    : std::runtime_error(format_location(location).empty() ? message : format_location(location) + ": " + message),
      location_(std::move(location)),
      message_(message) {}

ExportError ExportError::unsupported(const SourceLocation& location, std::string_view construct) {
  return ExportError(location, std::string(construct) + " is not supported by the C export");
}

}  // namespace usmpx
