#pragma once

// What every frontend of a model file fills in the same way: the LoadedInput of an analysis that
// holds the model's Problem, the plan the file carries and the reader's warnings.

#include <string>
#include <utility>

#include "frontends/frontend.h"

namespace usmpx {

// `default_algorithm` and `reference`: the planner the model's own runtime runs and whose plan
// that is (LoadedInput); the caller adds its details, exporter and firmware role.
template <typename Analysis>
LoadedInput loaded_model(const std::string& path, InputFormat format, const Analysis& analysis,
                         std::string default_algorithm, std::string reference) {
  LoadedInput input;
  input.path = path;
  input.format = format;
  input.problem = analysis.problem;
  input.as_built = analysis.as_built;
  input.warnings = analysis.warnings;
  input.default_algorithm = std::move(default_algorithm);
  input.reference = std::move(reference);
  return input;
}

}  // namespace usmpx
