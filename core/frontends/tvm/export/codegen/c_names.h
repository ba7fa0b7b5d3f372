#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>

#include "frontends/tvm/tir/dtype.h"
#include "model/buffer.h"

// How the C export spells names, types and literals: identifiers made valid and unique, TIR
// types as C types, and numbers in the form TVM's C code generator prints them.
namespace usmpx::cexport {

// `name` with every character other than [A-Za-z0-9_] replaced by '_' ("ax0.ax1.fused" becomes
// "ax0_ax1_fused"), and a "v" in front when it would not start with a letter or '_'.
std::string sanitize_identifier(std::string_view name);

// Hands out identifiers that do not clash, as TVM's NameSupply: the name itself when free, else
// name_1, name_2, ... ("v_", then "v__1").
class NameSupply {
 public:
  NameSupply();  // C keywords and the names the generated code relies on are taken
  void reserve(const std::string& name) { used_.insert(name); }
  bool contains(const std::string& name) const { return used_.count(name) > 0; }
  std::string fresh(const std::string& base);
  // base + suffix, made unique before the suffix: "x_let", "x_1_let", ...
  std::string fresh(const std::string& base, const std::string& suffix);

 private:
  std::unordered_set<std::string> used_;
};

// "int8_t", "uint16_t", "float", "double", "bool", "void*" (handle) for one lane; nullopt for
// types the export does not spell (vectors, float16, bfloat16, odd widths).
std::optional<std::string> c_type_name(tir::DataType t);
// The same, or ExportError naming the type at `at`.
std::string c_type(tir::DataType dtype, const SourceLocation& at);

// An integer constant of `dtype`: int32 bare ("5", "-1"), other types behind a cast
// ("(int64_t)5", "(int16_t)-32768", "(bool)1"); values C cannot write as a plain literal are
// spelled so that no compiler warns.
std::string int_literal(int64_t value, tir::DataType dtype);

// A float constant: scientific with 6 digits as TVM prints it ("1.000000e+00f" for float32, no
// suffix for float64), or with 9 (17) digits when 6 would change the value; INFINITY, -INFINITY
// and NAN for the special values.
std::string float_literal(double value, tir::DataType dtype);

// Whether `text` is an identifier or a literal (possibly behind a cast), which TVM uses as an
// operand directly instead of binding it to a temporary.
bool is_simple_operand(std::string_view text);

// `text` without one pair of enclosing parentheses when they enclose all of it.
std::string strip_outer_parens(const std::string& text);

// "(a op b)": how every binary operation is printed.
std::string binary_text(std::string_view a, std::string_view op, std::string_view b);

// "((type)text)": a cast.
std::string cast_text(std::string_view type, std::string_view text);

// A C string literal for `text`.
std::string c_string_literal(std::string_view text);

}  // namespace usmpx::cexport
