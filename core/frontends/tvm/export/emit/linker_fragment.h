#pragma once

#include <string>
#include <vector>

#include "frontends/tvm/export/export_pools.h"

namespace usmpx {

// A GNU ld fragment to INCLUDE inside a linker script's SECTIONS: one output section per pool
// section (TVM's .bss.noinit.tvm and .rodata.tvm, or the section chosen for a pool), placed in a
// memory region named USMPX_<SECTION> that the including script maps with REGION_ALIAS, and an
// ASSERT per pool with a size hint.
std::string emit_linker_fragment(const std::string& module, const std::vector<ExportPool>& pools,
                                 const std::vector<int64_t>& size_hints);

// The region name the fragment uses for a section, e.g. ".bss.noinit.tvm" -> "USMPX_BSS_NOINIT_TVM".
std::string linker_region_name(const std::string& section);

// The section a pool's memory goes to: its chosen one, else TVM's default for its kind.
std::string pool_section(const ExportPool& pool);

}  // namespace usmpx
