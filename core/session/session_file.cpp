#include "session/session_file.h"

#include <filesystem>

#include "base/json_reader.h"
#include "model/pool_json.h"

namespace usmpx {

namespace fs = std::filesystem;
using Json = JsonReader::Json;
using Pointer = JsonReader::Pointer;

std::string write_session_json(const SessionFile& session, const std::string& session_path) {
  Json root;
  root["format"] = "usmpx-session";
  root["version"] = 1;
  root["input"] = session.input;
  std::error_code ec;
  const fs::path folder = fs::absolute(session_path, ec).parent_path();
  const fs::path relative = fs::relative(session.input, folder, ec);
  if (!ec && !relative.empty()) root["input_relative"] = relative.generic_string();
  if (!session.module.empty()) root["module"] = session.module;
  if (!session.runtime_kernels.empty()) root["runtime_kernels"] = session.runtime_kernels;
  if (!session.runtime_target.empty()) root["runtime_target"] = session.runtime_target;
  if (!session.runtime_version.empty()) root["runtime_version"] = session.runtime_version;
  root["algorithm"] = session.edits.algorithm;
  root["time_limit_seconds"] = session.edits.time_limit_seconds;
  Json pools = Json::array();
  for (const PoolSetting& setting : session.edits.pools) {
    Json j = pool_to_json(setting.pool);
    j["base"] = setting.base.empty() ? Json(nullptr) : Json(setting.base);
    pools.push_back(std::move(j));
  }
  root["pools"] = std::move(pools);
  Json pins = Json::array();
  for (const PinSpec& pin : session.edits.pins) {
    Json j;
    j["buffer"] = pin.buffer;
    j["pool"] = pin.pool;
    if (pin.offset) j["offset"] = *pin.offset;
    pins.push_back(std::move(j));
  }
  root["pins"] = std::move(pins);
  if (!session.view.column_widths.empty()) {
    Json columns = Json::array();
    for (const auto& [column, width] : session.view.column_widths)
      columns.push_back(Json{{"column", column}, {"width", width}});
    root["view"]["columns"] = std::move(columns);
  }
  return root.dump(2) + "\n";
}

SessionFile read_session_json(std::string_view text, const std::string& session_path) {
  const JsonReader json(text, session_path);
  const Json& root = json.root();
  const Pointer top("");
  json.expect_document("usmpx-session", 1);
  json.check_keys(root, top,
                  {"format", "version", "input", "input_relative", "module", "runtime_kernels", "runtime_target",
                   "runtime_version", "algorithm", "time_limit_seconds", "pools", "pins", "view"});
  SessionFile session;
  session.input = json.get_string(root, top, "input", std::nullopt);
  const std::string relative = json.get_string(root, top, "input_relative", "");
  std::error_code ec;
  if (!relative.empty() && !fs::exists(session.input, ec)) {
    const fs::path candidate = fs::absolute(session_path, ec).parent_path() / relative;
    if (fs::exists(candidate, ec)) session.input = candidate.lexically_normal().string();
  }
  session.module = json.get_string(root, top, "module", "");
  session.runtime_kernels = json.get_string(root, top, "runtime_kernels", "");
  session.runtime_target = json.get_string(root, top, "runtime_target", "");
  session.runtime_version = json.get_string(root, top, "runtime_version", "");
  session.edits.algorithm = json.get_string(root, top, "algorithm", "greedy_by_size");
  session.edits.time_limit_seconds = json.get_number(root, top, "time_limit_seconds", 5.0);
  if (!(session.edits.time_limit_seconds > 0)) json.fail(top / "time_limit_seconds", "must be positive");
  const Json& pools = json.get_array(root, top, "pools");
  for (size_t i = 0; i < pools.size(); ++i) {
    const Pointer at = top / "pools" / i;
    PoolSetting setting;
    setting.pool = read_pool_json(json, pools[i], at, {"base"});
    if (const Json* base = json.member(pools[i], "base"); base && !base->is_null()) {
      if (!base->is_string()) json.fail(at / "base", "\"base\" must be a pool name or null");
      setting.base = base->get<std::string>();
    }
    session.edits.pools.push_back(std::move(setting));
  }
  json.for_each_object(root, top, "pins", {"buffer", "pool", "offset"}, [&](const Json& j, const Pointer& at) {
    PinSpec pin;
    pin.buffer = json.get_string(j, at, "buffer", std::nullopt);
    pin.pool = json.get_string(j, at, "pool", std::nullopt);
    if (j.contains("offset")) {
      pin.offset = json.get_int(j, at, "offset", 0);
      if (*pin.offset < 0) json.fail(at / "offset", "offset must not be negative");
    }
    session.edits.pins.push_back(std::move(pin));
  });
  if (const Json* view = json.member(root, "view")) {
    const Pointer at = top / "view";
    json.expect_object(*view, at);
    json.check_keys(*view, at, {"columns"});
    json.for_each_object(*view, at, "columns", {"column", "width"}, [&](const Json& j, const Pointer& column) {
      const int64_t width = json.get_int(j, column, "width", std::nullopt);
      if (width < 1 || width > 10000) json.fail(column / "width", "width must be 1 to 10000 pixels");
      session.view.column_widths.emplace_back(json.get_string(j, column, "column", std::nullopt),
                                              static_cast<int>(width));
    });
  }
  return session;
}

}  // namespace usmpx
