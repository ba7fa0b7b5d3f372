#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/buffer.h"

namespace usmpx {

enum class Severity { kError, kWarning, kNote };

std::string_view to_string(Severity severity);

// A finding about a problem or a plan, pointing at the buffers and pool it is about.
struct Diagnostic {
  Severity severity = Severity::kError;
  std::string code;  // stable identifier, e.g. "overlap", "pool-overflow", "planner-error"
  std::string message;
  std::vector<int> buffers;  // indices into Problem::buffers
  int pool = -1;             // index into Problem::pools, -1 when not about one pool
  SourceLocation location;   // where in the input, when known

  bool operator==(const Diagnostic&) const = default;
};

// A warning about the input (the reader could not use something but did not reject it), at `at`
// when known.
Diagnostic input_warning(std::string code, std::string message, SourceLocation at = {});

// Diagnostics that say the same thing (severity, code and message) once, with how often and
// where first; in the order of first appearance.
struct DiagnosticGroup {
  Diagnostic first;
  int count = 0;
};
std::vector<DiagnosticGroup> group_diagnostics(const std::vector<Diagnostic>& diagnostics);

}  // namespace usmpx
