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

// The functions take any table whose rows have a `value` and a `name` (rows may say more of a
// value, e.g. a menu's label).

// The first row of `value`, or null.
template <typename Row, size_t N>
constexpr const Row* row_of(const Row (&rows)[N], decltype(Row::value) value) {
  for (const Row& row : rows) {
    if (row.value == value) return &row;
  }
  return nullptr;
}

// The first row's name for `value` ("" when no row has it).
template <typename Row, size_t N>
constexpr std::string_view name_of(const Row (&rows)[N], decltype(Row::value) value) {
  const Row* row = row_of(rows, value);
  return row ? row->name : std::string_view();
}

// The value of the row spelled `name`, if any.
template <typename Row, size_t N>
constexpr std::optional<decltype(Row::value)> value_named(const Row (&rows)[N], std::string_view name) {
  for (const Row& row : rows) {
    if (row.name == name) return row.value;
  }
  return std::nullopt;
}

}  // namespace usmpx
