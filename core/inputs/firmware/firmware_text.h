#pragma once

// What the commands print of a firmware's plan: each model alone, each pool a runtime lays out
// itself (a TFLM arena) as the runtime makes it by itself and as the plan makes it, the shared
// pools against their declared sizes; and the C header the firmware includes.

#include <string>

#include "inputs/firmware/firmware_input.h"

namespace usmpx {

std::string firmware_plan_text(const FirmwareInput& input, const Plan& joint_plan);
std::string firmware_closing_text(const FirmwareInput& input, const Plan& joint_plan);
std::string firmware_status_text(const FirmwareInput& input, const Plan& joint_plan);
std::string firmware_json_members(const FirmwareInput& input, const Plan& joint_plan);

// usmpx_firmware.h: per runtime arena its size and how to create the runtime on it (TFLM: its
// kTensorArenaSize and the order to create the interpreters), then `extra` (other shared pools').
std::string firmware_header(const FirmwareInput& input, const Plan& joint_plan, const std::string& extra = "");

}  // namespace usmpx
