// TVM's own USMP unit tests (reference §2), reproduced offset for offset.
#include <map>

#include <gtest/gtest.h>

#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

using testing::load_problem_fixture;
using testing::offset_of;
using testing::plan_with;
using Offsets = std::map<std::string, int64_t>;

void expect_offsets(const Problem& problem, const Plan& plan, const Offsets& expected) {
  for (const auto& [name, offset] : expected) {
    EXPECT_EQ(offset_of(problem, plan, name), offset) << plan.algorithm << ": " << name;
  }
}

const char* const kTvmAlgorithms[] = {"greedy_by_size", "greedy_by_conflicts", "hill_climb"};

TEST(TvmWorkedExamples, NameBasedOrderingPlacesBiCFirstForEveryAlgorithm) {
  const Problem problem = load_problem_fixture("tvm_examples/name_based_ordering.json");
  for (const char* algorithm : kTvmAlgorithms) {
    for (int run = 0; run < 10; ++run) {
      const Plan plan = plan_with(algorithm, problem);
      expect_offsets(problem, plan, {{"bi_a", 20}, {"bi_b", 10}, {"bi_c", 0}});
      EXPECT_EQ(plan.total_size(), 30);
    }
  }
}

TEST(TvmWorkedExamples, LinearGreedyOffsets) {
  const Problem problem = load_problem_fixture("tvm_examples/linear.json");
  for (const char* algorithm : {"greedy_by_size", "greedy_by_conflicts"}) {
    const Plan plan = plan_with(algorithm, problem);
    expect_offsets(problem, plan,
                   {{"bi_c", 0}, {"bi_e", 0}, {"bi_f", 50}, {"bi_b", 100}, {"bi_d", 100}, {"bi_a", 120}});
    EXPECT_EQ(plan.pool_sizes.at(0), 140) << algorithm;
    EXPECT_FALSE(plan.has_errors()) << algorithm;
  }
}

TEST(TvmWorkedExamples, LinearHillClimbOffsets) {
  const Problem problem = load_problem_fixture("tvm_examples/linear.json");
  const Plan plan = plan_with("hill_climb", problem);
  expect_offsets(problem, plan, {{"bi_a", 0}, {"bi_c", 0}, {"bi_e", 0}, {"bi_f", 50}, {"bi_b", 100}, {"bi_d", 100}});
  EXPECT_EQ(plan.pool_sizes.at(0), 140);
}

TEST(TvmWorkedExamples, FanoutGreedyBySize) {
  const Problem problem = load_problem_fixture("tvm_examples/fanout.json");
  const Plan plan = plan_with("greedy_by_size", problem);
  expect_offsets(problem, plan,
                 {{"bi_c", 0}, {"bi_f", 0}, {"bi_g", 0}, {"bi_e", 100}, {"bi_b", 150}, {"bi_d", 150}, {"bi_a", 170}});
  EXPECT_EQ(plan.pool_sizes.at(0), 190);
}

TEST(TvmWorkedExamples, FanoutGreedyByConflicts) {
  const Problem problem = load_problem_fixture("tvm_examples/fanout.json");
  const Plan plan = plan_with("greedy_by_conflicts", problem);
  expect_offsets(
      problem, plan,
      {{"bi_c", 0}, {"bi_e", 100}, {"bi_b", 150}, {"bi_d", 150}, {"bi_a", 170}, {"bi_f", 190}, {"bi_g", 250}});
  EXPECT_EQ(plan.pool_sizes.at(0), 320);
}

TEST(TvmWorkedExamples, FanoutHillClimb) {
  const Problem problem = load_problem_fixture("tvm_examples/fanout.json");
  const Plan plan = plan_with("hill_climb", problem);
  expect_offsets(problem, plan,
                 {{"bi_c", 0}, {"bi_f", 0}, {"bi_g", 0}, {"bi_a", 100}, {"bi_e", 100}, {"bi_b", 150}, {"bi_d", 150}});
  EXPECT_EQ(plan.pool_sizes.at(0), 190);
}

TEST(TvmWorkedExamples, FanoutOverlapsComeFromOneDirectionalLists) {
  // g lists f but f does not list g: TVM puts both at 0, and the validator says so.
  const Problem problem = load_problem_fixture("tvm_examples/fanout.json");
  const Plan plan = plan_with("greedy_by_size", problem);
  bool g_and_f = false;
  for (const Diagnostic& d : plan.diagnostics) {
    if (d.code == "overlap" && d.buffers == std::vector<int>{5, 6}) g_and_f = true;
  }
  EXPECT_TRUE(g_and_f);
}

