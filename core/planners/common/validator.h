#pragma once

#include <vector>

#include "model/diagnostic.h"
#include "model/plan.h"
#include "model/problem.h"

namespace usmpx {

// Checks a plan against its problem. Reports, as errors: buffers left unplaced, placed outside
// their candidate pools (a pin's pool counts as the only candidate), away from their pinned
// offset, at a negative or misaligned offset; every overlap of two buffers in the same pool when
// either lists the other as a conflict (or their lifetimes overlap); every pool whose used size
// exceeds its size hint. An empty result means the plan is valid.
std::vector<Diagnostic> validate(const Problem& problem, const Plan& plan);

}  // namespace usmpx
