// Which tensors of a .pte share storage: views no instruction writes (between delegate calls
// too) are one buffer with their base in every plan; any other overlap of live tensors in the
// program's plan makes it invalid, named with both tensors and the bytes they share.
#include <gtest/gtest.h>

#include "et_test_program.h"
#include "frontends/executorch/et_export.h"
#include "frontends/executorch/et_problem.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

const EtTensorInfo& tensor(const EtAnalysis& a, int value) {
  for (const EtTensorInfo& t : a.tensors) {
    if (t.value == value) return t;
  }
  throw std::runtime_error("no planned value " + std::to_string(value));
}

// Where a plan puts a tensor: its buffer's offset plus its place inside the buffer.
int64_t placed_at(const EtAnalysis& a, const Plan& plan, int value) {
  const EtTensorInfo& t = tensor(a, value);
  return plan.allocations[static_cast<size_t>(t.buffer)].offset + t.delta;
}

bool has_warning(const EtAnalysis& a, const std::string& code, const std::string& text) {
  for (const Diagnostic& d : a.warnings) {
    if (d.code == code && d.message.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(EtAliases, AViewBetweenTwoDelegateCallsIsOneBufferWithItsBase) {
  const std::string bytes = testing::et_test_program_bytes(testing::two_delegates_joined_by_a_view());
  const EtAnalysis a = analyse_et(bytes, "two_delegates.pte", PoolOptions{});
  const EtTensorInfo& view = tensor(a, 2);
  EXPECT_TRUE(view.view);
  EXPECT_EQ(view.alias_of, 1);
  EXPECT_EQ(view.buffer, tensor(a, 1).buffer);
  EXPECT_EQ(view.delta, 0);
  ASSERT_EQ(a.problem.buffers.size(), 3u);
  const Buffer& joined = a.problem.buffers[static_cast<size_t>(view.buffer)];
  EXPECT_EQ(joined.size_bytes, 64);
  EXPECT_EQ(joined.lifetime->first(), 0);  // written by call 0 ...
  EXPECT_EQ(joined.lifetime->last(), 1);   // ... read through its view by call 1
  EXPECT_FALSE(joined.pin);
  EXPECT_TRUE(has_warning(a, "et-alias", "first given to a delegate"));
  // ExecuTorch's greedy reproduces the file's offsets once the view shares its base's storage.
  EXPECT_EQ(a.reproduced_by, "et_greedy");
  Plan as_built = a.as_built;
  finish_plan(a.problem, as_built);
  EXPECT_FALSE(as_built.has_errors());
  const Plan greedy = run_planner(*make_planner("et_greedy"), a.problem, PlannerOptions{});
  EXPECT_EQ(greedy.allocations, a.as_built.allocations);
  EXPECT_EQ(placed_at(a, greedy, 1), 4194304);
  EXPECT_EQ(placed_at(a, greedy, 2), 4194304);
  EXPECT_EQ(placed_at(a, greedy, 3), 0);
}

TEST(EtAliases, NoPlanSeparatesTheViewFromItsBase) {
  const std::string bytes = testing::et_test_program_bytes(testing::two_delegates_joined_by_a_view());
  const EtAnalysis a = analyse_et(bytes, "two_delegates.pte", PoolOptions{});
  for (const std::string algorithm : {"best", "et_greedy", "et_greedy_2024", "greedy_by_size", "first_fit"}) {
    SCOPED_TRACE(algorithm);
    const Plan plan = testing::plan_with(algorithm, a.problem);
    ASSERT_FALSE(plan.has_errors());
    EXPECT_EQ(placed_at(a, plan, 1), placed_at(a, plan, 2));
    // The view's bytes hold nothing else from its base's write to its read.
    const int64_t at = placed_at(a, plan, 2);
    EXPECT_TRUE(placed_at(a, plan, 3) >= at + 64 || placed_at(a, plan, 3) + 64 <= at);
    // The copy written back keeps them on the same bytes.
    const EtExport e = export_et(a, bytes, "two_delegates.pte", a.problem, plan);
    const EtAnalysis back = analyse_et(e.bytes, "two_delegates.pte", PoolOptions{});
    EXPECT_EQ(tensor(back, 1).offset, tensor(back, 2).offset);
    EXPECT_EQ(tensor(back, 2).alias_of, 1);
  }
}

// Without the view rule, best moved value 2 onto the dead input's bytes: the program then read
// uninitialised memory. A tensor a delegate is given first that is the output of the method is
// what the delegate writes, not a view.
TEST(EtAliases, ADelegatesOutputIsNotAView) {
  testing::EtTestProgram p = testing::two_delegates_joined_by_a_view();
  const EtAnalysis a = analyse_et(testing::et_test_program_bytes(p), "two_delegates.pte", PoolOptions{});
  EXPECT_FALSE(tensor(a, 3).view);
  EXPECT_EQ(tensor(a, 3).alias_of, -1);
}

// A delegate's first tensor on the exact bytes of a tensor read again after its write may be a
// view or the delegate's output: ExecuTorch's greedy gives the program's offsets only with them
// apart, so they are planned apart (and the plan stays valid).
TEST(EtAliases, ADelegatesOutputOnDeadBytesIsPlannedApartWhenOnlyThatGivesTheOffsets) {
  const EtAnalysis a = analyse_et(testing::et_test_program_bytes(testing::delegate_output_on_dead_bytes()),
                                  "dead_bytes.pte", PoolOptions{});
  EXPECT_FALSE(tensor(a, 3).view);
  EXPECT_NE(tensor(a, 3).buffer, tensor(a, 1).buffer);
  EXPECT_EQ(a.problem.buffers.size(), 5u);
  EXPECT_EQ(a.reproduced_by, "et_greedy");
  EXPECT_TRUE(has_warning(a, "et-alias", "planned apart from it, as only that gives the program's offsets"));
  Plan as_built = a.as_built;
  finish_plan(a.problem, as_built);
  EXPECT_FALSE(as_built.has_errors());
}

// A tensor a delegate is given first on part of the bytes of a tensor nothing reads after its
// write: the tool cannot tell whether it is a view, so both stay where the program put them.
TEST(EtAliases, WhatCannotBeToldIsPinnedWhereTheProgramPutIt) {
  testing::EtTestProgram p = testing::two_delegates_joined_by_a_view();
  p.tensors[2] = {{1, 8}, 1, 4194304 + 32};  // 32 bytes inside value 1's 64
  const EtAnalysis a = analyse_et(testing::et_test_program_bytes(p), "two_delegates.pte", PoolOptions{});
  const EtTensorInfo& t = tensor(a, 2);
  EXPECT_TRUE(t.pinned);
  EXPECT_FALSE(t.view);
  EXPECT_EQ(t.buffer, tensor(a, 1).buffer);
  const Buffer& b = a.problem.buffers[static_cast<size_t>(t.buffer)];
  ASSERT_TRUE(b.pin);
  EXPECT_EQ(b.pin->offset, 4194304);
  EXPECT_TRUE(has_warning(a, "et-pinned", "1 tensor(s) a delegate is given first"));
  const Plan best = testing::plan_with("best", a.problem);
  ASSERT_FALSE(best.has_errors());
  EXPECT_EQ(placed_at(a, best, 2), 4194304 + 32);
}

// Softmax's input moved onto its output's bytes (offset 32,768 -> 0): both are live at the
// softmax call and the program states no reason for them to share, so the plan is invalid.
TEST(EtAliases, OverlappingLiveTensorsWithoutAReasonAreAnInvalidPlan) {
  USMPX_REQUIRE_SHARED(path, "executorch/models/softmax.pte");
  std::string bytes = read_et_file(path);
  const std::string low("\x00\x80\x00\x00", 4);  // memory_offset_low = 32768
  const size_t at = bytes.find(low);
  ASSERT_NE(at, std::string::npos);
  bytes[at + 1] = 0;
  const EtAnalysis a = analyse_et(bytes, path, PoolOptions{});
  ASSERT_EQ(a.problem.buffers.size(), 2u);
  EXPECT_EQ(a.tensors[1].alias_of, -1);
  EXPECT_TRUE(has_warning(a, "et-overlap",
                          "puts v0 [0, 32768) and v1 [0, 32768) of memory id 1 on the same 32768 bytes [0, 32768)"))
      << a.warnings.back().message;
  Plan plan = a.as_built;
  finish_plan(a.problem, plan);
  ASSERT_TRUE(plan.has_errors());
  bool overlap = false;
  for (const Diagnostic& d : plan.diagnostics)
    overlap = overlap || (d.code == "overlap" && d.buffers == std::vector<int>{0, 1});
  EXPECT_TRUE(overlap);
}

// The real programs' plans have no unexplained overlap (their views and returned values are
// stated), so each stays valid.
TEST(EtAliases, NoRealProgramHasAnUnexplainedOverlap) {
  for (const std::string name :
       {"add", "arduino_add", "arduino_kws", "linear_no_constant_segment", "maxpool2d", "softmax", "xor_training"}) {
    SCOPED_TRACE(name);
    USMPX_REQUIRE_SHARED(path, "executorch/models/" + name + ".pte");
    const EtAnalysis a = analyse_et(read_et_file(path), path, PoolOptions{});
    for (const Diagnostic& d : a.warnings) {
      EXPECT_NE(d.code, "et-overlap") << d.message;
      EXPECT_NE(d.code, "et-pinned") << d.message;
    }
  }
}

}  // namespace
}  // namespace usmpx
