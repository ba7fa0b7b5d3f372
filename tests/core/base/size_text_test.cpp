#include "base/size_text.h"

#include <gtest/gtest.h>

namespace usmpx {
namespace {

TEST(SizeText, PlainBytesThenKibThenMib) {
  EXPECT_EQ(with_separators(0), "0");
  EXPECT_EQ(with_separators(1234567), "1,234,567");
  EXPECT_EQ(with_separators(-32000), "-32,000");
  EXPECT_EQ(format_size(512), "512 B");
  EXPECT_EQ(format_size(9999), "9,999 B");
  EXPECT_EQ(format_size(10000), "9.8 KiB");
  EXPECT_EQ(format_size(38400), "37.5 KiB");
  EXPECT_EQ(format_size(16384), "16 KiB");
  EXPECT_EQ(format_size(4 * 1024 * 1024), "4 MiB");
  EXPECT_EQ(format_size(4193600), "4 MiB");  // 3.9993 MiB rounds to two decimals
  EXPECT_EQ(format_size(12845056), "12.25 MiB");
  EXPECT_EQ(format_size(-1), "unlimited");
}

TEST(SizeText, GibFromOneGib) {
  EXPECT_EQ(format_size(1024LL * 1024 * 1024 - 1024 * 1024), "1023 MiB");
  EXPECT_EQ(format_size(1024LL * 1024 * 1024), "1 GiB");
  EXPECT_EQ(format_size(2403844260LL), "2.24 GiB");  // read 2292.48 MiB before
  EXPECT_EQ(format_size_exact(2147483648LL), "2 GiB (2,147,483,648 B)");
}

TEST(SizeText, TwoSizesInOneUnit) {
  EXPECT_EQ(format_size_alike(8192, 16896), "8 KiB");  // beside "16.5 KiB", not "8,192 B"
  EXPECT_EQ(format_size_alike(16896, 8192), "16.5 KiB");
  EXPECT_EQ(format_size_alike(512, 9000), "512 B");  // both below 10,000: plain bytes
  EXPECT_EQ(format_size_alike(512 * 1024, 3 * 1024 * 1024), "0.5 MiB");
  EXPECT_EQ(format_size_alike(-1, 100), "unlimited");
}

TEST(SizeText, ExactAndDelta) {
  EXPECT_EQ(format_size_exact(38400), "37.5 KiB (38,400 B)");
  EXPECT_EQ(format_size_exact(208), "208 B");
  EXPECT_EQ(format_size_delta(-38400), "\u221237.5 KiB");
  EXPECT_EQ(format_size_delta(512), "+512 B");
  EXPECT_EQ(format_size_delta(0), "\u00b10 B");
}

}  // namespace
}  // namespace usmpx
