#pragma once

// selftest of a firmware of TVM modules: each module built alone from its input (its own harness)
// is the reference; the joint plan's export is built as one program, every module on the shared
// pools, run one after the other in the firmware's order; every output must agree.

#include <memory>

#include "export/selftest.h"
#include "inputs/firmware/firmware_input.h"

namespace usmpx {

std::shared_ptr<const Selftest> firmware_selftest(std::shared_ptr<const FirmwareInput> input);

// The part of `bundle` under "<prefix>/", with that prefix removed.
ExportBundle bundle_part(const ExportBundle& bundle, const std::string& prefix);

}  // namespace usmpx
