#include "frontends/problem_files/problem_json.h"

#include <random>

#include <gtest/gtest.h>

#include "base/input_error.h"
#include "random_problems.h"
#include "test_support.h"

namespace usmpx {
namespace {

const char* const kDesignExample = R"({"format": "usmpx-problem", "version": 1,
 "pools": [{"name": "sram", "kind": "workspace", "size_hint_bytes": 262144,
            "alignment": 1, "targets": {"c": "rw"}, "internal": false}],
 "buffers": [{"name": "a", "size_bytes": 10, "alignment": 1, "kind": "intermediate",
              "pool_candidates": ["sram"], "conflicts": ["b"], "lifetime": [0, 4]},
             {"name": "b", "size_bytes": 20, "pool_candidates": ["sram"], "conflicts": ["a"],
              "lifetime": [2, 6], "pin": {"pool": "sram", "offset": 64}}],
 "memory_pressure": 0}
)";

TEST(ProblemJson, ReadsTheDesignExample) {
  const Problem p = read_problem_json(kDesignExample, "example.json");
  ASSERT_EQ(p.pools.size(), 1u);
  EXPECT_EQ(p.pools[0].name, "sram");
  EXPECT_EQ(p.pools[0].size_hint_bytes, 262144);
  EXPECT_EQ(p.pools[0].alignment, 1);
  EXPECT_EQ(p.pools[0].targets, (std::vector<PoolTarget>{{"c", "rw"}}));
  ASSERT_EQ(p.buffers.size(), 2u);
  EXPECT_EQ(p.buffers[0].conflicts, std::vector<int>{1});
  EXPECT_EQ(p.buffers[0].lifetime, Lifetime::closed(0, 4));
  EXPECT_EQ(p.buffers[1].pin, (Pin{0, 64}));
  EXPECT_EQ(p.conflict_source, ConflictSource::kExplicit);
  EXPECT_EQ(p.memory_pressure, 0);
}

TEST(ProblemJson, WithoutConflictListsLifetimesDecideAndMemoryPressureIsMaxLive) {
  const Problem p = read_problem_json(R"({"format": "usmpx-problem", "version": 1,
    "pools": [{"name": "p"}],
    "buffers": [{"name": "a", "size_bytes": 10, "lifetime": [0, 4]},
                {"name": "b", "size_bytes": 20, "lifetime": [4, 6]},
                {"name": "c", "size_bytes": 30, "lifetime": [5, 9]}]})",
                                      "x.json");
  EXPECT_EQ(p.conflict_source, ConflictSource::kLifetimes);
  EXPECT_EQ(p.memory_pressure, 50);
  EXPECT_EQ(p.buffers[2].pool_candidates, std::vector<int>{0});
}

TEST(ProblemJson, TimelineLabelsTicks) {
  const Problem p = testing::load_problem_fixture("../../resources/examples/kws_cnn.problem.json");
  ASSERT_EQ(p.timeline.size(), 6u);
  ASSERT_NE(p.span_at(5), nullptr);
  EXPECT_EQ(p.span_at(5)->label, "tvmgen_default_fused_nn_conv2d_add_clip_1");
  EXPECT_EQ(p.span_at(99), nullptr);
}

TEST(ProblemJson, RoundTripOfFixturesIsLossless) {
  for (const char* name :
       {"tvm_examples/fanout.json", "tvm_examples/linear.json", "tvm_examples/merge_allocations.json"}) {
    const Problem p = testing::load_problem_fixture(name);
    const Problem again = read_problem_json(write_problem_json(p), "again.json");
    EXPECT_EQ(again, p) << name;
    EXPECT_EQ(write_problem_json(again), write_problem_json(p)) << name;
  }
}

TEST(ProblemJson, AnAssumedLifetimeIsKept) {
  Problem p = read_problem_json(kDesignExample, "example.json");
  p.buffers[1].lifetime_assumed = true;
  const std::string text = write_problem_json(p);
  EXPECT_NE(text.find("\"lifetime_assumed\": true"), std::string::npos);
  const Problem again = read_problem_json(text, "again.json");
  EXPECT_FALSE(again.buffers[0].lifetime_assumed);
  EXPECT_TRUE(again.buffers[1].lifetime_assumed);
  EXPECT_EQ(again, p);
}

