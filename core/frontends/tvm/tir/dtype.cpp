#include "frontends/tvm/tir/dtype.h"

#include <charconv>

namespace usmpx::tir {
namespace {

// Parses the decimal number at the start of `text`; nullopt when there is none or it is too big.
std::optional<int> leading_number(std::string_view& text) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end == text.data()) return std::nullopt;
  text.remove_prefix(static_cast<size_t>(end - text.data()));
  return value;
}

}  // namespace

std::optional<DataType> DataType::parse(std::string_view text) {
  if (text == "bool") return boolean();
  if (text == "handle") return handle();
  if (text == "void") return void_();
  if (text == "int") return int_(32);
  if (text == "float") return float_(32);
  DataType t;
  if (text.starts_with("uint")) {
    t.code = Code::kUInt;
    text.remove_prefix(4);
  } else if (text.starts_with("int")) {
    t.code = Code::kInt;
    text.remove_prefix(3);
  } else if (text.starts_with("bfloat")) {
    t.code = Code::kBFloat;
    text.remove_prefix(6);
  } else if (text.starts_with("float")) {
    t.code = Code::kFloat;
    text.remove_prefix(5);
  } else {
    return std::nullopt;
  }
  const std::optional<int> bits = leading_number(text);
  if (!bits) return std::nullopt;
  t.bits = *bits;
  const bool valid_bits = t.code == Code::kFloat    ? (t.bits == 16 || t.bits == 32 || t.bits == 64)
                          : t.code == Code::kBFloat ? t.bits == 16
                                                    : (t.bits >= 1 && t.bits <= 64);
  if (!valid_bits) return std::nullopt;
  if (!text.empty()) {
    if (text.front() != 'x') return std::nullopt;
    text.remove_prefix(1);
    const std::optional<int> lanes = leading_number(text);
    if (!lanes || *lanes < 1 || *lanes > 1024 || !text.empty()) return std::nullopt;
    t.lanes = *lanes;
  }
  return t;
}

std::string DataType::to_string() const {
  std::string out;
  switch (code) {
    case Code::kHandle: return "handle";
    case Code::kVoid: return "void";
    case Code::kInt: out = "int"; break;
    case Code::kUInt:
      if (bits == 1 && lanes == 1) return "bool";
      out = "uint";
      break;
    case Code::kFloat: out = "float"; break;
    case Code::kBFloat: out = "bfloat"; break;
  }
  out += std::to_string(bits);
  if (lanes != 1) out += "x" + std::to_string(lanes);
  return out;
}

}  // namespace usmpx::tir
