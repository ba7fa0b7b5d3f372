#include "io/problem_json.h"

#include <set>

#include <nlohmann/json.hpp>

#include "io/input_error.h"
#include "io/json_locator.h"
#include "planners/lower_bound.h"

namespace usmpx {
namespace {

using Json = nlohmann::ordered_json;
using Pointer = nlohmann::json::json_pointer;

class ProblemReader {
 public:
  ProblemReader(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  Problem read() {
    try {
      root_ = Json::parse(text_.begin(), text_.end());
    } catch (const nlohmann::json::parse_error& e) {
      throw InputError(location_in_text(text_, e.byte > 0 ? e.byte - 1 : 0, file_), json_error_text(e));
    }
    const Pointer top("");
    expect_object(root_, top);
    const std::string format = get_string(root_, top, "format", "");
    if (format != "usmpx-problem") {
      fail(top / "format", "expected \"format\": \"usmpx-problem\"");
    }
    if (get_int(root_, top, "version", 0) != 1) fail(top / "version", "unsupported version (expected 1)");
    check_keys(root_, top, {"format", "version", "pools", "buffers", "memory_pressure", "name"});

    Problem problem;
    read_pools(problem);
    read_buffers(problem);
    if (root_.contains("memory_pressure")) {
      problem.memory_pressure = get_int(root_, top, "memory_pressure", 0);
    } else if (problem.interval_conflicts()) {
      problem.memory_pressure = total_lower_bound(problem).bytes;
    }
    return problem;
  }

 private:
  [[noreturn]] void fail(const Pointer& where, const std::string& message) const {
    throw InputError(locate_json_value(text_, where, file_), message);
  }

  static std::string json_error_text(const nlohmann::json::parse_error& e) {
    std::string what = e.what();
    const size_t pos = what.find("parse error");
    if (pos != std::string::npos) what = what.substr(pos);
    const size_t colon = what.find(": ");
    return colon == std::string::npos ? what : "JSON " + what.substr(colon + 2);
  }

  static std::string path_text(const Pointer& p) { return p.to_string(); }

  void expect_object(const Json& j, const Pointer& where) const {
    if (!j.is_object()) fail(where, "expected an object");
  }

  void check_keys(const Json& j, const Pointer& where, std::initializer_list<std::string_view> known) const {
    for (const auto& [key, value] : j.items()) {
      bool ok = false;
      for (std::string_view k : known) ok = ok || key == k;
      if (!ok) fail(where / key, "unknown key \"" + key + "\"");
    }
  }

  const Json* member(const Json& j, const std::string& key) const {
    auto it = j.find(key);
    return it == j.end() ? nullptr : &*it;
  }

  std::string get_string(const Json& j, const Pointer& where, const std::string& key,
                         std::optional<std::string> fallback) const {
    const Json* v = member(j, key);
    if (!v) {
      if (fallback) return *fallback;
      fail(where, "missing \"" + key + "\"");
    }
    if (!v->is_string()) fail(where / key, "\"" + key + "\" must be a string");
    return v->get<std::string>();
  }

  int64_t get_int(const Json& j, const Pointer& where, const std::string& key,
                  std::optional<int64_t> fallback) const {
    const Json* v = member(j, key);
    if (!v) {
      if (fallback) return *fallback;
      fail(where, "missing \"" + key + "\"");
    }
    if (!v->is_number_integer()) fail(where / key, "\"" + key + "\" must be an integer");
    return v->get<int64_t>();
  }

  bool get_bool(const Json& j, const Pointer& where, const std::string& key, bool fallback) const {
    const Json* v = member(j, key);
    if (!v) return fallback;
    if (!v->is_boolean()) fail(where / key, "\"" + key + "\" must be true or false");
    return v->get<bool>();
  }

  const Json& get_array(const Json& j, const Pointer& where, const std::string& key) const {
    const Json* v = member(j, key);
    if (!v) fail(where, "missing \"" + key + "\"");
    if (!v->is_array()) fail(where / key, "\"" + key + "\" must be an array");
    return *v;
  }

  void read_pools(Problem& problem) const {
    const Pointer top("");
    const Json& pools = get_array(root_, top, "pools");
    std::set<std::string> names;
    for (size_t i = 0; i < pools.size(); ++i) {
      const Pointer at = top / "pools" / i;
      const Json& j = pools[i];
      expect_object(j, at);
      check_keys(j, at, {"name", "kind", "size_hint_bytes", "alignment", "targets", "internal", "section"});
      Pool pool;
      pool.name = get_string(j, at, "name", std::nullopt);
      if (pool.name.empty()) fail(at / "name", "pool name must not be empty");
      if (!names.insert(pool.name).second) fail(at / "name", "duplicate pool name \"" + pool.name + "\"");
      const std::string kind = get_string(j, at, "kind", "workspace");
      const auto parsed = pool_kind_from_string(kind);
      if (!parsed) fail(at / "kind", "pool kind must be \"workspace\" or \"constant\"");
      pool.kind = *parsed;
      pool.size_hint_bytes = get_int(j, at, "size_hint_bytes", kUnrestrictedPoolSize);
      if (pool.size_hint_bytes < kUnrestrictedPoolSize) {
        fail(at / "size_hint_bytes", "size_hint_bytes must be -1 (unrestricted) or at least 0");
      }
      pool.alignment = get_int(j, at, "alignment", 16);
      if (pool.alignment < 1) fail(at / "alignment", "alignment must be at least 1");
      if (const Json* targets = member(j, "targets")) {
        if (!targets->is_object()) fail(at / "targets", "\"targets\" must map target names to \"rw\" or \"ro\"");
        for (const auto& [target, access] : targets->items()) {
          if (!access.is_string() || (access != "rw" && access != "ro")) {
            fail(at / "targets" / target, "access must be \"rw\" or \"ro\"");
          }
          pool.targets.push_back({target, access.get<std::string>()});
        }
      }
      pool.internal = get_bool(j, at, "internal", false);
      pool.section = get_string(j, at, "section", "");
      problem.pools.push_back(std::move(pool));
    }
  }

  int pool_index(const Problem& problem, const Json& name, const Pointer& at) const {
    if (!name.is_string()) fail(at, "expected a pool name");
    const auto index = problem.find_pool(name.get<std::string>());
    if (!index) fail(at, "unknown pool \"" + name.get<std::string>() + "\"");
    return *index;
  }

  void read_buffers(Problem& problem) const {
    const Pointer top("");
    const Json& buffers = get_array(root_, top, "buffers");
    std::map<std::string, int> index;
    bool any_conflicts = false;
    bool any_lifetime = false;
    for (size_t i = 0; i < buffers.size(); ++i) {
      const Pointer at = top / "buffers" / i;
      const Json& j = buffers[i];
      expect_object(j, at);
      const std::string name = get_string(j, at, "name", std::nullopt);
      if (name.empty()) fail(at / "name", "buffer name must not be empty");
      if (!index.emplace(name, static_cast<int>(i)).second) fail(at / "name", "duplicate buffer name \"" + name + "\"");
      any_conflicts = any_conflicts || j.contains("conflicts");
      any_lifetime = any_lifetime || j.contains("lifetime");
    }
    // Without lists or lifetimes nothing conflicts either way; call that explicit.
    problem.conflict_source =
        any_conflicts || !any_lifetime ? ConflictSource::kExplicit : ConflictSource::kLifetimes;
    for (size_t i = 0; i < buffers.size(); ++i) {
      problem.buffers.push_back(read_buffer(problem, buffers[i], top / "buffers" / i, index));
    }
  }

  Buffer read_buffer(const Problem& problem, const Json& j, const Pointer& at,
                     const std::map<std::string, int>& index) const {
    check_keys(j, at, {"name", "size_bytes", "alignment", "kind", "pool_candidates", "conflicts", "lifetime",
                       "pin", "origin", "dtype", "shape", "hint"});
    Buffer b;
    b.name = get_string(j, at, "name", std::nullopt);
    b.size_bytes = get_int(j, at, "size_bytes", std::nullopt);
    if (b.size_bytes < 0) fail(at / "size_bytes", "size_bytes must not be negative");
    b.alignment = get_int(j, at, "alignment", 1);
    if (b.alignment < 1) fail(at / "alignment", "alignment must be at least 1");
    const auto kind = buffer_kind_from_string(get_string(j, at, "kind", "intermediate"));
    if (!kind) fail(at / "kind", "kind must be one of intermediate, input, output, constant");
    b.kind = *kind;
    if (j.contains("pool_candidates")) {
      const Json& list = get_array(j, at, "pool_candidates");
      for (size_t k = 0; k < list.size(); ++k) {
        const int p = pool_index(problem, list[k], at / "pool_candidates" / k);
        if (std::find(b.pool_candidates.begin(), b.pool_candidates.end(), p) != b.pool_candidates.end()) {
          fail(at / "pool_candidates" / k, "pool listed twice");
        }
        b.pool_candidates.push_back(p);
      }
    } else {
      // Default: every pool of the matching kind, in file order.
      const PoolKind wanted = b.kind == BufferKind::kConstant ? PoolKind::kConstant : PoolKind::kWorkspace;
      for (size_t p = 0; p < problem.pools.size(); ++p) {
        if (problem.pools[p].kind == wanted) b.pool_candidates.push_back(static_cast<int>(p));
      }
    }
    if (j.contains("conflicts")) {
      const Json& list = get_array(j, at, "conflicts");
      for (size_t k = 0; k < list.size(); ++k) {
        if (!list[k].is_string()) fail(at / "conflicts" / k, "expected a buffer name");
        auto it = index.find(list[k].get<std::string>());
        if (it == index.end()) fail(at / "conflicts" / k, "unknown buffer \"" + list[k].get<std::string>() + "\"");
        b.conflicts.push_back(it->second);
      }
    }
    if (j.contains("lifetime")) {
      const Json& lt = get_array(j, at, "lifetime");
      if (lt.size() != 2 || !lt[0].is_number_integer() || !lt[1].is_number_integer()) {
        fail(at / "lifetime", "lifetime must be [first, last] with integer ticks");
      }
      const int64_t first = lt[0].get<int64_t>();
      const int64_t last = lt[1].get<int64_t>();
      if (last < first - 1) fail(at / "lifetime", "lifetime ends before it starts");
      b.lifetime = Lifetime::closed(first, last);
    }
    if (const Json* pin = member(j, "pin")) {
      expect_object(*pin, at / "pin");
      check_keys(*pin, at / "pin", {"pool", "offset"});
      Pin p;
      if (!pin->contains("pool")) fail(at / "pin", "a pin needs a \"pool\"");
      p.pool = pool_index(problem, (*pin)["pool"], at / "pin" / "pool");
      if (pin->contains("offset")) {
        p.offset = get_int(*pin, at / "pin", "offset", 0);
        if (*p.offset < 0) fail(at / "pin" / "offset", "offset must not be negative");
      }
      b.pin = p;
    }
    if (const Json* origin = member(j, "origin")) {
      expect_object(*origin, at / "origin");
      check_keys(*origin, at / "origin", {"function", "file", "line", "column"});
      b.origin.function = get_string(*origin, at / "origin", "function", "");
      b.origin.location.file = get_string(*origin, at / "origin", "file", "");
      b.origin.location.line = static_cast<int>(get_int(*origin, at / "origin", "line", 0));
      b.origin.location.column = static_cast<int>(get_int(*origin, at / "origin", "column", 0));
    }
    b.dtype = get_string(j, at, "dtype", "");
    if (j.contains("shape")) {
      const Json& shape = get_array(j, at, "shape");
      for (size_t k = 0; k < shape.size(); ++k) {
        if (!shape[k].is_number_integer()) fail(at / "shape" / k, "shape entries must be integers");
        b.shape.push_back(shape[k].get<int64_t>());
      }
    }
    if (j.contains("hint")) b.hint = get_int(j, at, "hint", 0);
    return b;
  }

  std::string_view text_;
  std::string file_;
  Json root_;
};

}  // namespace

Problem read_problem_json(std::string_view text, const std::string& file_name) {
  return ProblemReader(text, file_name).read();
}

std::string write_problem_json(const Problem& problem) {
  Json root;
  root["format"] = "usmpx-problem";
  root["version"] = 1;
  Json pools = Json::array();
  for (const Pool& p : problem.pools) {
    Json j;
    j["name"] = p.name;
    j["kind"] = std::string(to_string(p.kind));
    j["size_hint_bytes"] = p.size_hint_bytes;
    j["alignment"] = p.alignment;
    Json targets = Json::object();
    for (const PoolTarget& t : p.targets) targets[t.target] = t.access;
    j["targets"] = targets;
    j["internal"] = p.internal;
    if (!p.section.empty()) j["section"] = p.section;
    pools.push_back(std::move(j));
  }
  root["pools"] = std::move(pools);
  Json buffers = Json::array();
  const bool explicit_conflicts = !problem.interval_conflicts();
  for (const Buffer& b : problem.buffers) {
    Json j;
    j["name"] = b.name;
    j["size_bytes"] = b.size_bytes;
    j["alignment"] = b.alignment;
    j["kind"] = std::string(to_string(b.kind));
    Json candidates = Json::array();
    for (int p : b.pool_candidates) candidates.push_back(problem.pools[static_cast<size_t>(p)].name);
    j["pool_candidates"] = std::move(candidates);
    if (explicit_conflicts) {
      Json conflicts = Json::array();
      for (int c : b.conflicts) conflicts.push_back(problem.buffers[static_cast<size_t>(c)].name);
      j["conflicts"] = std::move(conflicts);
    }
    if (b.lifetime) j["lifetime"] = Json::array({b.lifetime->first(), b.lifetime->last()});
    if (b.pin) {
      Json pin;
      pin["pool"] = problem.pools[static_cast<size_t>(b.pin->pool)].name;
      if (b.pin->offset) pin["offset"] = *b.pin->offset;
      j["pin"] = std::move(pin);
    }
    if (b.origin != Origin{}) {
      Json origin;
      if (!b.origin.function.empty()) origin["function"] = b.origin.function;
      if (!b.origin.location.file.empty()) origin["file"] = b.origin.location.file;
      if (b.origin.location.line) origin["line"] = b.origin.location.line;
      if (b.origin.location.column) origin["column"] = b.origin.location.column;
      j["origin"] = std::move(origin);
    }
    if (!b.dtype.empty()) j["dtype"] = b.dtype;
    if (!b.shape.empty()) j["shape"] = b.shape;
    if (b.hint) j["hint"] = *b.hint;
    buffers.push_back(std::move(j));
  }
  root["buffers"] = std::move(buffers);
  root["memory_pressure"] = problem.memory_pressure;
  return root.dump(2) + "\n";
}

}  // namespace usmpx
