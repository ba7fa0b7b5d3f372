#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "frontends/tvm/export/emit/lib0_source.h"

namespace usmpx {

// The clang target triples whose struct layout an export must hold for: this machine's (the
// harness runs there) and the model's target, read from TVM's target strings ("-mcpu=cortex-m4",
// "-march=armv7e-m", "riscv", ...). When no target names a known architecture, 32-bit Arm too.
std::vector<std::string> layout_triples(const std::vector<std::string>& tvm_targets);

// The emitted `<mod>_lib0.c` (with the interface header it includes) compiled by libclang for
// each triple: every constant of an internal constant pool must be at its planned offset in the
// pool's struct, the struct no smaller than the pool, and each internal workspace pool array
// exactly the pool's size. Pools the file does not define (a user's edit placing one elsewhere)
// are not checked. Throws ExportError naming the triple, the pool, the member and both offsets.
void check_lib0_layout(const std::string& lib0_path, std::string_view lib0, const std::string& header_path,
                       std::string_view header, const std::vector<ExportPool>& pools,
                       const std::vector<std::vector<PoolConstant>>& constants,
                       const std::vector<std::string>& triples);

}  // namespace usmpx
