#pragma once

// The ExecuTorch frontend: .pte programs read as ExecuTorch plans their memory (every method's
// memory-planned tensors, lifetimes from the instruction chain, one pool per planned buffer), the
// program's own plan as the reference, and written back as a copy with the new offsets and sizes.

#include "frontends/frontend.h"

namespace usmpx {

const Frontend& et_frontend();

}  // namespace usmpx
