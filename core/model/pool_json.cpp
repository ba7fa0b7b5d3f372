#include "model/pool_json.h"

#include <vector>

namespace usmpx {

Pool read_pool_json(const JsonReader& reader, const JsonReader::Json& j, const JsonReader::Pointer& at,
                    std::initializer_list<std::string_view> extra_keys) {
  reader.expect_object(j, at);
  std::vector<std::string_view> known = {"name",    "kind",     "size_hint_bytes", "alignment",
                                         "targets", "internal", "section"};
  known.insert(known.end(), extra_keys.begin(), extra_keys.end());
  for (const auto& [key, value] : j.items()) {
    if (std::find(known.begin(), known.end(), key) == known.end()) reader.fail(at / key, "unknown key \"" + key + "\"");
  }
  Pool pool;
  pool.name = reader.get_string(j, at, "name", std::nullopt);
  if (pool.name.empty()) reader.fail(at / "name", "pool name must not be empty");
  const auto kind = pool_kind_from_string(reader.get_string(j, at, "kind", "workspace"));
  if (!kind) reader.fail(at / "kind", "pool kind must be \"workspace\" or \"constant\"");
  pool.kind = *kind;
  pool.size_hint_bytes = reader.get_int(j, at, "size_hint_bytes", kUnrestrictedPoolSize);
  if (pool.size_hint_bytes < kUnrestrictedPoolSize) {
    reader.fail(at / "size_hint_bytes", "size_hint_bytes must be -1 (unrestricted) or at least 0");
  }
  pool.alignment = reader.get_int(j, at, "alignment", 16);
  if (pool.alignment < 1) reader.fail(at / "alignment", "alignment must be at least 1");
  if (const auto* targets = reader.member(j, "targets")) {
    if (!targets->is_object()) reader.fail(at / "targets", "\"targets\" must map target names to \"rw\" or \"ro\"");
    for (const auto& [target, access] : targets->items()) {
      if (!access.is_string() || (access != "rw" && access != "ro")) {
        reader.fail(at / "targets" / target, "access must be \"rw\" or \"ro\"");
      }
      pool.targets.push_back({target, access.get<std::string>()});
    }
  }
  pool.internal = reader.get_bool(j, at, "internal", false);
  pool.section = reader.get_string(j, at, "section", "");
  return pool;
}

JsonReader::Json pool_to_json(const Pool& pool) {
  JsonReader::Json j;
  j["name"] = pool.name;
  j["kind"] = std::string(to_string(pool.kind));
  j["size_hint_bytes"] = pool.size_hint_bytes;
  j["alignment"] = pool.alignment;
  JsonReader::Json targets = JsonReader::Json::object();
  for (const PoolTarget& t : pool.targets)
    targets[t.target] = t.access;
  j["targets"] = targets;
  j["internal"] = pool.internal;
  if (!pool.section.empty()) j["section"] = pool.section;
  return j;
}

}  // namespace usmpx
