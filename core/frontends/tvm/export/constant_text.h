#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "frontends/tvm/tir/dtype.h"

// The element text of constant arrays as TVM writes it into generated C (NDArrayDataToC in
// src/target/source/codegen_params.cc): the elements of a static const array in lib1.c, of a
// constant pool member in lib0.c, or of a CONSTANT_POOL_DATA macro in the interface header.
namespace usmpx {

// Whether format_constant_data can print elements of this type: int8..int64, uint8..uint64,
// float32, float64, and float16 / bfloat16 (printed as their uint16 bit patterns). One lane.
bool constant_text_supports(tir::DataType dtype);

// The elements in `data` (little-endian, dtype.bytes() each, as an NDArray holds them) in TVM's
// layout:
// - rows of N elements, N the largest power of two not above (80 - indent) / w, where w is the
//   width TVM budgets for one element (sizeof/4 + 4, +1 for a sign, +2 "LL" / +3 "ULL" for
//   64-bit integers; 9 for float32 and 11 for float64);
// - each row starts with `indent` spaces; elements are separated by ", ", so full rows end in
//   ", " followed by `eol`, and the last element has no separator; a partial last row gets `eol`;
// - integers in zero-filled lowercase hex of 2*sizeof digits, signed ones with an explicit sign
//   ("+0x0c", "-0x01"), 64-bit ones with LL / ULL;
// - floats in hex-float form ("0x1.4p+2"), left-aligned and space-padded to w, infinities as
//   " INFINITY" / "-INFINITY" and NaN as "NAN".
// Throws std::invalid_argument for unsupported types or a size that is not a whole number of
// elements.
std::string format_constant_data(tir::DataType dtype, std::span<const uint8_t> data, int indent, std::string_view eol);

// Appends one element of `dtype` to `bytes` in little-endian order. Integers wrap to the type's
// width; floats are rounded to the type (float16 and bfloat16 through float32, to nearest even).
// Throws std::invalid_argument for unsupported types.
void append_constant_element(tir::DataType dtype, int64_t value, std::vector<uint8_t>& bytes);
void append_constant_element(tir::DataType dtype, double value, std::vector<uint8_t>& bytes);

}  // namespace usmpx
