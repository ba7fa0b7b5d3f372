#pragma once

#include <ostream>

#include "inputs/input_file.h"
#include "options.h"

namespace usmpx::cli {

// Loads the input and applies the pool options and pins of the command line.
LoadedInput prepare_input(const Options& options);

// The plan named `algorithm` for the input: a planner's, or "as-built" (the plan it carries).
Plan make_plan(const LoadedInput& input, const std::string& algorithm, const Options& options);
// --algorithm, else as-built for `check` of inputs that carry a plan (best for the others), else
// the input's reference plan (inputs/reference_plan.h): as-built, tflm_greedy or greedy_by_size.
std::string default_algorithm(const LoadedInput& input, const Options& options);
// Without --algorithm, one line saying which plan was used and why ("algorithm: as-built (the plan
// the input carries), the input's reference plan; --algorithm chooses another").
void print_default_note(std::ostream& out, const LoadedInput& input, const Options& options);

int run_info(const Options& options, std::ostream& out);
int run_plan(const Options& options, std::ostream& out, std::ostream& err);
int run_compare(const Options& options, std::ostream& out);
int run_check(const Options& options, std::ostream& out, std::ostream& err);
int run_export(const Options& options, std::ostream& out);
int run_selftest(const Options& options, std::ostream& out);

}  // namespace usmpx::cli
