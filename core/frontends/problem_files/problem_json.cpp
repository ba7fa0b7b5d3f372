#include "frontends/problem_files/problem_json.h"

#include <set>

#include <nlohmann/json.hpp>

#include "base/input_error.h"
#include "base/json_reader.h"
#include "model/live_bytes.h"
#include "model/pool_json.h"
#include "model/problem_limits.h"

namespace usmpx {
namespace {

using Json = JsonReader::Json;
using Pointer = JsonReader::Pointer;

class ProblemReader {
 public:
  ProblemReader(std::string_view text, const std::string& file) : json_(text, file) {}

  Problem read() {
    const Json& root = json_.root();
    const Pointer top("");
    json_.expect_document("usmpx-problem", 1);
    json_.check_keys(root, top, {"format", "version", "pools", "buffers", "memory_pressure", "name", "timeline"});

    Problem problem;
    read_pools(problem);
    read_buffers(problem);
    read_timeline(problem);
    if (auto error = problem_limit_error(problem)) json_.fail(top / "buffers", *error);
    if (root.contains("memory_pressure")) {
      problem.memory_pressure = json_.get_int(root, top, "memory_pressure", 0);
    } else if (problem.interval_conflicts()) {
      problem.memory_pressure = lifetime_memory_pressure(problem);
    }
    return problem;
  }

 private:
  void read_pools(Problem& problem) const {
    const Pointer top("");
    const Json& pools = json_.get_array(json_.root(), top, "pools");
    std::set<std::string> names;
    for (size_t i = 0; i < pools.size(); ++i) {
      const Pointer at = top / "pools" / i;
      Pool pool = read_pool_json(json_, pools[i], at);
      if (!names.insert(pool.name).second) json_.fail(at / "name", "duplicate pool name \"" + pool.name + "\"");
      problem.pools.push_back(std::move(pool));
    }
  }

  void read_timeline(Problem& problem) const {
    const Pointer top("");
    if (!json_.root().contains("timeline")) return;
    json_.for_each_object(json_.root(), top, "timeline", {"first", "last", "label"},
                          [&](const Json& j, const Pointer& at) {
                            TimelineSpan span;
                            span.first = json_.get_int(j, at, "first", std::nullopt);
                            span.last = json_.get_int(j, at, "last", std::nullopt);
                            if (span.last < span.first)
                              json_.fail(at / "last", "a timeline span ends before it starts");
                            span.label = json_.get_string(j, at, "label", std::nullopt);
                            problem.timeline.push_back(std::move(span));
                          });
  }

  int pool_index(const Problem& problem, const Json& name, const Pointer& at) const {
    if (!name.is_string()) json_.fail(at, "expected a pool name");
    const auto index = problem.find_pool(name.get<std::string>());
    if (!index) json_.fail(at, "unknown pool \"" + name.get<std::string>() + "\"");
    return *index;
  }

  void read_buffers(Problem& problem) const {
    const Pointer top("");
    const Json& buffers = json_.get_array(json_.root(), top, "buffers");
    std::map<std::string, int> index;
    bool any_conflicts = false;
    bool any_lifetime = false;
    for (size_t i = 0; i < buffers.size(); ++i) {
      const Pointer at = top / "buffers" / i;
      const Json& j = buffers[i];
      json_.expect_object(j, at);
      const std::string name = json_.get_string(j, at, "name", std::nullopt);
      if (name.empty()) json_.fail(at / "name", "buffer name must not be empty");
      if (!index.emplace(name, static_cast<int>(i)).second)
        json_.fail(at / "name", "duplicate buffer name \"" + name + "\"");
      any_conflicts = any_conflicts || j.contains("conflicts");
      any_lifetime = any_lifetime || j.contains("lifetime");
    }
    // Without lists or lifetimes nothing conflicts either way; call that explicit.
    problem.conflict_source = any_conflicts || !any_lifetime ? ConflictSource::kExplicit : ConflictSource::kLifetimes;
    for (size_t i = 0; i < buffers.size(); ++i) {
      problem.buffers.push_back(read_buffer(problem, buffers[i], top / "buffers" / i, index));
    }
  }

