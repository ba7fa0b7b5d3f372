#pragma once

// selftest of a firmware of TVM modules: each module built alone from its input (its own harness)
// is the reference; the joint plan's export is built as one program, every module on the shared
// pools, run one after the other in the firmware's order; every output must agree.

#include <memory>
#include <vector>

#include "export/selftest.h"
#include "frontends/frontend.h"

namespace usmpx {

// `modules` in the firmware's order, each exported under "<name>/".
std::shared_ptr<const Selftest> tvm_firmware_selftest(std::vector<FirmwareTenant> modules);

}  // namespace usmpx
