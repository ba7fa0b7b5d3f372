#include "frontends/tvm/mlf/model_notes.h"

#include <algorithm>
#include <string>
#include <vector>

#include "base/text_join.h"
#include "frontends/tvm/c_analysis/tvm_era.h"

namespace usmpx {
namespace {

Diagnostic about_input(const MlfModel& model, Severity severity, const std::string& code, std::string message) {
  Diagnostic d;
  d.severity = severity;
  d.code = code;
  d.location = {model.package->path, 0, 0};
  d.message = std::move(message);
  return d;
}

}  // namespace

std::optional<Diagnostic> firmware_tree_note(const MlfModel& model, bool has_relay) {
  const FirmwareModuleFiles* files = nullptr;
  for (const FirmwareModuleFiles& f : model.package->firmware.modules) {
    if (f.name == model.module) files = &f;
  }
  if (!files) return std::nullopt;
  const TvmCode& code = model.code;
  std::string text = files->entry_file.empty()
                         ? "firmware tree without metadata.json: module '" + model.module + "' named by " +
                               files->header + " and " + std::to_string(files->sources.size()) + " library files"
                         : "C library without metadata.json: module '" + model.module + "' recognised by " +
                               files->entry_file + ", which defines " + files->entry + " (" +
                               std::to_string(files->sources.size()) +
                               (files->sources.size() == 1 ? " C file" : " C files") + ")";
  // What TVM writes beside the operators and the tree lacks, said here once.
  std::vector<std::string> missing;
  if (!files->has_lib0) {
    missing.push_back(model.module + "_lib0.c (TVM's run wrapper and internal pools: " +
                      (code.usmp() ? "pool sizes taken from where their buffers end)" : "not needed to plan)"));
  }
  if (files->header.empty())
    missing.push_back("tvmgen_" + model.module + ".h (inputs and outputs taken from the entry's parameters)");
  for (size_t i = 0; i < missing.size(); ++i)
    text += (i == 0 ? "; not found: " : ", ") + missing[i];
  text += std::string("; pools from ") +
          (code.usmp() ? "the C (USMP on)" : "TVM's defaults and the pool options (USMP off)") +
          "; inputs and outputs from " +
          (code.inputs.empty() && code.outputs.empty() ? "the entry's parameters" : "the header");
  const std::string& version = model.package->tvm_version;
  const std::string era = tvm_era_of_code(model.program, code);
  if (!version.empty()) {
    text += "; TVM " + version + " (the bundled runtime header)";
  } else if (!era.empty()) {
    text += "; TVM " + era + " (judged by the code's style)";
  }
  std::vector<std::string> unknown;
  if (!has_relay) unknown.emplace_back("the Relay types");
  if (code.io_sizes.empty()) unknown.emplace_back("the I/O sizes (taken from the code)");
  if (version.empty() && era.empty()) unknown.emplace_back("the TVM release");
  for (size_t i = 0; i < unknown.size(); ++i)
    text += (i == 0 ? "; not known: " : ", ") + unknown[i];
  for (const std::string& ignored : model.package->firmware.ignored)
    text += "; " + ignored;
  return about_input(model, Severity::kNote, "mlf-firmware-tree", std::move(text));
}

std::optional<Diagnostic> assumed_lifetimes_warning(const MlfModel& model, int64_t cost) {
  int count = 0;
  int64_t bytes = 0;
  std::string names;
  for (const Buffer& b : model.problem.buffers) {
    if (!b.lifetime_assumed) continue;
    if (++count <= 6) names += (names.empty() ? "'" : ", '") + b.name + "'";
    bytes += b.size_bytes;
  }
  if (count == 0) return std::nullopt;
  if (count > 6) names += ", ...";
  return about_input(model, Severity::kWarning, "mlf-assumed-lifetime",
                     std::to_string(count) + (count == 1 ? " buffer" : " buffers") + " (" + std::to_string(bytes) +
                         " bytes) whose lifetime the analysis cannot establish " + (count == 1 ? "is" : "are") +
                         " planned live for the whole run (" + names + "); this raises the memory pressure by " +
                         std::to_string(std::max<int64_t>(0, cost)) + " bytes");
}

std::optional<Diagnostic> kept_allocations_note(const MlfModel& model) {
  const std::vector<KeptAllocation>& kept = model.walk.kept;
  if (kept.empty()) return std::nullopt;
  int64_t bytes = 0;
  std::string items;
  for (size_t i = 0; i < kept.size(); ++i) {
    bytes += model.code.allocs[static_cast<size_t>(kept[i].alloc)].nbytes;
    if (i < 6) items += (i ? "; '" : "'") + kept[i].name + "': " + kept[i].reason;
  }
  if (kept.size() > 6) items += "; ... (" + std::to_string(kept.size()) + " in all)";
  const bool one = kept.size() == 1;
  return about_input(model, Severity::kNote, "mlf-kept-allocation",
                     std::to_string(kept.size()) + (one ? " workspace allocation (" : " workspace allocations (") +
                         std::to_string(bytes) + " bytes) whose extent or lifetime the analysis cannot bound " +
                         (one ? "stays" : "stay") +
                         " with TVM's allocator, each a block of its own as in the original, and " +
                         (one ? "is" : "are") + " not planned: " + items);
}

std::optional<Diagnostic> grown_allocations_note(const MlfModel& model, const std::vector<std::string>& grown) {
  if (grown.empty()) return std::nullopt;
  const std::string items = join_first(grown, 8);
  return about_input(model, Severity::kNote, "mlf-allocation-overrun",
                     std::to_string(grown.size()) + (grown.size() == 1 ? " allocation's" : " allocations'") +
                         " accesses reach past the bytes TVMBackendAllocWorkspace asks for; planned at the size "
                         "the accesses reach (bytes): " +
                         items);
}

}  // namespace usmpx
