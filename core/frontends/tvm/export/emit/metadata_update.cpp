#include "frontends/tvm/export/emit/metadata_update.h"

#include <nlohmann/json.hpp>

#include "export/export_error.h"

namespace usmpx {

std::string update_metadata_json(std::string_view original, const std::string& module, const MetadataMemory& memory) {
  // nlohmann::json keeps object keys in a std::map: sorted by bytes, as sort_keys sorts ASCII keys.
  nlohmann::json root = nlohmann::json::parse(original.begin(), original.end(), nullptr, false);
  if (root.is_discarded() || !root.is_object()) throw ExportError("metadata.json cannot be read back");
  nlohmann::json* mod = &root;
  if (root.contains("modules")) {
    if (!root["modules"].contains(module)) throw ExportError("metadata.json has no module '" + module + "'");
    mod = &root["modules"][module];
  }
  nlohmann::json& functions = (*mod)["memory"]["functions"];
  if (functions.contains("main") && functions["main"].is_array()) {
    for (nlohmann::json& main : functions["main"]) {
      main["workspace_size_bytes"] = memory.workspace_size_bytes;
      if (memory.constants_size_bytes) main["constants_size_bytes"] = *memory.constants_size_bytes;
    }
  }
  if (functions.contains("operator_functions") && functions["operator_functions"].is_array()) {
    for (nlohmann::json& op : functions["operator_functions"]) {
      if (!op.contains("function_name") || !op["function_name"].is_string()) continue;
      const auto it = memory.operator_workspace.find(op["function_name"].get<std::string>());
      if (it == memory.operator_workspace.end() || !op.contains("workspace")) continue;
      for (nlohmann::json& w : op["workspace"])
        w["workspace_size_bytes"] = it->second;
    }
  }
  return root.dump(2, ' ', true);
}

}  // namespace usmpx
