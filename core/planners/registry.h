#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "planners/common/planner.h"

namespace usmpx {

struct PlannerInfo {
  std::string name;
  std::string summary;
  bool tvm_compatible = false;  // reproduces TVM's USMP offsets exactly
  std::function<std::unique_ptr<Planner>()> make;
  bool searching = false;  // keeps improving until its time limit (or a proof of optimality)
  // The toolchain whose own planner this models ("TFLM", "ExecuTorch", as LoadedInput::reference
  // names it): offered only for inputs of that toolchain. "": any input.
  std::string toolchain;
};

// Whether the planner applies to an input of `toolchain` (LoadedInput::reference: "TVM", "TFLM", ...).
bool planner_applies(const PlannerInfo& info, std::string_view toolchain);

// Every planner the tool offers, TVM's first, in the order menus and comparisons show them.
const std::vector<PlannerInfo>& planner_catalog();

// The planner registered under `name`, or nullptr.
std::unique_ptr<Planner> make_planner(std::string_view name);

// Names joined by ", " for messages.
std::string planner_names();

// Runs a planner and completes its plan: algorithm name, wall time, pool sizes, the problem's
// lower bound, proven optimality when the plan reaches that bound, and the validator's findings.
Plan run_planner(const Planner& planner, const Problem& problem, const PlannerOptions& options);

// Completes a plan that did not come from a planner (e.g. read from generated code).
void finish_plan(const Problem& problem, Plan& plan);

}  // namespace usmpx
