#pragma once

// An enum's words in one table of rows: writing a value and reading it back use the same rows, so
// a value cannot be spelled one way when written and another when read. A value may have several
// rows (other spellings accepted when read); the first is the one written.

#include <cstddef>
#include <optional>
#include <string_view>

namespace usmpx {

template <typename Enum>
struct EnumName {
  Enum value;
  std::string_view name;
};

// The first row's name for `value` ("" when no row has it).
template <typename Enum, size_t N>
constexpr std::string_view name_of(const EnumName<Enum> (&names)[N], Enum value) {
  for (const EnumName<Enum>& row : names) {
    if (row.value == value) return row.name;
  }
  return "";
}

// The value of the row spelled `name`, if any.
template <typename Enum, size_t N>
constexpr std::optional<Enum> value_named(const EnumName<Enum> (&names)[N], std::string_view name) {
  for (const EnumName<Enum>& row : names) {
    if (row.name == name) return row.value;
  }
  return std::nullopt;
}

}  // namespace usmpx
