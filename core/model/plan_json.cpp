#include "model/plan_json.h"

#include <cmath>

#include <nlohmann/json.hpp>

namespace usmpx {

std::string write_plan_json(const Problem& problem, const Plan& plan) {
  using Json = nlohmann::ordered_json;
  Json root;
  root["algorithm"] = plan.algorithm;
  root["runtime_ms"] = std::round(plan.runtime_ms * 1000.0) / 1000.0;
  root["fits"] = plan_fits(problem, plan);
  root["lower_bound_bytes"] = plan.lower_bound_bytes;
  Json pools = Json::array();
  for (size_t p = 0; p < problem.pools.size(); ++p) {
    Json j;
    j["name"] = problem.pools[p].name;
    j["kind"] = std::string(to_string(problem.pools[p].kind));
    j["size_bytes"] = p < plan.pool_sizes.size() ? plan.pool_sizes[p] : 0;
    j["size_hint_bytes"] = problem.pools[p].size_hint_bytes;
    if (p < plan.pool_lower_bounds.size()) j["lower_bound_bytes"] = plan.pool_lower_bounds[p];
    pools.push_back(std::move(j));
  }
  root["pools"] = std::move(pools);
  Json allocations = Json::array();
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    const Allocation a = b < plan.allocations.size() ? plan.allocations[b] : Allocation{};
    Json j;
    j["buffer"] = problem.buffers[b].name;
    j["pool"] = a.placed() ? Json(problem.pools[static_cast<size_t>(a.pool)].name) : Json(nullptr);
    j["offset"] = a.placed() ? Json(a.offset) : Json(nullptr);
    j["size_bytes"] = problem.buffers[b].size_bytes;
    // Bytes held for code the tool cannot read are told apart from the model's buffers.
    if (problem.buffers[b].kind == BufferKind::kReserved) j["kind"] = std::string(to_string(BufferKind::kReserved));
    allocations.push_back(std::move(j));
  }
  root["allocations"] = std::move(allocations);
  return root.dump(2) + "\n";
}

}  // namespace usmpx
