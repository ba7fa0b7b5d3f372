#pragma once

#include "frontends/tvm/c_analysis/c_model.h"
#include "frontends/tvm/c_analysis/liveness_walk.h"

namespace usmpx {

// USMP off: an allocation whose accesses the walk cannot bound (an index of unknown range) or
// whose address leaves its sight (stored into a file-scope variable or through a parameter) has no
// extent or lifetime a static plan could rely on. It stays a TVMBackendAllocWorkspace, a block of
// its own from the runtime's allocator as in the original: moved from `result.buffers` to
// `result.kept` with the reason, the intervals renumbered.
void keep_unbounded_allocations(const CProgram& program, WalkResult& result);

}  // namespace usmpx
