#pragma once

// The firmware file as an input kind: its joint problem, each model's own plan together as the
// input's as-built plan (what the firmware does today), the per-model and joint figures, and an
// export writing every model back with its part of the plan (plus, for TFLite Micro arenas, one
// header with the shared kTensorArenaSize and the interpreters' creation order).

#include "frontends/frontend.h"

namespace usmpx {

const Frontend& firmware_frontend();

}  // namespace usmpx
