#pragma once

#include <ostream>

#include "io/input_file.h"
#include "options.h"

namespace usmpx::cli {

// Loads the input and applies the pool options and pins of the command line.
LoadedInput prepare_input(const Options& options);

// The plan named `algorithm` for the input: a planner's, or "as-built" (the plan it carries).
Plan make_plan(const LoadedInput& input, const std::string& algorithm, const Options& options);
// --algorithm, else as-built for `check` of inputs that carry a plan, else greedy_by_size.
std::string default_algorithm(const LoadedInput& input, const Options& options);

int run_info(const Options& options, std::ostream& out);
int run_plan(const Options& options, std::ostream& out, std::ostream& err);
int run_compare(const Options& options, std::ostream& out);
int run_check(const Options& options, std::ostream& out, std::ostream& err);
int run_export(const Options& options, std::ostream& out);
int run_selftest(const Options& options, std::ostream& out);

// .tflite inputs (tflite_commands.cpp).
void print_tflite_info(std::ostream& out, const TfliteAnalysis& analysis);
// The arena head of `plan`, TFLM's own head, and the kTensorArenaSize when a TFLM log gives the tail.
void print_tflite_arena(std::ostream& out, const LoadedInput& input, const Plan& plan);
int run_tflite_export(const Options& options, std::ostream& out);

}  // namespace usmpx::cli
