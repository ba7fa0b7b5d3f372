#pragma once

// TVM modules of one firmware sharing a workspace pool: each module's generated lib0.c defines its
// own `static uint8_t <pool>[N]` when the pool is internal. Written back for a joint plan, that
// definition becomes a declaration of one array every module uses (`usmpx_firmware_<pool>`), defined
// once in usmpx_firmware.c at the joint plan's size. External pools stay the application's: it passes
// the same array to every module, of the size usmpx_firmware.h gives.

#include <string>
#include <vector>

#include "export/export_bundle.h"
#include "frontends/frontend.h"

namespace usmpx {

// Rewrites the modules' lib0.c in `bundle` (paths "<model>/...") and adds usmpx_firmware.c; returns
// the lines usmpx_firmware.h gets (pool sizes). `pools` name only TVM modules as members.
std::string share_tvm_pools(const std::vector<FirmwareSharedPool>& pools, ExportBundle& bundle);

}  // namespace usmpx
