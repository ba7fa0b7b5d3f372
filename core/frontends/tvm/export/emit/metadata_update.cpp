#include "frontends/tvm/export/emit/metadata_update.h"

#include <cctype>
#include <vector>

#include <nlohmann/json.hpp>

#include "export/export_error.h"
#include "frontends/tvm/export/rewrite/text_edits.h"

namespace usmpx {
namespace {

using Path = std::vector<std::string>;  // object keys and array indices from the root

constexpr int kMaxDepth = 512;  // deeper than nlohmann's parse accepts in practice; bounds recursion

// Finds the byte range of the scalar at each wanted path in a JSON text nlohmann already
// accepted: strings, numbers and literals are skipped token by token, containers walked.
class ValueFinder {
 public:
  ValueFinder(std::string_view text, const std::vector<Path>& wanted)
      : t_(text), wanted_(wanted), found_(wanted.size(), {0, 0}) {}

  std::vector<std::pair<size_t, size_t>> run() {
    size_t at = 0;
    Path path;
    value(at, path, 0);
    return found_;
  }

 private:
  void blanks(size_t& at) const {
    while (at < t_.size() && std::isspace(static_cast<unsigned char>(t_[at])))
      ++at;
  }

  std::string string(size_t& at) const {
    std::string out;
    ++at;  // the opening quote
    while (at < t_.size() && t_[at] != '"') {
      if (t_[at] == '\\' && at + 1 < t_.size()) {
        out += t_[at];
        ++at;
      }
      out += t_[at++];
    }
    ++at;  // the closing quote
    return out;
  }

  void value(size_t& at, Path& path, int depth) {
    blanks(at);
    if (at >= t_.size() || depth > kMaxDepth) return;
    const size_t begin = at;
    if (t_[at] == '{' || t_[at] == '[') {
      const bool object = t_[at] == '{';
      const char close = object ? '}' : ']';
      ++at;
      for (size_t index = 0;; ++index) {
        blanks(at);
        if (at >= t_.size() || t_[at] == close) break;
        std::string key = std::to_string(index);
        if (object) {
          key = string(at);  // keys TVM writes have no escapes; an escaped key simply never matches
          blanks(at);
          ++at;  // ':'
        }
        path.push_back(key);
        value(at, path, depth + 1);
        path.pop_back();
        blanks(at);
        if (at < t_.size() && t_[at] == ',') ++at;
      }
      ++at;
      return;
    }
    if (t_[at] == '"') {
      string(at);
    } else {
      while (at < t_.size() && t_[at] != ',' && t_[at] != '}' && t_[at] != ']' &&
             !std::isspace(static_cast<unsigned char>(t_[at])))
        ++at;
    }
    for (size_t w = 0; w < wanted_.size(); ++w) {
      if (wanted_[w] == path) found_[w] = {begin, at};
    }
  }

  std::string_view t_;
  const std::vector<Path>& wanted_;
  std::vector<std::pair<size_t, size_t>> found_;
};

}  // namespace

std::string update_metadata_json(std::string_view original, const std::string& module, const MetadataMemory& memory) {
  const nlohmann::json root = nlohmann::json::parse(original.begin(), original.end(), nullptr, false);
  if (root.is_discarded() || !root.is_object()) throw ExportError("metadata.json cannot be read back");
  Path base;
  const nlohmann::json* mod = &root;
  if (root.contains("modules")) {
    if (!root["modules"].contains(module)) throw ExportError("metadata.json has no module '" + module + "'");
    base = {"modules", module};
    mod = &root["modules"][module];
  }
  // Only numbers the file already holds change; nothing is added, nothing else is rewritten.
  std::vector<Path> paths;
  std::vector<int64_t> values;
  const auto want = [&](const nlohmann::json& holder, const std::string& key, Path path, int64_t value) {
    if (!holder.is_object() || !holder.contains(key) || !holder[key].is_number_integer()) return;
    if (holder[key].get<int64_t>() == value) return;
    path.push_back(key);
    paths.push_back(std::move(path));
    values.push_back(value);
  };
  if (!mod->contains("memory") || !(*mod)["memory"].contains("functions")) return std::string(original);
  const nlohmann::json& functions = (*mod)["memory"]["functions"];
  Path at = base;
  at.insert(at.end(), {"memory", "functions"});
  if (functions.contains("main") && functions["main"].is_array()) {
    for (size_t i = 0; i < functions["main"].size(); ++i) {
      Path main = at;
      main.insert(main.end(), {"main", std::to_string(i)});
      want(functions["main"][i], "workspace_size_bytes", main, memory.workspace_size_bytes);
      if (memory.constants_size_bytes)
        want(functions["main"][i], "constants_size_bytes", main, *memory.constants_size_bytes);
    }
  }
  if (functions.contains("operator_functions") && functions["operator_functions"].is_array()) {
    const nlohmann::json& ops = functions["operator_functions"];
    for (size_t i = 0; i < ops.size(); ++i) {
      const nlohmann::json& op = ops[i];
      if (!op.is_object() || !op.contains("function_name") || !op["function_name"].is_string()) continue;
      const auto it = memory.operator_workspace.find(op["function_name"].get<std::string>());
      if (it == memory.operator_workspace.end() || !op.contains("workspace") || !op["workspace"].is_array()) continue;
      for (size_t w = 0; w < op["workspace"].size(); ++w) {
        Path path = at;
        path.insert(path.end(), {"operator_functions", std::to_string(i), "workspace", std::to_string(w)});
        want(op["workspace"][w], "workspace_size_bytes", path, it->second);
      }
    }
  }
  if (paths.empty()) return std::string(original);
  const auto ranges = ValueFinder(original, paths).run();
  TextEdits edits;
  for (size_t i = 0; i < paths.size(); ++i) {
    if (ranges[i].second <= ranges[i].first) throw ExportError("metadata.json: a memory figure was not found");
    edits.replace(static_cast<uint32_t>(ranges[i].first), static_cast<uint32_t>(ranges[i].second),
                  std::to_string(values[i]));
  }
  return edits.apply(original);
}

}  // namespace usmpx
