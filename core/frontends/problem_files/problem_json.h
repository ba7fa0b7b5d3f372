#pragma once

#include <string>
#include <string_view>

#include "model/problem.h"
#include "model/problem_json_writer.h"  // the writer whose output this reads back

namespace usmpx {

// Reads a problem file ("format": "usmpx-problem", "version": 1; see DESIGN.md). Conflicts are
// the buffers' own lists when any buffer has "conflicts", otherwise they follow from overlapping
// closed "lifetime" intervals. Throws InputError with file:line:column on bad input.
Problem read_problem_json(std::string_view text, const std::string& file_name);

}  // namespace usmpx
