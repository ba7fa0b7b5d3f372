#include "frontends/tvm/export/emit/shared_pool_export.h"

#include <algorithm>

#include "base/c_identifier.h"

namespace usmpx {
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Replaces `static uint8_t <pool>[N];` in `code` by a declaration of the shared array; returns the
// attribute line before it in `attribute`; false when the definition is not there.
bool redirect(std::string& code, const std::string& pool, const std::string& shared, std::string& attribute) {
  const std::string definition = "static uint8_t " + pool + "[";
  const size_t at = code.find(definition);
  if (at == std::string::npos) return false;
  const size_t end = code.find("];", at);
  if (end == std::string::npos || code.find('\n', at) < end) return false;
  const size_t line_start = at == 0 ? 0 : code.rfind('\n', at - 1);
  if (line_start != std::string::npos && line_start > 0) {
    const size_t previous = code.rfind('\n', line_start - 1);
    const std::string line = code.substr(previous == std::string::npos ? 0 : previous + 1,
                                         line_start - (previous == std::string::npos ? 0 : previous + 1));
    if (line.rfind("__attribute__", 0) == 0) attribute = line;
  }
  code.replace(at, end + 2 - at,
               "extern uint8_t " + shared + "[]; /* one array for every module (usmpx_firmware.c) */\n#define " + pool +
                   " " + shared);
  return true;
}

}  // namespace

std::string share_tvm_pools(const std::vector<FirmwareSharedPool>& pools, ExportBundle& bundle) {
  std::string header;
  std::string definitions;
  for (const FirmwareSharedPool& s : pools) {
    if (s.members.empty()) continue;
    const int64_t size = s.size_bytes;
    const std::string shared = "usmpx_firmware_" + s.name;
    std::string attribute;
    int internal = 0;
    for (const auto& [model, local] : s.members) {
      for (ExportFile& f : bundle.files) {
        if (f.path.rfind(model + "/", 0) != 0 || !ends_with(f.path, "_lib0.c")) continue;
        if (redirect(f.data, local, shared, attribute)) {
          ++internal;
          if (std::find(bundle.changed.begin(), bundle.changed.end(), f.path) == bundle.changed.end())
            bundle.changed.push_back(f.path);
        }
      }
    }
    header += "/* Workspace pool \"" + s.name + "\", shared by the TVM modules";
    header += internal > 0 ? ": defined once in usmpx_firmware.c */\n"
                           : ": pass the same array of this size to every module's run function */\n";
    header += "#define USMPX_" + c_macro_name(s.name) + "_SIZE " + std::to_string(size) + "\n";
    if (internal > 0) {
      definitions +=
          (attribute.empty() ? "" : attribute + "\n") + "uint8_t " + shared + "[" + std::to_string(size) + "];\n";
    }
  }
  if (!definitions.empty()) {
    bundle.put("usmpx_firmware.c",
               "/* Written by usmpx: the workspace pools the firmware's TVM modules share, defined once. */\n"
               "#include <stdint.h>\n" +
                   definitions);
    bundle.changed.push_back("usmpx_firmware.c");
  }
  return header;
}

}  // namespace usmpx