TEST(TvmWorkedExamples, NoPoolErrorCarriesTvmText) {
  const Problem problem = load_problem_fixture("tvm_examples/no_pool_error.json");
  for (const char* algorithm : kTvmAlgorithms) {
    const Plan plan = plan_with(algorithm, problem);
    ASSERT_FALSE(plan.diagnostics.empty()) << algorithm;
    const Diagnostic& error = plan.diagnostics.front();
    EXPECT_EQ(error.code, "planner-error") << algorithm;
    EXPECT_EQ(error.message.rfind("TVM USMP Error: the space available in the provided pools exceeded when trying "
                                  "to allocate the buffer : BufferInfoNode(\nname_hint=",
                                  0),
              0u)
        << algorithm << ": " << error.message;
    EXPECT_NE(error.message.find("\n. Please increase the size_hints for memory pools."), std::string::npos);
    EXPECT_FALSE(plan_fits(problem, plan)) << algorithm;
  }
  // greedy_by_size places bi_c, then fails on bi_b.
  const Plan plan = plan_with("greedy_by_size", problem);
  EXPECT_NE(plan.diagnostics.front().message.find("name_hint=bi_b,\n  size_bytes=10,"), std::string::npos);
  EXPECT_NE(plan.diagnostics.front().message.find("pool_name=tiny_workspace"), std::string::npos);
  EXPECT_NE(plan.diagnostics.front().message.find("kind=kIntermediate,\n  conflicts=1)"), std::string::npos);
}

TEST(TvmWorkedExamples, MergeAllocationsPlacesCFirst) {
  const Problem problem = load_problem_fixture("tvm_examples/merge_allocations.json");
  const Plan plan = plan_with("greedy_by_size", problem);
  expect_offsets(problem, plan, {{"C", 0}, {"B", 256}});
  EXPECT_EQ(plan.pool_sizes.at(0), 512);
}

TEST(TvmWorkedExamples, TensorIntrinSingleBuffer) {
  const Problem problem = load_problem_fixture("tvm_examples/tensor_intrin.json");
  const Plan plan = plan_with("greedy_by_size", problem);
  expect_offsets(problem, plan, {{"dense_data", 0}});
  EXPECT_EQ(plan.pool_sizes.at(0), 40);
}

TEST(TvmQuirks, GreedyEraseReinsertOverlapsTheFirstConflict) {
  // c's first conflict (a, ending at 50) pushes it past the 70-byte pool, so the pool is erased;
  // its second conflict (b, ending at 40) re-inserts the pool at 40, overlapping a.
  const Problem problem = load_problem_fixture("tvm_examples/erase_reinsert_quirk.json");
  const Plan plan = plan_with("greedy_by_size", problem);
  expect_offsets(problem, plan, {{"a", 0}, {"b", 0}, {"c", 40}});
  EXPECT_TRUE(plan_fits(problem, plan));
  ASSERT_EQ(plan.diagnostics.size(), 1u);
  EXPECT_EQ(plan.diagnostics[0].code, "overlap");
  EXPECT_EQ(plan.diagnostics[0].buffers, (std::vector<int>{0, 2}));
}

TEST(TvmQuirks, HillClimbHasNoEraseReinsertQuirk) {
  const Problem problem = load_problem_fixture("tvm_examples/erase_reinsert_quirk.json");
  // Its gap-filling greedy skips an erased pool, so c never fits: TVM's error, and c shown above a.
  const Plan plan = plan_with("hill_climb", problem);
  ASSERT_FALSE(plan.diagnostics.empty());
  EXPECT_EQ(plan.diagnostics.front().code, "planner-error");
  EXPECT_NE(plan.diagnostics.front().message.find("name_hint=c,"), std::string::npos);
  EXPECT_EQ(offset_of(problem, plan, "c"), 50);
  EXPECT_FALSE(plan_fits(problem, plan));
}

TEST(TvmQuirks, GreedyRoundsWithTheConflictingBuffersAlignment) {
  Problem problem;
  problem.pools.push_back(Pool{.name = "p", .alignment = 1});
  problem.buffers.push_back(
      Buffer{.name = "big", .size_bytes = 10, .alignment = 8, .pool_candidates = {0}, .conflicts = {1}});
  problem.buffers.push_back(
      Buffer{.name = "small", .size_bytes = 5, .alignment = 1, .pool_candidates = {0}, .conflicts = {0}});
  const Plan plan = plan_with("greedy_by_size", problem);
  // small goes above big at round_up(10, 8) = 16, not at 10.
  EXPECT_EQ(offset_of(problem, plan, "small"), 16);
}

}  // namespace
}  // namespace usmpx
