#pragma once

#include <string>

#include "base/input_error.h"
#include "model/diagnostic.h"
#include "model/plan.h"
#include "model/problem.h"
#include "planners/common/planner.h"

namespace usmpx::testing {

// Path of a file under tests/fixtures.
std::string fixture_path(const std::string& relative);

// "<file>:<line>:<column>: <message>" as the command line prints a diagnostic (no position: the message).
inline std::string located(const Diagnostic& d) {
  const std::string at = format_location(d.location);
  return at.empty() ? d.message : at + ": " + d.message;
}
// Path of a file under the repository.
std::string source_path(const std::string& relative);
// Path of a file under the shared data folder (USMPX_SHARED_DIR), or "" when it is absent.
std::string shared_path(const std::string& relative);

Problem load_problem_fixture(const std::string& relative);

// Offset of the named buffer in the plan (-1 when unplaced); fails the test for unknown names.
int64_t offset_of(const Problem& problem, const Plan& plan, const std::string& buffer);
std::string pool_of(const Problem& problem, const Plan& plan, const std::string& buffer);

// Options that a step budget bounds instead of the clock (PlannerOptions::step_budget): what a
// search reaches then does not depend on the machine's speed or load.
inline PlannerOptions step_budget(int64_t steps) {
  PlannerOptions options;
  options.time_limit_seconds = 1e9;
  options.step_budget = steps;
  return options;
}

// Runs the named planner through run_planner with a step budget of kPlanWithSteps instead of a
// time limit: searches end where they end on any machine, hill_climb makes all of TVM's attempts.
constexpr int64_t kPlanWithSteps = 50'000'000;
Plan plan_with(const std::string& algorithm, const Problem& problem);

}  // namespace usmpx::testing

// Skips the current test (visibly) when a shared data file is missing.
#define USMPX_REQUIRE_SHARED(path_variable, relative)                        \
  const std::string path_variable = ::usmpx::testing::shared_path(relative); \
  if (path_variable.empty())                                                 \
  GTEST_SKIP() << "shared data not found: " << (relative) << " (set USMPX_SHARED_DIR to the shared folder)"
