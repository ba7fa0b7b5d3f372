#pragma once

// The answer to "does it fit?" for a plan of a problem, as a CI gate asks it: the plan fits every
// pool's size hint; or it is proven that no plan can (a set of buffers that cannot fit together in
// a pool, whatever the placement); or neither, and the plan's shortfall is all that is known.

#include <cstdint>
#include <string_view>
#include <vector>

#include "model/plan.h"
#include "planners/common/deadline.h"

namespace usmpx {

enum class FitVerdict {
  kFits,       // the plan is valid and within every size hint
  kCannotFit,  // proven: no placement fits (see FitCheck::proofs)
  kUndecided,  // the plan does not fit and nothing proves that no plan can
  kInvalid,    // the plan fits the hints but breaks a rule (overlap, alignment, pin, pool)
};

std::string_view to_string(FitVerdict verdict);

struct PoolNeed {
  int pool = -1;
  int64_t need_bytes = 0;   // the plan's size of the pool
  int64_t hint_bytes = -1;  // -1: unrestricted
  int64_t short_bytes() const { return hint_bytes >= 0 && need_bytes > hint_bytes ? need_bytes - hint_bytes : 0; }
};

struct FitCheck {
  FitVerdict verdict = FitVerdict::kUndecided;
  std::vector<PoolNeed> pools;     // every pool of the problem, in its order
  std::vector<Diagnostic> proofs;  // errors "infeasible": the pool, the bytes short, the buffers
  // Parallel to proofs: bytes the pool's hint lacks at the very least for that set of buffers (the
  // bytes they need live at once, or pinned, beyond the hint; 1 when only the search proved it).
  std::vector<int64_t> missing_bytes;
  int64_t shortfall_bytes() const;  // summed over pools
};

// Judges `plan` (pool sizes computed). A plan that does not fit and carries no proof yet (one not
// made by best or exact) is explained here (infeasibility.h) within `deadline`.
FitCheck check_fit(const Problem& problem, const Plan& plan, Deadline& deadline);

}  // namespace usmpx
