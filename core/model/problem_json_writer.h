#pragma once

#include <string>

#include "model/problem.h"

namespace usmpx {

// A problem as a usmpx-problem JSON file (see DESIGN.md), as `info --json` prints it; the
// problem-files frontend reads it back unchanged (read_problem_json).
std::string write_problem_json(const Problem& problem);

}  // namespace usmpx
