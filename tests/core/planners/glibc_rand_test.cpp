#include "planners/toolchains/glibc_rand.h"

#include <cstdlib>

#include <gtest/gtest.h>

namespace usmpx {
namespace {

TEST(GlibcRand, SeedZeroSequenceMatchesReference) {
  uint32_t seed = 0;
  const int expected[] = {1012484, 1716955679, 1792309082, 229610924, 1639479903};
  for (int value : expected)
    EXPECT_EQ(glibc_rand_r(&seed), value);
}

#if defined(__GLIBC__)
TEST(GlibcRand, MatchesTheSystemRandR) {
  for (unsigned start : {0u, 1u, 42u, 123456789u, 4294967295u}) {
    unsigned system_seed = start;
    uint32_t our_seed = start;
    for (int i = 0; i < 1000; ++i) {
      ASSERT_EQ(glibc_rand_r(&our_seed), rand_r(&system_seed)) << "seed " << start << " draw " << i;
      ASSERT_EQ(our_seed, system_seed);
    }
  }
}
#endif

}  // namespace
}  // namespace usmpx
