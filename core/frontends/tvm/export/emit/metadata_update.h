#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace usmpx {

// New memory figures of one module after re-planning.
struct MetadataMemory {
  int64_t workspace_size_bytes = 0;                   // main: largest operator workspace + workspace pools
  std::optional<int64_t> constants_size_bytes;        // main: the constant pools, when there are any
  std::map<std::string, int64_t> operator_workspace;  // function name -> its remaining workspace
};

// metadata.json with the module's memory figures replaced and everything else kept, written as
// TVM writes it (Python's json.dump with indent=2, sort_keys=True: two-space indent, keys in
// byte order, non-ASCII escaped, no final newline). Versions 1-6 keep their flat form.
std::string update_metadata_json(std::string_view original, const std::string& module, const MetadataMemory& memory);

}  // namespace usmpx
