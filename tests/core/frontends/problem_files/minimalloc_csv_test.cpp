#include "frontends/problem_files/minimalloc_csv.h"

#include <random>

#include <gtest/gtest.h>

#include "base/input_error.h"
#include "random_problems.h"

namespace usmpx {
namespace {

TEST(MinimallocCsv, ReadsHalfOpenLifetimesIntoOneDefaultPool) {
  const Problem p = read_minimalloc_csv("id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\nb3,1,4,8\n", "in.csv");
  ASSERT_EQ(p.pools.size(), 1u);
  EXPECT_EQ(p.pools[0].name, "default");
  EXPECT_FALSE(p.pools[0].restricted());
  ASSERT_EQ(p.buffers.size(), 3u);
  EXPECT_EQ(p.buffers[0].lifetime, (Lifetime{0, 3}));
  EXPECT_EQ(p.buffers[0].lifetime->last(), 2);
  EXPECT_EQ(p.conflict_source, ConflictSource::kLifetimes);
  EXPECT_EQ(p.memory_pressure, 12);  // b1 + b3 at ticks 1-2, b2 + b3 at tick 3
}

TEST(MinimallocCsv, OptionalColumnsAndInclusiveEnds) {
  const Problem p =
      read_minimalloc_csv("id,begin,end,size,alignment,hint,offset\r\nx,2,5,10,4,,8\r\ny,0,0,3,1,7,\r\n", "in.csv");
  EXPECT_EQ(p.buffers[0].lifetime, (Lifetime{2, 6}));
  EXPECT_EQ(p.buffers[0].alignment, 4);
  EXPECT_EQ(p.buffers[0].pin, (Pin{0, 8}));
  EXPECT_FALSE(p.buffers[0].hint);
  EXPECT_EQ(p.buffers[1].hint, 7);
  EXPECT_FALSE(p.buffers[1].pin);
}

TEST(MinimallocCsv, RoundTripIsLossless) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 300; ++round) {
    testing::RandomProblemSpec spec;
    spec.buffers = round % 40;
    spec.mixed_alignment = round % 2 == 0;
    spec.pin_fraction = 0.3;
    Problem p = testing::random_interval_problem(rng, spec);
    p.pools[0].name = "default";
    p.pools[0].alignment = 16;
    for (Buffer& b : p.buffers) {
      if (b.pin && !b.pin->offset) b.pin.reset();  // CSV pins are offsets
    }
    if (!p.buffers.empty()) p.buffers[0].hint = 5;
    p.conflict_source = ConflictSource::kLifetimes;  // CSV conflicts always come from lifetimes
    const std::string csv = write_minimalloc_csv(p);
    const Problem again = read_minimalloc_csv(csv, "again.csv");
    ASSERT_EQ(again, p) << "round " << round << "\n" << csv;
    ASSERT_EQ(write_minimalloc_csv(again), csv);
  }
}

TEST(MinimallocCsv, WritesPlanOffsetsLikeMiniMallocsOutput) {
  const Problem p = read_minimalloc_csv("id,lower,upper,size\na,0,2,4\nb,1,3,4\n", "in.csv");
  Plan plan;
  plan.allocations = {{0, 4}, {0, 0}};
  EXPECT_EQ(write_minimalloc_csv(p, &plan), "id,lower,upper,size,offset\na,0,2,4,4\nb,1,3,4,0\n");
}

struct BadCsv {
  const char* text;
  int line;
  int column;
  const char* message;
};

// Named by the problem it must report (gtest would print the struct's bytes, and ctest's names with them).
void PrintTo(const BadCsv& input, std::ostream* os) {
  *os << input.message;
}

class MinimallocCsvErrors : public ::testing::TestWithParam<BadCsv> {};

TEST_P(MinimallocCsvErrors, NamesLineColumnAndProblem) {
  try {
    read_minimalloc_csv(GetParam().text, "bad.csv");
    FAIL() << "accepted bad input";
  } catch (const InputError& e) {
    EXPECT_EQ(e.location().line, GetParam().line) << e.what();
    EXPECT_EQ(e.location().column, GetParam().column) << e.what();
    EXPECT_NE(e.message().find(GetParam().message), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("bad.csv:", 0), 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, MinimallocCsvErrors,
    ::testing::Values(BadCsv{"", 1, 1, "empty file"}, BadCsv{"id,lower,upper\n", 1, 1, "needs the columns"},
                      BadCsv{"id,lower,upper,size,colour\n", 1, 21, "unknown column \"colour\""},
                      BadCsv{"id,lower,upper,size\na,0,3\n", 2, 1, "expected 4 fields, found 3"},
                      BadCsv{"id,lower,upper,size\na,0,3,12x\n", 2, 7, "expected an integer size"},
                      BadCsv{"id,lower,upper,size\na,5,3,1\n", 2, 5, "ends before it starts"},
                      BadCsv{"id,lower,upper,size\na,0,3,1\na,1,2,1\n", 3, 1, "duplicate id"},
                      BadCsv{"id,lower,upper,size\na,0,3,-1\n", 2, 7, "size must not be negative"},
                      BadCsv{"id,lower,upper,size,gaps\na,0,3,1,1-2\n", 2, 9, "gaps column is not supported"}));

}  // namespace
}  // namespace usmpx
