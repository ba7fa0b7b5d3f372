#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace usmpx {

// The little-endian bytes of constant data printed as C initializer text (TVM's NDArrayDataToC:
// "+0x1f, -0x02", "0x1.4p+2", INFINITY, NAN) for elements of `element_bytes` bytes; floating
// point when `floating`. Throws ExportError on text it cannot read.
std::string constant_bytes(std::string_view data_text, int64_t element_bytes, bool floating);

// The bytes of an external constant pool as the interface header's _CONSTANT_POOL_DATA macro
// writes them (uint8 rows ending in a backslash): every constant at its offset, zeros between.
struct ExportPool;
struct PoolConstant;
std::string pool_data_text(const ExportPool& pool, const std::vector<PoolConstant>& constants);

}  // namespace usmpx
