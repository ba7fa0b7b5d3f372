#include "model/diagnostic.h"

#include <map>
#include <tuple>

namespace usmpx {

std::string_view to_string(Severity severity) {
  switch (severity) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kNote: return "note";
  }
  return "error";
}

Diagnostic input_warning(std::string code, std::string message, SourceLocation at) {
  Diagnostic d;
  d.severity = Severity::kWarning;
  d.code = std::move(code);
  d.message = std::move(message);
  d.location = std::move(at);
  return d;
}

std::vector<DiagnosticGroup> group_diagnostics(const std::vector<Diagnostic>& diagnostics) {
  std::vector<DiagnosticGroup> groups;
  std::map<std::tuple<Severity, std::string, std::string>, size_t> index;
  for (const Diagnostic& d : diagnostics) {
    const auto [it, inserted] = index.try_emplace({d.severity, d.code, d.message}, groups.size());
    if (inserted) groups.push_back({d, 0});
    ++groups[it->second].count;
  }
  return groups;
}

}  // namespace usmpx
