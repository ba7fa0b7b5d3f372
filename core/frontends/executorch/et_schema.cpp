#include "frontends/executorch/et_schema.h"

#include <array>
#include <string_view>

namespace usmpx::et_schema {
namespace {

// ScalarType, values 0..29 in c10's order, and bytes per element.
struct TypeFact {
  std::string_view name;
  int64_t bytes;
};
constexpr std::array<TypeFact, 30> kTypes = {{
    {"BYTE", 1},
    {"CHAR", 1},
    {"SHORT", 2},
    {"INT", 4},
    {"LONG", 8},
    {"HALF", 2},
    {"FLOAT", 4},
    {"DOUBLE", 8},
    {"COMPLEXHALF", 4},
    {"COMPLEXFLOAT", 8},
    {"COMPLEXDOUBLE", 16},
    {"BOOL", 1},
    {"QINT8", 1},
    {"QUINT8", 1},
    {"QINT32", 4},
    {"BFLOAT16", 2},
    {"QUINT4X2", 1},
    {"QUINT2X4", 1},
    {"BITS1X8", 1},
    {"BITS2X4", 1},
    {"BITS4X2", 1},
    {"BITS8", 1},
    {"BITS16", 2},
    {"FLOAT8_E5M2", 1},
    {"FLOAT8_E4M3FN", 1},
    {"FLOAT8_E5M2FNUZ", 1},
    {"FLOAT8_E4M3FNUZ", 1},
    {"UINT16", 2},
    {"UINT32", 4},
    {"UINT64", 8},
}};

constexpr std::array<std::string_view, kValueTypeCount> kValueTypes = {
    "None",   "Null",    "Int",        "Bool",     "Double",     "Tensor",
    "String", "IntList", "DoubleList", "BoolList", "TensorList", "OptionalTensorList"};
constexpr std::array<std::string_view, kInstructionTypeCount> kInstructionTypes = {
    "None", "KernelCall", "DelegateCall", "MoveCall", "JumpFalseCall", "FreeCall"};

}  // namespace

std::string scalar_type_name(int type) {
  if (type >= 0 && static_cast<size_t>(type) < kTypes.size()) return std::string(kTypes[type].name);
  return "TYPE_" + std::to_string(type);
}

std::optional<int64_t> scalar_type_size(int type) {
  if (type < 0 || static_cast<size_t>(type) >= kTypes.size()) return std::nullopt;
  return kTypes[type].bytes;
}

std::string value_type_name(ValueType type) {
  const auto t = static_cast<size_t>(type);
  return t < kValueTypes.size() ? std::string(kValueTypes[t]) : "VALUE_" + std::to_string(t);
}

std::string instruction_type_name(InstructionType type) {
  const auto t = static_cast<size_t>(type);
  return t < kInstructionTypes.size() ? std::string(kInstructionTypes[t]) : "INSTRUCTION_" + std::to_string(t);
}

}  // namespace usmpx::et_schema
