#include "model/problem_json_writer.h"

#include <nlohmann/json.hpp>

#include "model/pool_json.h"

namespace usmpx {
namespace {

using Json = nlohmann::ordered_json;

}  // namespace

std::string write_problem_json(const Problem& problem) {
  Json root;
  root["format"] = "usmpx-problem";
  root["version"] = 1;
  Json pools = Json::array();
  for (const Pool& p : problem.pools)
    pools.push_back(pool_to_json(p));
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
    for (int p : b.pool_candidates)
      candidates.push_back(problem.pools[static_cast<size_t>(p)].name);
    j["pool_candidates"] = std::move(candidates);
    if (explicit_conflicts) {
      Json conflicts = Json::array();
      for (int c : b.conflicts)
        conflicts.push_back(problem.buffers[static_cast<size_t>(c)].name);
      j["conflicts"] = std::move(conflicts);
    }
    if (b.lifetime) j["lifetime"] = Json::array({b.lifetime->first(), b.lifetime->last()});
    if (b.lifetime_assumed) j["lifetime_assumed"] = true;
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
  if (!problem.timeline.empty()) {
    Json spans = Json::array();
    for (const TimelineSpan& span : problem.timeline)
      spans.push_back({{"first", span.first}, {"last", span.last}, {"label", span.label}});
    root["timeline"] = std::move(spans);
  }
  return root.dump(2) + "\n";
}

}  // namespace usmpx
