#pragma once

#include <ostream>

#include "model/plan.h"
#include "model/problem.h"

namespace usmpx::cli {

// Per pool: size, size hint, use of the hint, lower bound of the buffers placed there and gap.
void print_pool_table(std::ostream& out, const Problem& problem, const Plan& plan);
// One line per buffer, sorted by pool and offset.
void print_allocations(std::ostream& out, const Problem& problem, const Plan& plan);
// Diagnostics as "error: message" lines.
void print_diagnostics(std::ostream& out, const std::vector<Diagnostic>& diagnostics);

}  // namespace usmpx::cli
