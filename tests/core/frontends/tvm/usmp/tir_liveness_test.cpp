// ExtractBufferInfo rule by rule, on fixtures written for this project. The expected ticks,
// conflict lists and memory pressures are worked out in the comments of each fixture.
#include <gtest/gtest.h>

#include "inputs/input_file.h"
#include "test_support.h"

namespace usmpx {
namespace {

struct Expected {
  std::string name;
  int64_t size;
  BufferKind kind;
  std::optional<std::pair<int64_t, int64_t>> lifetime;  // closed [first, last]
  std::vector<std::string> conflicts;
};

LoadedInput load(const std::string& fixture, const PoolOptions& pools = {}) {
  return load_input(testing::fixture_path("tir/" + fixture), LoadOptions{pools, ""});
}

void expect_buffers(const Problem& p, const std::vector<Expected>& expected) {
  ASSERT_EQ(p.buffers.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    const Buffer& b = p.buffers[i];
    const Expected& e = expected[i];
    EXPECT_EQ(b.name, e.name);
    EXPECT_EQ(b.size_bytes, e.size) << e.name;
    EXPECT_EQ(b.kind, e.kind) << e.name;
    EXPECT_EQ(b.alignment, 16) << e.name;
    if (e.lifetime) {
      ASSERT_TRUE(b.lifetime) << e.name;
      EXPECT_EQ(b.lifetime->first(), e.lifetime->first) << e.name;
      EXPECT_EQ(b.lifetime->last(), e.lifetime->second) << e.name;
    } else {
      EXPECT_FALSE(b.lifetime) << e.name;
    }
    std::vector<std::string> names;
    for (int c : b.conflicts)
      names.push_back(p.buffers[static_cast<size_t>(c)].name);
    EXPECT_EQ(names, e.conflicts) << e.name;
  }
  EXPECT_EQ(p.conflict_source, ConflictSource::kExplicit);
}

constexpr BufferKind kTemp = BufferKind::kIntermediate;

TEST(TirLiveness, CalleeBodiesAreWalkedAtTheCallSite) {
  const LoadedInput in = load("ticks_callee_inline.py");
  expect_buffers(
      in.problem,
      {{"x", 4, kTemp, {{3, 4}}, {"y"}}, {"y", 4, kTemp, {{3, 7}}, {"x", "z"}}, {"z", 4, kTemp, {{6, 7}}, {"y"}}});
  EXPECT_EQ(in.problem.memory_pressure, 8);
  EXPECT_EQ(in.format, InputFormat::kTvmScript);
  // Each call from main spans its own tick and its callee's ticks.
  EXPECT_EQ(in.problem.timeline, (std::vector<TimelineSpan>{{2, 4, "op"}, {5, 7, "op"}}));
  EXPECT_FALSE(in.as_built);
}

TEST(TirLiveness, AliasesAreNeverCleared) {
  const LoadedInput in = load("alias_never_cleared.py");
  expect_buffers(
      in.problem,
      {{"x", 4, kTemp, {{3, 7}}, {"y", "w"}}, {"y", 4, kTemp, {{3, 4}}, {"x"}}, {"w", 4, kTemp, {{6, 7}}, {"x"}}});
  EXPECT_EQ(in.problem.memory_pressure, 8);
}

TEST(TirLiveness, LoopsExtendToTheOutermostLoopOfTheNest) {
  const LoadedInput in = load("loop_extension.py");
  expect_buffers(
      in.problem,
      {{"d", 8, kTemp, {{2, 6}}, {"b"}}, {"b", 16, kTemp, {{2, 7}}, {"d", "e"}}, {"e", 4, kTemp, {{7, 7}}, {"b"}}});
  EXPECT_EQ(in.problem.memory_pressure, 24);
}

TEST(TirLiveness, AllocatesInParallelLoopsAreSkipped) {
  const LoadedInput in = load("parallel_loops.py");
  expect_buffers(in.problem, {{"s", 16, kTemp, {{4, 5}}, {}}});
  EXPECT_EQ(in.problem.memory_pressure, 16);
}

TEST(TirLiveness, OnlyStaticGlobalAllocatesAndNeverAccessedOnesHaveNoConflicts) {
  const LoadedInput in = load("static_sizes.py");
  expect_buffers(in.problem, {{"k", 8, kTemp, {{3, 3}}, {}}, {"unused", 32, kTemp, std::nullopt, {}}});
  EXPECT_EQ(in.problem.memory_pressure, 8);
  // The origin is the allocate statement in its function.
  EXPECT_EQ(in.problem.buffers[1].origin.function, "__tvm_main__");
  EXPECT_EQ(in.problem.buffers[1].origin.location.line, 11);
  EXPECT_EQ(in.problem.buffers[1].origin.location.column, 9);
  EXPECT_EQ(in.problem.buffers[1].dtype, "int8");
  EXPECT_EQ(in.problem.buffers[1].shape, std::vector<int64_t>{32});
}

TEST(TirLiveness, NamesAreMadeUniqueWithNumericSuffixes) {
  const LoadedInput in = load("unique_names.py");
  expect_buffers(in.problem, {{"tmp", 16, kTemp, {{4, 13}}, {"tmp2", "tmp3"}},
                              {"tmp2", 4, kTemp, {{4, 7}}, {"tmp"}},
                              {"tmp3", 4, kTemp, {{10, 13}}, {"tmp"}}});
  EXPECT_EQ(in.problem.buffers[1].origin.function, "op_a");
  EXPECT_EQ(in.problem.buffers[2].origin.function, "op_b");
  EXPECT_EQ(in.problem.memory_pressure, 20);
}

TEST(TirLiveness, ConstantsConflictOnlyWithConstants) {
  const LoadedInput in = load("constants.py");
  expect_buffers(in.problem, {{"x", 8, kTemp, {{2, 8}}, {"y", "acc"}},
                              {"y", 8, kTemp, {{5, 8}}, {"x", "acc"}},
                              {"c", 16, BufferKind::kConstant, {{2, 2}}, {"w"}},
                              {"w", 8, BufferKind::kConstant, {{7, 7}}, {"c"}},
                              {"acc", 32, kTemp, {{5, 8}}, {"x", "y"}}});
  EXPECT_EQ(in.problem.memory_pressure, 56);  // x + y + acc + w at tick 7
  // Constants go to the default constant pool, the rest to the default workspace pool.
  ASSERT_EQ(in.problem.pools.size(), 2u);
  EXPECT_EQ(in.problem.pools[0].name, "global_workspace");
  EXPECT_EQ(in.problem.pools[1].name, "global_const_workspace");
  EXPECT_EQ(in.problem.buffers[2].pool_candidates, std::vector<int>{1});
  EXPECT_EQ(in.problem.buffers[0].pool_candidates, std::vector<int>{0});
}

TEST(TirLiveness, ConstantsStayUnplannedWithoutConstantPools) {
  // With user workspace pools and no constant pools, AssignPoolInfo leaves constants alone.
  PoolOptions pools;
  pools.workspace_pools = {"sram"};
  const LoadedInput in = load("constants.py", pools);
  expect_buffers(in.problem, {{"x", 8, kTemp, {{2, 8}}, {"y", "acc"}},
                              {"y", 8, kTemp, {{5, 8}}, {"x", "acc"}},
                              {"acc", 32, kTemp, {{5, 8}}, {"x", "y"}}});
  EXPECT_EQ(in.problem.memory_pressure, 48);
}

TEST(TirLiveness, InputAndOutputAnnotationsNameTheBuffer) {
  const LoadedInput in = load("io_annotations.py");
  expect_buffers(in.problem, {{"serving_input", 16, BufferKind::kInput, {{1, 1}}, {"Identity"}},
                              {"Identity", 4, BufferKind::kOutput, {{1, 1}}, {"serving_input"}}});
  EXPECT_EQ(in.problem.memory_pressure, 20);
}

TEST(TirLiveness, AFunctionCalledTwiceGivesDuplicateAndSelfConflicts) {
  const LoadedInput in = load("called_twice.py");
  EXPECT_EQ(in.problem.timeline, (std::vector<TimelineSpan>{{3, 8, "op"}, {9, 14, "op"}}));
  expect_buffers(in.problem, {{"x", 8, kTemp, {{1, 14}}, {"y", "acc", "acc"}},
                              {"y", 8, kTemp, {{1, 14}}, {"x", "acc", "acc"}},
                              {"acc", 32, kTemp, {{1, 14}}, {"x", "y", "x", "y", "acc"}}});
  EXPECT_EQ(in.problem.memory_pressure, 80);
}

TEST(TirLiveness, BothFormatsOfOneProgramGiveOneProblem) {
  const LoadedInput script = load("same_program.py");
  const LoadedInput legacy = load("same_program.legacy.txt");
  EXPECT_EQ(legacy.format, InputFormat::kLegacyTir);
  expect_buffers(script.problem, {{"sid", 32, kTemp, {{16, 20}}, {"pad"}}, {"pad", 20, kTemp, {{5, 20}}, {"sid"}}});
  expect_buffers(legacy.problem, {{"sid", 32, kTemp, {{16, 20}}, {"pad"}}, {"pad", 20, kTemp, {{5, 20}}, {"sid"}}});
  EXPECT_EQ(script.problem.memory_pressure, 52);
  EXPECT_EQ(legacy.problem.memory_pressure, 52);
}

}  // namespace
}  // namespace usmpx
