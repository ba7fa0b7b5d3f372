#pragma once

// Why a plan does not fit: for every pool over its size hint, a diagnostic naming the pool, the
// bytes missing in the plan, and, when one can be proven, a small set of buffers that cannot fit
// together in that pool whatever the placement (an irreducible infeasible subset: without any one
// of them the rest fits). Only buffers that can go nowhere else (a single candidate pool, or
// pinned there) are used as evidence, so the set is infeasible in every plan. Proofs, cheapest
// first:
// - a pinned buffer whose range ends beyond the hint, or a buffer larger than the hint;
// - buffers live at the same time (a clique of conflicts) whose sizes add up to more than the
//   hint; the largest of them until the sum exceeds it, so removing any one fits the bound;
// - otherwise the exact search on the confined buffers around the overflow, shrunk by a deletion
//   filter: a buffer is dropped whenever the search proves the rest still cannot fit.
// When nothing is proven (the overflow may be the planners' fault) the diagnostic says so.

#include <vector>

#include "model/diagnostic.h"
#include "model/plan.h"
#include "planners/common/deadline.h"

namespace usmpx {

std::vector<Diagnostic> explain_infeasibility(const Problem& problem, const std::vector<Allocation>& allocations,
                                              Deadline& deadline);

// Adds those diagnostics to `plan` when it does not fit.
void explain_if_overflowing(const Problem& problem, Plan& plan, Deadline& deadline);

}  // namespace usmpx
