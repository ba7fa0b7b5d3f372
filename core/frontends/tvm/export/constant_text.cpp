#include "frontends/tvm/export/constant_text.h"

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace usmpx {
namespace {

using tir::DataType;

constexpr int kMaxLineLength = 80;

bool is_half(DataType t) {
  return (t.code == DataType::Code::kFloat || t.code == DataType::Code::kBFloat) && t.bits == 16;
}

// The characters TVM budgets for one element, ", " included (it pads floats to this width).
int element_width(DataType t) {
  const int size = static_cast<int>(t.lane_bytes());
  if (t.is_float() && !is_half(t)) return size / 4 + 2 + 2 + 3 + (size == 8 ? 2 : 1);
  int width = size / 4 + 2 + 2;
  if (t.is_int()) width += 1 + (size == 8 ? 2 : 0);
  if (!t.is_int() && size == 8) width += 3;
  return width;
}

// The largest power of two not above the number of elements that fit beside the indent.
int elements_per_row(int width, int indent) {
  if (width > kMaxLineLength - indent) return 1;
  int n = (kMaxLineLength - indent) / width;
  while ((n & (n - 1)) != 0)
    n &= n - 1;
  return n;
}

uint64_t read_le(const uint8_t* p, int size) {
  uint64_t v = 0;
  for (int i = size - 1; i >= 0; --i)
    v = (v << 8) | p[i];
  return v;
}

std::string hex_digits(uint64_t v, int digits) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%0*llx", digits, static_cast<unsigned long long>(v));
  return buffer;
}

std::string integer_text(DataType t, uint64_t raw) {
  const int size = static_cast<int>(t.lane_bytes());
  const int digits = 2 * size;
  if (!t.is_int()) return "0x" + hex_digits(raw, digits) + (size == 8 ? "ULL" : "");
  // Sign-extend, then print the magnitude (computed unsigned, so INT64_MIN is fine).
  const int shift = 64 - 8 * size;
  const int64_t value = static_cast<int64_t>(raw << shift) >> shift;
  const uint64_t magnitude = value < 0 ? uint64_t{0} - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  return std::string(value < 0 ? "-" : "+") + "0x" + hex_digits(magnitude, digits) + (size == 8 ? "LL" : "");
}

std::string float_text(double v, int width) {
  std::string s;
  if (std::isinf(v)) {
    s = v < 0 ? "-INFINITY" : " INFINITY";
  } else if (std::isnan(v)) {
    s = "NAN";
  } else {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%a", v);
    s = buffer;
  }
  if (static_cast<int>(s.size()) < width) s.append(static_cast<size_t>(width) - s.size(), ' ');
  return s;
}

void append_le(uint64_t v, int size, std::vector<uint8_t>& bytes) {
  for (int i = 0; i < size; ++i) {
    bytes.push_back(static_cast<uint8_t>(v & 0xff));
    v >>= 8;
  }
}

uint16_t to_bfloat16(float f) {
  const uint32_t bits = std::bit_cast<uint32_t>(f);
  if (std::isnan(f)) return static_cast<uint16_t>((bits >> 16) | 0x40);
  const uint32_t rounding = 0x7fff + ((bits >> 16) & 1);
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

uint16_t to_float16(float f) {
  const uint32_t bits = std::bit_cast<uint32_t>(f);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  const int exponent = static_cast<int>((bits >> 23) & 0xff);
  uint32_t mantissa = bits & 0x7fffff;
  if (exponent == 0xff) return static_cast<uint16_t>(sign | 0x7c00 | (mantissa != 0 ? 0x200 : 0));
  const int e = exponent - 127 + 15;
  if (e >= 0x1f) return static_cast<uint16_t>(sign | 0x7c00);  // overflow to infinity
  if (e <= 0) {
    // Subnormal half (or zero): shift the mantissa, with the implicit bit, into place.
    if (e < -10) return sign;
    mantissa |= 0x800000;
    const int shift = 14 - e;
    uint32_t half = mantissa >> shift;
    const uint32_t rest = mantissa & ((1u << shift) - 1);
    const uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(e) << 10) | (mantissa >> 13);
  const uint32_t rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1))) ++half;  // may carry into the exponent: fine
  return static_cast<uint16_t>(sign | half);
}

void require_supported(DataType dtype) {
  if (!constant_text_supports(dtype)) {
    throw std::invalid_argument("constant data of type " + dtype.to_string() + " cannot be printed");
  }
}

}  // namespace

bool constant_text_supports(DataType dtype) {
  if (dtype.lanes != 1) return false;
  if (dtype.is_int() || (dtype.is_uint() && !dtype.is_bool())) {
    return dtype.bits == 8 || dtype.bits == 16 || dtype.bits == 32 || dtype.bits == 64;
  }
  if (dtype.code == DataType::Code::kBFloat) return dtype.bits == 16;
  if (dtype.code == DataType::Code::kFloat) return dtype.bits == 16 || dtype.bits == 32 || dtype.bits == 64;
  return false;
}

std::string format_constant_data(DataType dtype, std::span<const uint8_t> data, int indent, std::string_view eol) {
  require_supported(dtype);
  // float16 and bfloat16 print as the uint16 they are stored as.
  const DataType shown = is_half(dtype) ? DataType::uint(16) : dtype;
  const int size = static_cast<int>(shown.lane_bytes());
  if (data.size() % static_cast<size_t>(size) != 0) {
    throw std::invalid_argument("constant data is not a whole number of " + dtype.to_string() + " elements");
  }
  const size_t count = data.size() / static_cast<size_t>(size);
  const int width = element_width(shown);
  const size_t per_row = static_cast<size_t>(elements_per_row(width, indent));
  const std::string indent_text(static_cast<size_t>(indent), ' ');
  std::string out;
  for (size_t i = 0; i < count; ++i) {
    if (i % per_row == 0) out += indent_text;
    const uint64_t raw = read_le(data.data() + i * static_cast<size_t>(size), size);
    if (shown.is_float()) {
      const double v = size == 4 ? static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(raw)))
                                 : std::bit_cast<double>(raw);
      out += float_text(v, width);
    } else {
      out += integer_text(shown, raw);
    }
    if (i + 1 < count) out += ", ";
    if (i % per_row == per_row - 1) out += eol;
  }
  if (count % per_row != 0) out += eol;
  return out;
}

void append_constant_element(DataType dtype, int64_t value, std::vector<uint8_t>& bytes) {
  require_supported(dtype);
  if (dtype.is_float()) {
    append_constant_element(dtype, static_cast<double>(value), bytes);
    return;
  }
  append_le(static_cast<uint64_t>(value), static_cast<int>(dtype.lane_bytes()), bytes);
}

void append_constant_element(DataType dtype, double value, std::vector<uint8_t>& bytes) {
  require_supported(dtype);
  if (!dtype.is_float()) {
    if (!std::isfinite(value) || std::fabs(value) >= 9.2e18) {
      throw std::invalid_argument("value out of range for " + dtype.to_string());
    }
    append_le(static_cast<uint64_t>(static_cast<int64_t>(value)), static_cast<int>(dtype.lane_bytes()), bytes);
  } else if (dtype.bits == 64) {
    append_le(std::bit_cast<uint64_t>(value), 8, bytes);
  } else if (dtype.bits == 32) {
    append_le(std::bit_cast<uint32_t>(static_cast<float>(value)), 4, bytes);
  } else if (dtype.code == DataType::Code::kBFloat) {
    append_le(to_bfloat16(static_cast<float>(value)), 2, bytes);
  } else {
    append_le(to_float16(static_cast<float>(value)), 2, bytes);
  }
}

}  // namespace usmpx
