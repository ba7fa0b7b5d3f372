#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/buffer.h"

namespace usmpx::tir {

struct Expr;
using ExprRef = std::shared_ptr<const Expr>;

// The value of a function attribute, an allocate annotation or an attr statement's node, as far
// as the dump spells it: literals, lists, dicts, a call such as T.target({...}), an expression,
// or text kept verbatim when the printer wrote something that is not an expression.
struct AttrEntry;

struct AttrValue {
  enum class Kind { kNone, kBool, kInt, kFloat, kString, kList, kDict, kCall, kExpr, kRaw };

  Kind kind = Kind::kNone;
  bool bool_value = false;
  int64_t int_value = 0;
  double float_value = 0.0;
  std::string text;                // kString value, kCall name, kRaw text
  std::vector<AttrValue> items;    // kList elements, kCall positional args
  std::vector<AttrEntry> entries;  // kDict entries, kCall keyword args
  ExprRef expr;                    // kExpr
  SourceLocation location;

  // Dict entry or call keyword argument by key; nullptr when absent.
  const AttrValue* find(std::string_view key) const;
  // The integer of a kInt, kBool or integer-constant kExpr value.
  std::optional<int64_t> as_int() const;
  // The text of a kString value.
  std::optional<std::string> as_string() const;
};

// A key and its value. A pair-like struct rather than std::pair, which may not be instantiated
// while AttrValue is still incomplete (libc++ and clang refuse; libstdc++ with GCC lets it pass).
struct AttrEntry {
  std::string first;
  AttrValue second;
  AttrEntry(std::string key, AttrValue value) : first(std::move(key)), second(std::move(value)) {}
};

using Attrs = std::vector<AttrEntry>;

const AttrValue* find_attr(const Attrs& attrs, std::string_view key);

}  // namespace usmpx::tir
