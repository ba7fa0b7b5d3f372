#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "planners/planner.h"

namespace usmpx {

struct PlannerInfo {
  std::string name;
  std::string summary;
  bool tvm_compatible = false;  // reproduces TVM's USMP offsets exactly
  std::function<std::unique_ptr<Planner>()> make;
  bool searching = false;  // keeps improving until its time limit (or a proof of optimality)
  // Models one toolchain's own planner (TFLM's): offered only for inputs of that toolchain, whose
  // LoadedInput::default_algorithm names it.
  bool toolchain_only = false;
};

// Whether the planner applies to an input whose toolchain runs `toolchain_algorithm`.
bool planner_applies(const PlannerInfo& info, std::string_view toolchain_algorithm);

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
