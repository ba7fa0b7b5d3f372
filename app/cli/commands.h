#pragma once

#include <ostream>

#include "io/input_file.h"
#include "options.h"

namespace usmpx::cli {

// Loads the input and applies the pool options and pins of the command line.
LoadedInput prepare_input(const Options& options);

int run_info(const Options& options, std::ostream& out);
int run_plan(const Options& options, std::ostream& out, std::ostream& err);
int run_compare(const Options& options, std::ostream& out);
int run_check(const Options& options, std::ostream& out);

}  // namespace usmpx::cli
