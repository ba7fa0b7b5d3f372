#include "frontends/tvm/mlf/metadata.h"

#include <nlohmann/json.hpp>

#include "base/input_error.h"
#include "base/json_locator.h"
#include "base/json_reader.h"

namespace usmpx {
namespace {

using Json = nlohmann::ordered_json;
using Pointer = nlohmann::json::json_pointer;

class MetadataReader {
 public:
  MetadataReader(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  MlfMetadata read() {
    root_ = parse_json_text(text_, file_);
    const Pointer top("");
    if (!root_.is_object()) fail(top, "metadata.json: expected an object");
    MlfMetadata meta;
    const Json* version = root_.contains("version") ? &root_["version"] : nullptr;
    if (!version) fail(top, "metadata.json has no \"version\"");
    if (!version->is_number_integer()) fail(top / "version", "\"version\" must be an integer");
    meta.version = version->get<int>();
    if (meta.version < 1 || meta.version > 7) {
      fail(top / "version", "unsupported MLF version " + std::to_string(meta.version) + " (expected 1 to 7)");
    }
    if (root_.contains("modules")) {
      const Pointer at = top / "modules";
      const Json& modules = root_["modules"];
      if (!modules.is_object()) fail(at, "\"modules\" must be an object");
      if (modules.empty()) fail(at, "\"modules\" is empty");
      for (const auto& [name, module] : modules.items()) {
        MlfModuleMetadata m = read_module(module, at / name, meta.version);
        m.name = name;
        meta.modules.push_back(std::move(m));
      }
    } else {
      if (meta.version >= 7) fail(top, "MLF version 7 metadata needs a \"modules\" object");
      MlfModuleMetadata m = read_module(root_, top, meta.version);
      m.name = string_or(root_, top, "model_name", "default");
      meta.modules.push_back(std::move(m));
    }
    return meta;
  }

 private:
  [[noreturn]] void fail(const Pointer& where, const std::string& message) const {
    throw InputError(locate_json_value(text_, where, file_), message);
  }

  std::string string_or(const Json& j, const Pointer& at, const std::string& key, const std::string& fallback) const {
    if (!j.contains(key)) return fallback;
    if (!j[key].is_string()) fail(at / key, "\"" + key + "\" must be a string");
    return j[key].get<std::string>();
  }

  int64_t int_or(const Json& j, const Pointer& at, const std::string& key, int64_t fallback) const {
    if (!j.contains(key)) return fallback;
    if (!j[key].is_number_integer()) fail(at / key, "\"" + key + "\" must be an integer");
    return j[key].get<int64_t>();
  }

  std::vector<std::string> strings(const Json& j, const Pointer& at) const {
    if (!j.is_array()) fail(at, "expected a list of strings");
    std::vector<std::string> out;
    for (size_t i = 0; i < j.size(); ++i) {
      if (!j[i].is_string()) fail(at / i, "expected a string");
      out.push_back(j[i].get<std::string>());
    }
    return out;
  }

  std::vector<MlfTensor> tensors(const Json& j, const Pointer& at) const {
    if (!j.is_object()) fail(at, "expected an object of tensors");
    std::vector<MlfTensor> out;
    for (const auto& [name, value] : j.items()) {
      const Pointer here = at / name;
      if (!value.is_object()) fail(here, "expected {\"dtype\": ..., \"size\": ...}");
      MlfTensor t;
      t.name = name;
      t.dtype = string_or(value, here, "dtype", "");
      t.size_bytes = int_or(value, here, "size", -1);
      if (value.contains("size") && t.size_bytes < 0) fail(here / "size", "\"size\" must not be negative");
      out.push_back(std::move(t));
    }
    return out;
  }

  MlfModuleMetadata read_module(const Json& j, const Pointer& at, int version) const {
    if (!j.is_object()) fail(at, "expected a module object");
    MlfModuleMetadata m;
    m.style = string_or(j, at, "style", "");
    const char* executors_key = j.contains("executors") ? "executors" : "runtimes";
    if (j.contains(executors_key)) m.executors = strings(j[executors_key], at / executors_key);
    if (j.contains("target")) {
      const Json& target = j["target"];
      if (target.is_array()) {
        m.targets = strings(target, at / "target");
      } else if (target.is_object()) {  // v1-v5: {"<device type>": "<target>"}
        for (const auto& [device, value] : target.items()) {
          if (!value.is_string()) fail(at / "target" / device, "expected a target string");
          m.targets.push_back(value.get<std::string>());
        }
      } else if (target.is_string()) {
        m.targets.push_back(target.get<std::string>());
      } else {
        fail(at / "target", "\"target\" must be a list or an object of target strings");
      }
    }
    if (j.contains("memory") && j["memory"].is_object() && j["memory"].contains("functions")) {
      read_functions(j["memory"]["functions"], at / "memory" / "functions", m);
    } else if (j.contains("memory") && version >= 2 && m.style != "operator" && !j["memory"].is_object()) {
      fail(at / "memory", "\"memory\" must be an object");
    }
    return m;
  }

  void read_functions(const Json& j, const Pointer& at, MlfModuleMetadata& m) const {
    if (!j.is_object()) fail(at, "\"functions\" must be an object");
    if (j.contains("main")) {
      const Json& main = j["main"];
      if (!main.is_array()) fail(at / "main", "\"main\" must be a list");
      if (!main.empty()) {
        const Pointer first = at / "main" / 0;
        const Json& entry = main[0];
        if (!entry.is_object()) fail(first, "expected an object");
        m.workspace_size_bytes = int_or(entry, first, "workspace_size_bytes", -1);
        m.constants_size_bytes = int_or(entry, first, "constants_size_bytes", -1);
        m.io_size_bytes = int_or(entry, first, "io_size_bytes", -1);
        if (entry.contains("inputs")) m.inputs = tensors(entry["inputs"], first / "inputs");
        if (entry.contains("outputs")) m.outputs = tensors(entry["outputs"], first / "outputs");
      }
    }
    if (j.contains("operator_functions")) {
      const Json& ops = j["operator_functions"];
      const Pointer ops_at = at / "operator_functions";
      if (!ops.is_array()) fail(ops_at, "\"operator_functions\" must be a list");
      for (size_t i = 0; i < ops.size(); ++i) {
        const Json& op = ops[i];
        if (!op.is_object()) fail(ops_at / i, "expected an object");
        MlfOperatorWorkspace w;
        w.function = string_or(op, ops_at / i, "function_name", "");
        if (op.contains("workspace") && op["workspace"].is_array() && !op["workspace"].empty()) {
          w.workspace_size_bytes = int_or(op["workspace"][0], ops_at / i / "workspace" / 0, "workspace_size_bytes", 0);
        }
        m.operators.push_back(std::move(w));
      }
    }
  }

  std::string_view text_;
  const std::string& file_;
  Json root_;
};

}  // namespace

MlfMetadata read_mlf_metadata(std::string_view text, const std::string& file) {
  return MetadataReader(text, file).read();
}

}  // namespace usmpx
