#include "inputs/reference_plan.h"

#include "planners/registry.h"

namespace usmpx {

std::string reference_algorithm(const LoadedInput& input, bool pools_edited) {
  if (input.as_built && !pools_edited) return kAsBuiltAlgorithm;
  if (input.default_algorithm != kAsBuiltAlgorithm) return input.default_algorithm;
  // A toolchain that only ever carries its plan (ExecuTorch): its own planner stands in for it.
  for (const PlannerInfo& info : planner_catalog()) {
    if (!info.toolchain.empty() && info.toolchain == input.reference) return info.name;
  }
  return "greedy_by_size";
}

std::string reference_description(const LoadedInput& input, bool pools_edited) {
  const std::string algorithm = reference_algorithm(input, pools_edited);
  if (algorithm == kAsBuiltAlgorithm) return algorithm + " (the plan the input carries)";
  return algorithm + " (" + input.reference + "'s " + (algorithm == "greedy_by_size" ? "default" : "own") + " planner)";
}

std::vector<Allocation> reference_allocations(const LoadedInput& input, bool pools_edited) {
  const std::string algorithm = reference_algorithm(input, pools_edited);
  if (algorithm == kAsBuiltAlgorithm) return input.as_built ? input.as_built->allocations : std::vector<Allocation>{};
  for (const PlannerInfo& info : planner_catalog()) {
    if (info.name != algorithm) continue;
    if (info.searching) return {};
    std::vector<Allocation> allocations = info.make()->plan(input.problem, PlannerOptions{}).allocations;
    allocations.resize(input.problem.buffers.size());
    return allocations;
  }
  return {};
}

}  // namespace usmpx
