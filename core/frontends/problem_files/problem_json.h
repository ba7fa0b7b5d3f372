#pragma once

#include <string>
#include <string_view>

#include "model/problem.h"

namespace usmpx {

// Reads a problem file ("format": "usmpx-problem", "version": 1; see DESIGN.md). Conflicts are
// the buffers' own lists when any buffer has "conflicts", otherwise they follow from overlapping
// closed "lifetime" intervals. Throws InputError with file:line:column on bad input.
Problem read_problem_json(std::string_view text, const std::string& file_name);

// Writes a problem so that read_problem_json gives it back unchanged.
std::string write_problem_json(const Problem& problem);

}  // namespace usmpx
