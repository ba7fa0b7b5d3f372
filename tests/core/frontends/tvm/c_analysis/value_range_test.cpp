#include "frontends/tvm/c_analysis/value_range.h"

#include <gtest/gtest.h>

namespace usmpx {
namespace {

TEST(ValueRange, AffineFormsKeepTheTightMaximum) {
  RangeContext ctx;
  const ValueRange y = ctx.symbol(0, 15);
  const ValueRange x = ctx.symbol(0, 7);
  // (y * 8) + x - y: interval arithmetic alone would say 127; the affine form knows 7 * 15 + 7.
  const ValueRange e = ctx.sub(ctx.add(ctx.mul(y, ValueRange::exactly(8)), x), y);
  ASSERT_TRUE(e.known);
  EXPECT_EQ(e.hi, 112);
  EXPECT_EQ(e.lo, 0);
  EXPECT_TRUE(e.affine);
  const ValueRange shifted = ctx.sub(x, ValueRange::exactly(1));
  EXPECT_EQ(shifted.lo, -1);
  EXPECT_EQ(shifted.hi, 6);
}

TEST(ValueRange, NonAffineOperations) {
  RangeContext ctx;
  const ValueRange i = ctx.symbol(0, 99);
  EXPECT_EQ(ctx.div(i, ValueRange::exactly(8)).hi, 12);
  EXPECT_EQ(ctx.mod(i, ValueRange::exactly(8)).hi, 7);
  EXPECT_EQ(ctx.mod(ctx.symbol(2, 5), ValueRange::exactly(8)).lo, 2);
  EXPECT_EQ(ctx.shl(i, ValueRange::exactly(2)).hi, 396);
  EXPECT_EQ(ctx.shr(i, ValueRange::exactly(2)).hi, 24);
  EXPECT_EQ(ctx.bit_and(i, ValueRange::exactly(3)).hi, 3);
  EXPECT_EQ(ctx.mul(i, i).hi, 9801);
  EXPECT_EQ(ctx.hull(ValueRange::exactly(-3), i).lo, -3);
  EXPECT_FALSE(ctx.div(i, ctx.symbol(1, 2)).known);
  EXPECT_FALSE(ctx.add(i, ValueRange::unknown()).known);
  EXPECT_FALSE(ctx.mul(ValueRange::exactly(int64_t{1} << 40), ValueRange::exactly(int64_t{1} << 40)).known)
      << "no overflow";
}

}  // namespace
}  // namespace usmpx
