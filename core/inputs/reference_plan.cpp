#include "inputs/reference_plan.h"

namespace usmpx {

std::string reference_algorithm(const LoadedInput& input, bool pools_edited) {
  return input.as_built && !pools_edited ? kAsBuiltAlgorithm : input.default_algorithm;
}

std::string reference_description(const LoadedInput& input, bool pools_edited) {
  const std::string algorithm = reference_algorithm(input, pools_edited);
  if (algorithm == kAsBuiltAlgorithm) return algorithm + " (the plan the input carries)";
  return algorithm + " (" + input.reference + "'s " + (algorithm == "greedy_by_size" ? "default" : "own") + " planner)";
}

}  // namespace usmpx