  Pin read_pin(const Problem& problem, const Json& pin, const Pointer& at) const {
    json_.expect_object(pin, at);
    json_.check_keys(pin, at, {"pool", "offset"});
    Pin p;
    if (!pin.contains("pool")) json_.fail(at, "a pin needs a \"pool\"");
    p.pool = pool_index(problem, pin["pool"], at / "pool");
    if (pin.contains("offset")) {
      p.offset = json_.get_int(pin, at, "offset", 0);
      if (*p.offset < 0) json_.fail(at / "offset", "offset must not be negative");
    }
    return p;
  }

  Origin read_origin(const Json& origin, const Pointer& at) const {
    json_.expect_object(origin, at);
    json_.check_keys(origin, at, {"function", "file", "line", "column"});
    Origin o;
    o.function = json_.get_string(origin, at, "function", "");
    o.location.file = json_.get_string(origin, at, "file", "");
    o.location.line = static_cast<int>(json_.get_int(origin, at, "line", 0));
    o.location.column = static_cast<int>(json_.get_int(origin, at, "column", 0));
    return o;
  }

  Buffer read_buffer(const Problem& problem, const Json& j, const Pointer& at,
                     const std::map<std::string, int>& index) const {
    json_.check_keys(j, at,
                     {"name", "size_bytes", "alignment", "kind", "pool_candidates", "conflicts", "lifetime", "pin",
                      "origin", "dtype", "shape", "hint", "lifetime_assumed"});
    Buffer b;
    b.name = json_.get_string(j, at, "name", std::nullopt);
    b.size_bytes = json_.get_int(j, at, "size_bytes", std::nullopt);
    if (b.size_bytes < 0) json_.fail(at / "size_bytes", "size_bytes must not be negative");
    b.alignment = json_.get_int(j, at, "alignment", 1);
    if (b.alignment < 1) json_.fail(at / "alignment", "alignment must be at least 1");
    const auto kind = buffer_kind_from_string(json_.get_string(j, at, "kind", "intermediate"));
    if (!kind) json_.fail(at / "kind", "kind must be one of intermediate, input, output, constant");
    b.kind = *kind;
    if (j.contains("pool_candidates")) {
      const Json& list = json_.get_array(j, at, "pool_candidates");
      for (size_t k = 0; k < list.size(); ++k) {
        const int p = pool_index(problem, list[k], at / "pool_candidates" / k);
        if (std::find(b.pool_candidates.begin(), b.pool_candidates.end(), p) != b.pool_candidates.end()) {
          json_.fail(at / "pool_candidates" / k, "pool listed twice");
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
      const Json& list = json_.get_array(j, at, "conflicts");
      for (size_t k = 0; k < list.size(); ++k) {
        if (!list[k].is_string()) json_.fail(at / "conflicts" / k, "expected a buffer name");
        auto it = index.find(list[k].get<std::string>());
        if (it == index.end())
          json_.fail(at / "conflicts" / k, "unknown buffer \"" + list[k].get<std::string>() + "\"");
        b.conflicts.push_back(it->second);
      }
    }
    if (j.contains("lifetime")) {
      const Json& lt = json_.get_array(j, at, "lifetime");
      if (lt.size() != 2 || !lt[0].is_number_integer() || !lt[1].is_number_integer()) {
        json_.fail(at / "lifetime", "lifetime must be [first, last] with integer ticks");
      }
      const int64_t first = lt[0].get<int64_t>();
      const int64_t last = lt[1].get<int64_t>();
      if (last < first - 1) json_.fail(at / "lifetime", "lifetime ends before it starts");
      b.lifetime = Lifetime::closed(first, last);
    }
    if (const Json* pin = json_.member(j, "pin")) b.pin = read_pin(problem, *pin, at / "pin");
    if (const Json* origin = json_.member(j, "origin")) b.origin = read_origin(*origin, at / "origin");
    b.dtype = json_.get_string(j, at, "dtype", "");
    if (j.contains("shape")) {
      const Json& shape = json_.get_array(j, at, "shape");
      for (size_t k = 0; k < shape.size(); ++k) {
        if (!shape[k].is_number_integer()) json_.fail(at / "shape" / k, "shape entries must be integers");
        b.shape.push_back(shape[k].get<int64_t>());
      }
    }
    if (j.contains("hint")) b.hint = json_.get_int(j, at, "hint", 0);
    b.lifetime_assumed = json_.get_bool(j, at, "lifetime_assumed", false);
    return b;
  }

  JsonReader json_;
};

}  // namespace

Problem read_problem_json(std::string_view text, const std::string& file_name) {
  return ProblemReader(text, file_name).read();
}

}  // namespace usmpx
