#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "frontends/tvm/c_analysis/pool_exposure.h"
#include "model/diagnostic.h"
#include "model/plan.h"
#include "model/problem.h"

namespace usmpx {

// What decides which bytes of TVM's pools stay reserved.
struct ReservationInput {
  std::map<std::string, int64_t> declared_size;  // pool -> bytes the code declares (array, header macro)
  std::map<std::string, PoolExposure> exposed;   // pools handed to code without a body
  int64_t last_tick = 0;                         // reserved bytes are live from tick 0 to this one
  std::string display_path;                      // for the warning's location
};

// Adds one buffer of kind `reserved` per range of workspace-pool bytes TVM's plan (`as_built`,
// the placements of the buffers read from the code) gives to no known buffer, where code the
// tool cannot read may use them: every such range of a pool in `exposed`, and for every pool the
// bytes between its known buffers' end and its declared size. Each is pinned at its offset, live
// throughout, and in conflict with every buffer that may go into its pool, so no plan moves a
// buffer into those bytes or makes the pool smaller than TVM did. `as_built` gets their
// allocations. Returns the one warning that says what was reserved, or nothing.
std::optional<Diagnostic> reserve_unknown_pool_bytes(Problem& problem, Plan& as_built, const ReservationInput& input);

// The bytes of the problem's reserved buffers.
int64_t reserved_bytes(const Problem& problem);

}  // namespace usmpx
