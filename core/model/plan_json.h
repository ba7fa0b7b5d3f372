#pragma once

#include <string>

#include "model/plan.h"
#include "model/problem.h"

namespace usmpx {

// The plan as one JSON object, exactly the shape DESIGN.md gives for `usmpx plan --json`:
// {"algorithm", "runtime_ms", "fits", "lower_bound_bytes",
//  "pools": [{"name", "kind", "size_bytes", "size_hint_bytes"}],
//  "allocations": [{"buffer", "pool", "offset", "size_bytes"}]}
// Unplaced buffers have "pool" and "offset" null. Added to that shape: each pool's own
// "lower_bound_bytes" (Plan::pool_lower_bounds), and "kind" on reserved buffers.
std::string write_plan_json(const Problem& problem, const Plan& plan);

}  // namespace usmpx
