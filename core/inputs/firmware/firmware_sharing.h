#pragma once

// What sharing saves in a firmware of several models, for a joint plan: per TFLite Micro arena
// (kTensorArenaSize of each model alone against the one MicroAllocator's) and per other shared
// pool (each model's own plan against the joint plan's pool).

#include <vector>

#include "inputs/firmware/firmware_input.h"
#include "model/sharing_figures.h"

namespace usmpx {

std::vector<SharedPoolFigures> firmware_sharing(const FirmwareInput& input, const Plan& joint_plan);

}  // namespace usmpx