TEST(ProblemJson, RoundTripOfRandomProblemsIsLossless) {
  std::mt19937_64 rng(3);
  for (int round = 0; round < 500; ++round) {
    testing::RandomProblemSpec spec;
    spec.buffers = round % 30;
    spec.pools = 1 + round % 3;
    spec.capacities = round % 3 == 0;
    spec.pin_fraction = 0.2;
    spec.mixed_alignment = true;
    spec.explicit_conflicts = round % 2 == 0;
    Problem p = testing::random_interval_problem(rng, spec);
    if (!p.buffers.empty()) {
      p.buffers[0].origin = {"tvmgen_default_fused_conv2d", {"model.py", 12, 5}};
      p.buffers[0].dtype = "int8";
      p.buffers[0].shape = {1, 28, 28, 8};
      p.buffers[0].kind = BufferKind::kOutput;
    }
    p.pools[0].section = ".sram_bss";
    if (round % 4 == 1) p.timeline = {{0, 3, "tvmgen_default_fused_conv2d"}, {4, 4, "tvmgen_default_fused_add"}};
    p.pools[0].targets = {{"c", "rw"}, {"llvm", "rw"}};
    const Problem again = read_problem_json(write_problem_json(p), "again.json");
    ASSERT_EQ(again, p) << "round " << round;
  }
}

struct BadInput {
  const char* text;
  int line;
  int column;
  const char* message;
};

// Named by the problem it must report (gtest would print the struct's bytes, and ctest's names with them).
void PrintTo(const BadInput& input, std::ostream* os) {
  *os << input.message;
}

class ProblemJsonErrors : public ::testing::TestWithParam<BadInput> {};

TEST_P(ProblemJsonErrors, NamesFileLineColumnAndProblem) {
  try {
    read_problem_json(GetParam().text, "bad.json");
    FAIL() << "accepted bad input";
  } catch (const InputError& e) {
    EXPECT_EQ(e.location().file, "bad.json");
    EXPECT_EQ(e.location().line, GetParam().line) << e.what();
    EXPECT_EQ(e.location().column, GetParam().column) << e.what();
    EXPECT_NE(e.message().find(GetParam().message), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ProblemJsonErrors,
    ::testing::Values(
        BadInput{"{\"format\": \"usmpx-problem\",\n \"version\": 1,\n \"pools\": [}", 3, 12, "JSON syntax error"},
        BadInput{"[1, 2]", 1, 1, "expected an object"},
        BadInput{"{\"format\": \"usmpx-problem\",\n \"version\": 1e999}", 2, 13, "number out of range: 1e999"},
        BadInput{"{\"format\": \"other\", \"version\": 1}", 1, 12, "expected \"format\": \"usmpx-problem\""},
        BadInput{"{\"format\": \"usmpx-problem\", \"version\": 2}", 1, 40, "unsupported version"},
        BadInput{"{\"format\": \"usmpx-problem\", \"version\": 1,\n \"pools\": [{\"name\": \"p\"}],\n \"buffers\": [\n"
                 "  {\"name\": \"a\", \"size_bytes\": -4}]}",
                 4, 31, "size_bytes must not be negative"},
        BadInput{"{\"format\": \"usmpx-problem\", \"version\": 1,\n \"pools\": [{\"name\": \"p\"}],\n \"buffers\": [\n"
                 "  {\"name\": \"a\", \"size_bytes\": 4, \"conflicts\": [\"zz\"]}]}",
                 4, 48, "unknown buffer \"zz\""},
        BadInput{"{\"format\": \"usmpx-problem\", \"version\": 1,\n \"pools\": [{\"name\": \"p\"}],\n \"buffers\": [\n"
                 "  {\"name\": \"a\", \"size_bytes\": 4, \"pool_candidates\": [\"q\"]}]}",
                 4, 54, "unknown pool \"q\""},
        BadInput{
            "{\"format\": \"usmpx-problem\", \"version\": 1,\n \"pools\": [{\"name\": \"p\"}, {\"name\": \"p\"}],\n"
            " \"buffers\": []}",
            2, 36, "duplicate pool name"},
        BadInput{"{\"format\": \"usmpx-problem\", \"version\": 1,\n \"pools\": [{\"name\": \"p\"}],\n \"buffers\": [\n"
                 "  {\"name\": \"a\", \"size\": 4}]}",
                 4, 25, "unknown key \"size\""},
        BadInput{"{\"format\": \"usmpx-problem\", \"version\": 1,\n \"pools\": [{\"name\": \"p\"}],\n \"buffers\": [\n"
                 "  {\"name\": \"a\"}]}",
                 4, 3, "missing \"size_bytes\""},
        BadInput{"{\"format\": \"usmpx-problem\", \"version\": 1,\n \"pools\": [{\"name\": \"p\", \"colour\": 1}],\n"
                 " \"buffers\": []}",
                 2, 36, "unknown key \"colour\""},
        BadInput{"{\"format\": \"usmpx-problem\", \"version\": 1,\n \"pools\": [{\"name\": \"p\"}],\n \"buffers\": [\n"
                 "  {\"name\": \"a\", \"size_bytes\": 4, \"lifetime\": [5, 2]}]}",
                 4, 46, "lifetime ends before it starts"}));

}  // namespace
}  // namespace usmpx
