#include "inputs/firmware/firmware_file.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "base/enum_names.h"
#include "base/input_error.h"
#include "base/json_locator.h"
#include "base/json_reader.h"
#include "base/text_file.h"
#include "base/text_join.h"
#include "inputs/input_kinds.h"

namespace usmpx {
namespace {

bool is_c_name_part(const std::string& s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

using Json = JsonReader::Json;
using Pointer = JsonReader::Pointer;

constexpr size_t kMaxModels = 64;

class FirmwareReader {
 public:
  FirmwareReader(std::string_view text, const std::string& file) : text_(text), file_(file), json_(text, file) {}

  FirmwareSpec read() {
    const Json& root = json_.root();
    const Pointer top("");
    json_.expect_document(std::string(kFirmwareFormat), kFirmwareVersion);
    json_.check_keys(root, top, {"format", "version", "models", "schedule", "passed", "memory", "tflm", "name"});
    FirmwareSpec spec;
    spec.path = file_;
    read_models(spec);
    const std::string schedule = json_.get_string(root, top, "schedule", "sequence");
    const auto parsed = parse_firmware_schedule(schedule);
    if (!parsed)
      json_.fail(top / "schedule", "unknown schedule \"" + schedule + "\" (sequence, exclusive, concurrent)");
    spec.schedule = *parsed;
    read_passed(spec);
    read_memory(spec);
    if (const Json* tflm = json_.member(root, "tflm")) {
      const Pointer at = top / "tflm";
      json_.expect_object(*tflm, at);
      json_.check_keys(*tflm, at, {"kernels", "target", "version"});
      spec.tflm_kernels = json_.get_string(*tflm, at, "kernels", "");
      spec.tflm_target = json_.get_string(*tflm, at, "target", "");
      spec.tflm_version = json_.get_string(*tflm, at, "version", "");
    }
    return spec;
  }

 private:
  SourceLocation where(const Pointer& at) const { return locate_json_value(text_, at, file_); }

  void read_models(FirmwareSpec& spec) const {
    const Pointer top("");
    const Json& models = json_.get_array(json_.root(), top, "models");
    if (models.empty()) json_.fail(top / "models", "a firmware needs at least one model");
    if (models.size() > kMaxModels) json_.fail(top / "models", "more than 64 models");
    const std::filesystem::path folder = std::filesystem::path(file_).parent_path();
    for (size_t i = 0; i < models.size(); ++i) {
      const Pointer at = top / "models" / i;
      json_.expect_object(models[i], at);
      json_.check_keys(models[i], at, {"name", "path", "module", "module_name", "family"});
      FirmwareModel m;
      m.path = json_.get_string(models[i], at, "path", std::nullopt);
      if (m.path.empty()) json_.fail(at / "path", "empty path");
      m.name = json_.get_string(models[i], at, "name", std::filesystem::path(m.path).stem().string());
      if (m.name.empty() || m.name.find('/') != std::string::npos)
        json_.fail(at / "name", "a model name must be non-empty and hold no '/'");
      if (spec.find_model(m.name)) json_.fail(at / "name", "duplicate model name \"" + m.name + "\"");
      m.module = json_.get_string(models[i], at, "module", "");
      m.module_name = json_.get_string(models[i], at, "module_name", "");
      if (!m.module_name.empty() && !is_c_name_part(m.module_name))
        json_.fail(at / "module_name", "a module name makes C names: letters, digits and '_' only");
      m.family = json_.get_string(models[i], at, "family", "");
      const std::vector<std::string> families = firmware_families();
      if (!m.family.empty() && std::find(families.begin(), families.end(), m.family) == families.end())
        json_.fail(at / "family", "unknown family \"" + m.family + "\" (" + join(families, ", ") + ")");
      m.where = where(at);
      const std::filesystem::path p(m.path);
      m.resolved_path = p.is_absolute() || folder.empty() ? p.string() : (folder / p).string();
      spec.models.push_back(std::move(m));
    }
  }

  std::string model_ref(const FirmwareSpec& spec, const Json& j, const Pointer& at, const std::string& key) const {
    const std::string name = json_.get_string(j, at, key, std::nullopt);
    if (!spec.find_model(name)) json_.fail(at / key, "no model named \"" + name + "\"");
    return name;
  }

  void read_passed(FirmwareSpec& spec) const {
    const Pointer top("");
    if (!json_.root().contains("passed")) return;
    std::set<std::pair<std::string, std::string>> inputs;
    json_.for_each_object(
        json_.root(), top, "passed", {"from", "output", "to", "input"}, [&](const Json& j, const Pointer& at) {
          PassedTensor p;
          p.from = model_ref(spec, j, at, "from");
          p.output = json_.get_string(j, at, "output", std::nullopt);
          p.to = model_ref(spec, j, at, "to");
          p.input = json_.get_string(j, at, "input", std::nullopt);
          p.where = where(at);
          if (spec.schedule != FirmwareSchedule::kSequence)
            json_.fail(at, "a tensor passes without a copy only in a sequence (the schedule is " +
                               std::string(to_string(spec.schedule)) + ")");
          if (*spec.find_model(p.from) >= *spec.find_model(p.to))
            json_.fail(at / "to", "\"" + p.to + "\" does not run after \"" + p.from + "\" in the sequence");
          if (!inputs.insert({p.to, p.input}).second)
            json_.fail(at / "input", "input \"" + p.input + "\" of \"" + p.to + "\" is already passed");
          spec.passed.push_back(std::move(p));
        });
  }

  int64_t size_of(const Json& j, const Pointer& at) const {
    const int64_t size = json_.get_int(j, at, "size_bytes", -1);
    if (size < -1 || size > (int64_t{1} << 40)) json_.fail(at / "size_bytes", "size out of range");
    return size;
  }

  void read_memory(FirmwareSpec& spec) const {
    const Pointer top("");
    const Json* memory = json_.member(json_.root(), "memory");
    if (!memory) return;
    const Pointer mem = top / "memory";
    json_.expect_object(*memory, mem);
    json_.check_keys(*memory, mem, {"shared", "private"});
    std::set<std::pair<std::string, std::string>> claimed;  // (model, pool) already in a shared pool
    if (memory->contains("shared")) {
      json_.for_each_object(
          *memory, mem, "shared", {"name", "size_bytes", "members"}, [&](const Json& j, const Pointer& at) {
            SharedPool pool = read_shared_pool(spec, j, at);
            for (const auto& member : pool.members) {
              if (!claimed.insert(member).second)
                json_.fail(at, "pool \"" + member.second + "\" of \"" + member.first + "\" is in two shared pools");
            }
            spec.shared.push_back(std::move(pool));
          });
    }
    if (memory->contains("private")) {
      json_.for_each_object(
          *memory, mem, "private", {"model", "pool", "size_bytes"}, [&](const Json& j, const Pointer& at) {
            PrivatePool pool;
            pool.model = model_ref(spec, j, at, "model");
            pool.pool = json_.get_string(j, at, "pool", std::nullopt);
            pool.size_bytes = size_of(j, at);
            if (claimed.count({pool.model, pool.pool}))
              json_.fail(at / "pool", "pool \"" + pool.pool + "\" of \"" + pool.model + "\" is shared");
            pool.where = where(at);
            spec.private_pools.push_back(std::move(pool));
          });
    }
  }

  SharedPool read_shared_pool(const FirmwareSpec& spec, const Json& j, const Pointer& at) const {
    SharedPool pool;
    pool.name = json_.get_string(j, at, "name", std::nullopt);
    if (pool.name.empty() || pool.name.find('/') != std::string::npos)
      json_.fail(at / "name", "a pool name must be non-empty and hold no '/'");
    for (const SharedPool& other : spec.shared) {
      if (other.name == pool.name) json_.fail(at / "name", "duplicate shared pool \"" + pool.name + "\"");
    }
    pool.size_bytes = size_of(j, at);
    if (const Json* members = json_.member(j, "members")) read_members(spec, *members, at / "members", pool);
    if (pool.members.empty()) {
      for (const FirmwareModel& m : spec.models)
        pool.members.emplace_back(m.name, pool.name);
    }
    pool.where = where(at);
    return pool;
  }

  // "members": {model: pool} or {model: [pools]}.
  void read_members(const FirmwareSpec& spec, const Json& members, const Pointer& mat, SharedPool& pool) const {
    json_.expect_object(members, mat);
    for (const auto& [model, local] : members.items()) {
      if (!spec.find_model(model)) json_.fail(mat / model, "no model named \"" + model + "\"");
      // One pool of the model, or several (methods of one ExecuTorch program sharing a memory id).
      if (local.is_array()) {
        for (size_t k = 0; k < local.size(); ++k) {
          if (!local[k].is_string()) json_.fail(mat / model / k, "expected the model's pool name");
          pool.members.emplace_back(model, local[k].get<std::string>());
        }
        if (local.empty()) json_.fail(mat / model, "expected the model's pool names");
      } else if (local.is_string()) {
        pool.members.emplace_back(model, local.get<std::string>());
      } else {
        json_.fail(mat / model, "expected the model's pool name");
      }
    }
  }

  std::string_view text_;
  std::string file_;
  JsonReader json_;
};

}  // namespace

constexpr EnumName<FirmwareSchedule> kScheduleNames[] = {{FirmwareSchedule::kSequence, "sequence"},
                                                         {FirmwareSchedule::kExclusive, "exclusive"},
                                                         {FirmwareSchedule::kConcurrent, "concurrent"}};

std::string_view to_string(FirmwareSchedule schedule) {
  return name_of(kScheduleNames, schedule);
}

std::optional<FirmwareSchedule> parse_firmware_schedule(std::string_view text) {
  return value_named(kScheduleNames, text);
}

std::optional<int> FirmwareSpec::find_model(std::string_view name) const {
  for (size_t i = 0; i < models.size(); ++i)
    if (models[i].name == name) return static_cast<int>(i);
  return std::nullopt;
}

FirmwareSpec parse_firmware_text(std::string_view text, const std::string& path) {
  return FirmwareReader(text, path).read();
}

FirmwareSpec read_firmware_file(const std::string& path) {
  const std::string text = read_text_file(path, 16u << 20);
  return parse_firmware_text(text, path);
}

std::string firmware_file_text(const FirmwareSpec& spec) {
  nlohmann::ordered_json root;
  root["format"] = std::string(kFirmwareFormat);
  root["version"] = kFirmwareVersion;
  root["schedule"] = std::string(to_string(spec.schedule));
  nlohmann::ordered_json models = nlohmann::ordered_json::array();
  for (const FirmwareModel& m : spec.models) {
    nlohmann::ordered_json j;
    j["name"] = m.name;
    j["path"] = m.path;
    if (!m.module.empty()) j["module"] = m.module;
    if (!m.module_name.empty()) j["module_name"] = m.module_name;
    if (!m.family.empty()) j["family"] = m.family;
    models.push_back(std::move(j));
  }
  root["models"] = std::move(models);
  if (!spec.passed.empty()) {
    nlohmann::ordered_json passed = nlohmann::ordered_json::array();
    for (const PassedTensor& p : spec.passed)
      passed.push_back({{"from", p.from}, {"output", p.output}, {"to", p.to}, {"input", p.input}});
    root["passed"] = std::move(passed);
  }
  nlohmann::ordered_json memory = nlohmann::ordered_json::object();
  if (!spec.shared.empty()) {
    nlohmann::ordered_json shared = nlohmann::ordered_json::array();
    for (const SharedPool& s : spec.shared) {
      nlohmann::ordered_json j;
      j["name"] = s.name;
      if (s.size_bytes >= 0) j["size_bytes"] = s.size_bytes;
      nlohmann::ordered_json members = nlohmann::ordered_json::object();
      for (const auto& [model, pool] : s.members) {
        if (!members.contains(model)) {
          members[model] = pool;
        } else {
          if (!members[model].is_array()) members[model] = nlohmann::ordered_json::array({members[model]});
          members[model].push_back(pool);
        }
      }
      j["members"] = std::move(members);
      shared.push_back(std::move(j));
    }
    memory["shared"] = std::move(shared);
  }
  if (!spec.private_pools.empty()) {
    nlohmann::ordered_json pools = nlohmann::ordered_json::array();
    for (const PrivatePool& p : spec.private_pools) {
      nlohmann::ordered_json j{{"model", p.model}, {"pool", p.pool}};
      if (p.size_bytes >= 0) j["size_bytes"] = p.size_bytes;
      pools.push_back(std::move(j));
    }
    memory["private"] = std::move(pools);
  }
  if (!memory.empty()) root["memory"] = std::move(memory);
  if (!spec.tflm_kernels.empty() || !spec.tflm_target.empty() || !spec.tflm_version.empty()) {
    nlohmann::ordered_json tflm = nlohmann::ordered_json::object();
    if (!spec.tflm_kernels.empty()) tflm["kernels"] = spec.tflm_kernels;
    if (!spec.tflm_target.empty()) tflm["target"] = spec.tflm_target;
    if (!spec.tflm_version.empty()) tflm["version"] = spec.tflm_version;
    root["tflm"] = std::move(tflm);
  }
  return root.dump(2) + "\n";
}

bool looks_like_firmware_file(const std::string& path, std::string_view text) {
  const auto ends_with = [&](std::string_view suffix) {
    return path.size() >= suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends_with(kFirmwareSuffix)) return true;
  if (!ends_with(".json")) return false;
  // The format is declared at the top ("format" is the first key the writer puts there).
  return text.substr(0, 512).find("\"usmpx-firmware\"") != std::string_view::npos;
}

}  // namespace usmpx
