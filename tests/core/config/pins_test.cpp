#include "config/pins.h"

#include <gtest/gtest.h>

#include "base/config_error.h"

namespace usmpx {
namespace {

TEST(Pins, Parse) {
  const PinSpec a = parse_pin("sid_3=dtcm");
  EXPECT_EQ(a.buffer, "sid_3");
  EXPECT_EQ(a.pool, "dtcm");
  EXPECT_FALSE(a.offset);
  const PinSpec b = parse_pin("x=sram@4096");
  EXPECT_EQ(b.offset, 4096);
  for (const char* bad : {"x", "=p", "x=", "x=p@", "x=p@-1", "x=p@1k", "x=@5"}) {
    EXPECT_THROW(parse_pin(bad), ConfigError) << bad;
  }
}

TEST(Pins, ApplyChecksNamesAndKinds) {
  Problem p;
  p.pools.push_back(Pool{.name = "sram"});
  p.pools.push_back(Pool{.name = "flash", .kind = PoolKind::kConstant});
  p.buffers.push_back(Buffer{.name = "a", .pool_candidates = {0}});
  p.buffers.push_back(Buffer{.name = "w", .kind = BufferKind::kConstant, .pool_candidates = {1}});
  apply_pins(p, {parse_pin("a=sram@16")});
  EXPECT_EQ(p.buffers[0].pin, (Pin{0, 16}));
  EXPECT_EQ(p.effective_candidates(0), std::vector<int>{0});
  EXPECT_THROW(apply_pins(p, {parse_pin("zz=sram")}), ConfigError);
  EXPECT_THROW(apply_pins(p, {parse_pin("a=zz")}), ConfigError);
  EXPECT_THROW(apply_pins(p, {parse_pin("w=sram")}), ConfigError);
  EXPECT_THROW(apply_pins(p, {parse_pin("a=flash")}), ConfigError);
  EXPECT_THROW(apply_pins(p, {parse_pin("a=sram"), parse_pin("a=sram@0")}), ConfigError);
}

}  // namespace
}  // namespace usmpx
