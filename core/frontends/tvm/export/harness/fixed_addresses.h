#pragma once

// Memory a model's code names by a fixed address of its real MCU (a pointer made from an integer,
// `(int16_t*)0x24000000`: the STM32H7's AXI SRAM) exists neither on the emulated boards nor on this
// machine. The harness builds a copy of each source that names one (harness/fixed/usmpx_fixed_<file>),
// the address replaced by the same offset into an array the harness defines
// (harness/fixed_windows.c: one array per 16 MiB region, from the lowest address the code names in
// it to kFixedWindowTailBytes past the highest); the model's own sources keep their addresses.

#include <cstdint>

#include "export/export_bundle.h"
#include "frontends/tvm/export/harness/harness.h"

namespace usmpx {

constexpr int64_t kFixedWindowTailBytes = int64_t{1024} * 1024;

// Maps the fixed addresses of the model sources `spec` lists (harness/Makefile must already list
// them): adds the copies and harness/fixed_windows.c to the bundle, points spec.model_sources at
// them, adds each copied source's folder to spec.include_dirs and says what it did in spec.notes.
// False when the code names no such address.
bool map_fixed_addresses(ExportBundle& bundle, HarnessSpec& spec);

}  // namespace usmpx
