#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace usmpx::tir {

// A TIR data type as TVM spells it: "int8", "uint1" (bool), "float32x4", "handle", "void".
struct DataType {
  enum class Code : uint8_t { kInt, kUInt, kFloat, kBFloat, kHandle, kVoid };

  Code code = Code::kInt;
  int bits = 32;
  int lanes = 1;

  static DataType int_(int bits, int lanes = 1) { return {Code::kInt, bits, lanes}; }
  static DataType uint(int bits, int lanes = 1) { return {Code::kUInt, bits, lanes}; }
  static DataType float_(int bits, int lanes = 1) { return {Code::kFloat, bits, lanes}; }
  static DataType boolean() { return {Code::kUInt, 1, 1}; }
  static DataType handle() { return {Code::kHandle, 64, 1}; }
  static DataType void_() { return {Code::kVoid, 0, 1}; }

  // "int8", "bool", "float32x4", "handle", "void", "int" (int32), "float" (float32); nullopt otherwise.
  static std::optional<DataType> parse(std::string_view text);

  bool is_int() const { return code == Code::kInt; }
  bool is_uint() const { return code == Code::kUInt; }
  bool is_bool() const { return code == Code::kUInt && bits == 1; }
  bool is_float() const { return code == Code::kFloat || code == Code::kBFloat; }
  bool is_handle() const { return code == Code::kHandle; }
  bool is_void() const { return code == Code::kVoid; }
  // Bytes of one lane, rounded up as TVM's DataType::bytes(): int4 and bool take one byte.
  int64_t lane_bytes() const { return (bits + 7) / 8; }
  // Bytes of one element with all its lanes, the unit of an allocation's size.
  int64_t bytes() const { return lane_bytes() * lanes; }
  DataType with_lanes(int n) const { return {code, bits, n}; }

  std::string to_string() const;
  bool operator==(const DataType&) const = default;
};

}  // namespace usmpx::tir
