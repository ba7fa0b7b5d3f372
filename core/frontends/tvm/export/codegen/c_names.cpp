#include "frontends/tvm/export/codegen/c_names.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "export/export_error.h"

namespace usmpx::cexport {
namespace {

bool is_ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

bool is_identifier(std::string_view t) {
  if (t.empty() || !is_ident_start(t.front())) return false;
  for (char c : t) {
    if (!is_ident_char(c)) return false;
  }
  return true;
}

// A number as int_literal / float_literal write it: "-12", "1.5e+00f", "10LL".
bool is_number(std::string_view t) {
  if (!t.empty() && t.front() == '-') t.remove_prefix(1);
  if (t.empty() || !std::isdigit(static_cast<unsigned char>(t.front()))) return false;
  for (size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    const bool sign_in_exponent = (c == '+' || c == '-') && i > 0 && (t[i - 1] == 'e' || t[i - 1] == 'E');
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && !sign_in_exponent) return false;
  }
  return true;
}

}  // namespace

std::string sanitize_identifier(std::string_view name) {
  std::string out;
  out.reserve(name.size() + 1);
  for (char c : name)
    out += is_ident_char(c) ? c : '_';
  if (out.empty() || !is_ident_start(out.front())) out.insert(out.begin(), 'v');
  return out;
}

NameSupply::NameSupply() {
  // C11 keywords, type and macro names of the headers the module includes, and TVM runtime names.
  static const char* const kReserved[] = {"auto",
                                          "break",
                                          "case",
                                          "char",
                                          "const",
                                          "continue",
                                          "default",
                                          "do",
                                          "double",
                                          "else",
                                          "enum",
                                          "extern",
                                          "float",
                                          "for",
                                          "goto",
                                          "if",
                                          "inline",
                                          "int",
                                          "long",
                                          "register",
                                          "restrict",
                                          "return",
                                          "short",
                                          "signed",
                                          "sizeof",
                                          "static",
                                          "struct",
                                          "switch",
                                          "typedef",
                                          "union",
                                          "unsigned",
                                          "void",
                                          "volatile",
                                          "while",
                                          "_Bool",
                                          "_Complex",
                                          "_Imaginary",
                                          "_Alignas",
                                          "_Alignof",
                                          "_Atomic",
                                          "_Generic",
                                          "_Noreturn",
                                          "_Static_assert",
                                          "_Thread_local",
                                          "bool",
                                          "true",
                                          "false",
                                          "NULL",
                                          "INFINITY",
                                          "NAN",
                                          "int8_t",
                                          "int16_t",
                                          "int32_t",
                                          "int64_t",
                                          "uint8_t",
                                          "uint16_t",
                                          "uint32_t",
                                          "uint64_t",
                                          "size_t",
                                          "TVM_DLL",
                                          "TVM_EXPORTS",
                                          "TVMValue",
                                          "DLTensor",
                                          "DLDevice",
                                          "DLDataType",
                                          "TVMBackendAllocWorkspace",
                                          "TVMBackendFreeWorkspace",
                                          "TVMAPISetLastError",
                                          "main"};
  for (const char* name : kReserved)
    used_.insert(name);
}

std::string NameSupply::fresh(const std::string& base) {
  std::string name = base;
  for (int n = 1; used_.count(name) > 0; ++n)
    name = base + "_" + std::to_string(n);
  used_.insert(name);
  return name;
}

std::string NameSupply::fresh(const std::string& base, const std::string& suffix) {
  std::string name = base + suffix;
  for (int n = 1; used_.count(name) > 0; ++n)
    name.assign(base).append("_").append(std::to_string(n)).append(suffix);
  used_.insert(name);
  return name;
}

std::optional<std::string> c_type_name(tir::DataType t) {
  if (t.lanes != 1) return std::nullopt;
  if (t.is_handle()) return "void*";
  if (t.is_bool()) return "bool";
  const bool width = t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64;
  if (t.is_int() && width) return "int" + std::to_string(t.bits) + "_t";
  if (t.is_uint() && width) return "uint" + std::to_string(t.bits) + "_t";
  if (t.code == tir::DataType::Code::kFloat && t.bits == 32) return "float";
  if (t.code == tir::DataType::Code::kFloat && t.bits == 64) return "double";
  return std::nullopt;
}

std::string c_type(tir::DataType dtype, const SourceLocation& at) {
  if (std::optional<std::string> name = c_type_name(dtype)) return *name;
  throw ExportError::unsupported(at, "the type " + dtype.to_string());
}

std::string int_literal(int64_t value, tir::DataType dtype) {
  if (dtype.is_bool()) return value != 0 ? "(bool)1" : "(bool)0";
  std::string digits;
  if (value == std::numeric_limits<int64_t>::min()) {
    digits = "(-9223372036854775807LL - 1)";
  } else if (value == std::numeric_limits<int32_t>::min()) {
    digits = "(-2147483647 - 1)";
  } else if (value > std::numeric_limits<int32_t>::max() || value < std::numeric_limits<int32_t>::min()) {
    digits = std::to_string(value) + "LL";
  } else {
    digits = std::to_string(value);
  }
  if (dtype.is_int() && dtype.bits == 32) return digits;
  const std::optional<std::string> type = c_type_name(dtype);
  return "(" + type.value_or("int32_t") + ")" + digits;
}

std::string float_literal(double value, tir::DataType dtype) {
  if (std::isinf(value)) return value < 0 ? "-INFINITY" : "INFINITY";
  if (std::isnan(value)) return "NAN";
  const bool single = dtype.bits == 32;
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%e", value);
  const double back = std::strtod(buffer, nullptr);
  const bool exact = single ? static_cast<float>(back) == static_cast<float>(value) : back == value;
  if (!exact) std::snprintf(buffer, sizeof buffer, single ? "%.8e" : "%.16e", value);
  return std::string(buffer) + (single ? "f" : "");
}

bool is_simple_operand(std::string_view text) {
  if (is_identifier(text) || is_number(text) || text == "-INFINITY") return true;
  // "(int16_t)-32768": a cast literal.
  if (text.size() > 2 && text.front() == '(') {
    const size_t close = text.find(')');
    return close != std::string_view::npos && is_identifier(text.substr(1, close - 1)) &&
           is_number(text.substr(close + 1));
  }
  return false;
}

std::string strip_outer_parens(const std::string& text) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')') return text;
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    if (text[i] == ')') --depth;
    if (depth == 0 && i + 1 < text.size()) return text;  // the first '(' closes early
  }
  return text.substr(1, text.size() - 2);
}

std::string binary_text(std::string_view a, std::string_view op, std::string_view b) {
  std::string out;
  out.reserve(a.size() + op.size() + b.size() + 4);
  out.append("(").append(a).append(" ").append(op).append(" ").append(b).append(")");
  return out;
}

std::string cast_text(std::string_view type, std::string_view text) {
  std::string out;
  out.reserve(type.size() + text.size() + 4);
  out.append("((").append(type).append(")").append(text).append(")");
  return out;
}

std::string c_string_literal(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\%03o", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += buffer;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

}  // namespace usmpx::cexport
