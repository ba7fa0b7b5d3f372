#include "frontends/tvm/export/constant_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "base/archive_reader.h"
#include "test_support.h"

namespace usmpx {
namespace {

using tir::DataType;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The element text of the array whose opening line contains `marker`: the lines after it up to
// the closing "};" / "  }," line, each with its newline.
std::string data_block(const std::string& source, const std::string& marker) {
  size_t at = source.find(marker);
  EXPECT_NE(at, std::string::npos) << marker;
  if (at == std::string::npos) return "";
  at = source.find('\n', at) + 1;
  std::string out;
  while (at < source.size()) {
    const size_t end = source.find('\n', at);
    const std::string line = source.substr(at, end - at);
    if (line.starts_with("}") || line.starts_with("  }")) break;
    out += line + "\n";
    at = end + 1;
  }
  return out;
}

std::vector<std::string> elements_of(const std::string& block) {
  std::vector<std::string> out;
  std::string item;
  std::stringstream s(block);
  while (std::getline(s, item, ',')) {
    const size_t first = item.find_first_not_of(" \n");
    if (first == std::string::npos) continue;
    out.push_back(item.substr(first, item.find_last_not_of(" \n") - first + 1));
  }
  return out;
}

// The values of a printed block turned back into element bytes: the numbers come from the
// fixture, the layout is what the formatter has to reproduce.
std::vector<uint8_t> parse_block(const std::string& block, DataType dtype) {
  std::vector<uint8_t> bytes;
  for (const std::string& e : elements_of(block)) {
    if (dtype.is_float()) {
      append_constant_element(dtype, std::strtod(e.c_str(), nullptr), bytes);
    } else {
      const bool negative = e.front() == '-';
      const bool has_sign = e.front() == '-' || e.front() == '+';
      const uint64_t magnitude = std::strtoull(e.c_str() + (has_sign ? 1 : 0), nullptr, 16);
      const int64_t value = negative ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
      append_constant_element(dtype, value, bytes);
    }
  }
  return bytes;
}

void expect_round_trip(const std::string& source, const std::string& marker, DataType dtype, size_t elements) {
  const std::string block = data_block(source, marker);
  const std::vector<uint8_t> bytes = parse_block(block, dtype);
  ASSERT_EQ(bytes.size(), elements * static_cast<size_t>(dtype.bytes())) << marker;
  EXPECT_EQ(format_constant_data(dtype, bytes, 4, "\n"), block) << marker;
}

std::vector<uint8_t> ints(DataType dtype, const std::vector<int64_t>& values) {
  std::vector<uint8_t> bytes;
  for (int64_t v : values)
    append_constant_element(dtype, v, bytes);
  return bytes;
}

std::vector<uint8_t> floats(DataType dtype, const std::vector<double>& values) {
  std::vector<uint8_t> bytes;
  for (double v : values)
    append_constant_element(dtype, v, bytes);
  return bytes;
}

TEST(ConstantText, FloatsOfTheDefaultPoolsFixtureByteForByte) {
  const std::string lib0 = read_text(testing::fixture_path("mlf/usmp_default_pools/codegen/host/src/default_lib0.c"));
  expect_round_trip(lib0, ".fused_constant_2_let = {", DataType::float_(32), 64);
  expect_round_trip(lib0, ".fused_constant_let = {", DataType::float_(32), 8);
  expect_round_trip(lib0, ".fused_constant_1_let = {", DataType::float_(32), 6);
}

TEST(ConstantText, Int16OfTheExternalPoolsFixtureByteForByte) {
  const std::string lib1 = read_text(testing::fixture_path("mlf/usmp_external_pools/codegen/host/src/mini_lib1.c"));
  expect_round_trip(lib1, " fused_constant[6] = {", DataType::int_(16), 6);
  expect_round_trip(lib1, " fused_constant_1[2] = {", DataType::int_(16), 2);
  expect_round_trip(lib1, " fused_constant_2[64] = {", DataType::int_(16), 64);
}

TEST(ConstantText, Int8AndInt32OfRealTvmOutputByteForByte) {
  USMPX_REQUIRE_SHARED(path, "mlf/letscope_v7.tar");
  const ArchiveContents tar =
      read_archive_file(path, [](std::string_view p) { return p == "codegen/host/src/default_lib1.c"; });
  const ArchiveFile* lib1 = tar.find("codegen/host/src/default_lib1.c");
  ASSERT_NE(lib1, nullptr);
  const struct {
    const char* marker;
    DataType dtype;
    size_t elements;
  } arrays[] = {
      {" fused_nn_dense_constant[512] = {", DataType::int_(32), 512},
      {" fused_nn_dense_subtract_constant[512] = {", DataType::int_(32), 512},
      {" fused_constant[2560] = {", DataType::int_(8), 2560},
      {" fused_constant_1[262144] = {", DataType::int_(8), 262144},
      {" fused_nn_dense_constant_2[1] = {", DataType::int_(32), 1},
      {" fused_constant_2[512] = {", DataType::int_(8), 512},
  };
  for (const auto& a : arrays)
    expect_round_trip(lib1->data, a.marker, a.dtype, a.elements);
}

TEST(ConstantText, RowWidthsFollowTheElementWidth) {
  // uint8: "0x00, " budgets 4 characters: 76 / 4 = 19, so 16 per row.
  std::vector<int64_t> seventeen(17, 0);
  seventeen[16] = 255;
  EXPECT_EQ(format_constant_data(DataType::uint(8), ints(DataType::uint(8), seventeen), 4, "\n"),
            "    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, \n"
            "    0xff\n");
  // int64: 2 + 4 + 1 + 2 = 9 -> 8 per row, with LL; the minimum prints without overflow.
  EXPECT_EQ(format_constant_data(DataType::int_(64), ints(DataType::int_(64), {-1, INT64_MIN, 16}), 2, "\n"),
            "  -0x0000000000000001LL, -0x8000000000000000LL, +0x0000000000000010LL\n");
  EXPECT_EQ(format_constant_data(DataType::uint(64), ints(DataType::uint(64), {-1}), 0, "\n"),
            "0xffffffffffffffffULL\n");
  // uint32 wraps: 1 + 4 = 5 characters do not fit beside an indent of 76: one per row.
  EXPECT_EQ(format_constant_data(DataType::uint(32), ints(DataType::uint(32), {-1, 10}), 76, "|"),
            std::string(76, ' ') + "0xffffffff, " + "|" + std::string(76, ' ') + "0x0000000a|");
  // A wide element beside a deep indent: one per row.
  EXPECT_EQ(format_constant_data(DataType::int_(8), ints(DataType::int_(8), {3, -4}), 78, "\n"),
            std::string(78, ' ') + "+0x03, \n" + std::string(78, ' ') + "-0x04\n");
}

TEST(ConstantText, FloatSpecialsAndDoubles) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(format_constant_data(DataType::float_(32),
                                 floats(DataType::float_(32), {inf, -inf, std::nan(""), -0.0, 1.5}), 4, "\n"),
            "     INFINITY, -INFINITY, NAN      , -0x0p+0  , 0x1.8p+0 \n");
  // float64: 11 characters, (80 - 4) / 11 = 6 -> 4 per row; 0.1 needs all 13 hex digits.
  EXPECT_EQ(
      format_constant_data(DataType::float_(64), floats(DataType::float_(64), {0.1, 2.0, -3.0, 0.5, 1.0}), 4, "\n"),
      "    0x1.999999999999ap-4, 0x1p+1     , -0x1.8p+1  , 0x1p-1     , \n    0x1p+0     \n");
  // float32 values are rounded to float before printing: 0.1f is 0x1.99999ap-4.
  EXPECT_EQ(format_constant_data(DataType::float_(32), floats(DataType::float_(32), {0.1}), 0, ""), "0x1.99999ap-4");
}

TEST(ConstantText, HalfTypesPrintTheirBits) {
  // float16 1.0 = 0x3c00, -2.0 = 0xc000, 65504 = 0x7bff, 1e-7 rounds to the subnormal 0x0002;
  // bfloat16 1.0 = 0x3f80, 3.0 = 0x4040. Both print as uint16 (4 + 0 = 4 wide, 16 per row).
  EXPECT_EQ(
      format_constant_data(DataType::float_(16), floats(DataType::float_(16), {1.0, -2.0, 65504.0, 1e-7}), 0, "\n"),
      "0x3c00, 0xc000, 0x7bff, 0x0002\n");
  const DataType bf16{DataType::Code::kBFloat, 16, 1};
  EXPECT_EQ(format_constant_data(bf16, floats(bf16, {1.0, 3.0}), 0, "\n"), "0x3f80, 0x4040\n");
}

TEST(ConstantText, EmptyAndUnsupported) {
  EXPECT_EQ(format_constant_data(DataType::int_(8), {}, 4, "\n"), "");
  EXPECT_FALSE(constant_text_supports(DataType::boolean()));
  EXPECT_FALSE(constant_text_supports(DataType::int_(8, 4)));
  EXPECT_FALSE(constant_text_supports(DataType::int_(4)));
  EXPECT_THROW(format_constant_data(DataType::boolean(), std::vector<uint8_t>{1}, 4, "\n"), std::invalid_argument);
  EXPECT_THROW(format_constant_data(DataType::int_(32), std::vector<uint8_t>{1, 2}, 4, "\n"), std::invalid_argument);
}

}  // namespace
}  // namespace usmpx
