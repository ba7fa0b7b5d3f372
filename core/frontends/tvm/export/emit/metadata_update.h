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

// metadata.json with the module's memory figures that differ from `memory` edited in place: only
// the digits of those numbers change, every other byte (formatting, key order, other modules)
// stays. Figures the file does not hold are not added.
std::string update_metadata_json(std::string_view original, const std::string& module, const MetadataMemory& memory);

}  // namespace usmpx
