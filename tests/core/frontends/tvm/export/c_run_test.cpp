// Compiles the C export of small networks with different memory plans, runs it, and checks the
// outputs against values worked out by hand from the TIR, and across plans.
#include <gtest/gtest.h>

#include "config/pool_options.h"
#include "export_test_support.h"
#include "test_support.h"

namespace usmpx {
namespace {

using testing::DriverTensor;
using testing::PlannedRun;

// tests/fixtures/export/small_net.py with x = [-3, 5, 0, 7, -8, 2, 127, -128]:
//   add_const:  s1 = x + [1..8]                     = [-2, 7, 3, 11, -3, 8, 134, -120]
//   conv1d:     s2 = [0, s1, 0] (*) [1, -2, 1]      = [11, -13, 12, -22, 25, 115, -380, 374]
//   requant:    q_multiply_shift(v, 2^30, 31, -1) = floor((v + 2) / 4), clipped to [-64, 63]
//                                                   = [3, -3, 3, -5, 6, 29, -64, 63]
//   dense:      acc = W s3 = [3, 32, 220, -63]; q_multiply_shift(a, 0.75 * 2^31, 31, 1)
//               = floor(1.5 a + 0.5)                = [5, 48, 330, -94]
//   post:       floordiv(v, 3) = [1, 16, 110, -32]; floormod(v, 3), or -1 when 0 = [2, -1, -1, 2]
//   relu + to_float: max(s2, 0) / 2 + 0.25          = [5.75, 0.25, 6.25, 0.25, 12.75, 57.75, 0.25, 187.25]
const char* kSmallNetOutput =
    "rc=0\n"
    "Out: 1 16 110 -32 2 -1 -1 2\n"
    "OutF: 5.75 0.25 6.25 0.25 12.75 57.75 0.25 187.25\n";

std::vector<DriverTensor> small_net_tensors() {
  return {{"X", "x", "int8_t", 8, {"-3", "5", "0", "7", "-8", "2", "127", "-128"}},
          {"Out", "out", "int32_t", 8, {}},
          {"OutF", "out_f", "float", 8, {}}};
}

std::string small_net() {
  return testing::fixture_path("export/small_net.py");
}

// Two workspace pools, dtcm limited to `dtcm_bytes` (-1: unrestricted); no constant pool, so
// the constants stay in the operators as static arrays.
PoolOptions two_pools(int64_t dtcm_bytes) {
  PoolOptions o;
  o.workspace_pools = {"dtcm", "sram"};
  o.workspace_size_hints = {{"dtcm", dtcm_bytes}};
  return o;
}

TEST(CRun, SmallNetComputesTheHandWorkedValuesUnderEveryPlan) {
  USMPX_REQUIRE_CC(cc);
  const TirProblem one_pool = testing::analyze_tir_file(small_net());
  const TirProblem split = testing::analyze_tir_file(small_net(), two_pools(48));
  const TirProblem split_free = testing::analyze_tir_file(small_net(), two_pools(-1));
  struct Variant {
    const char* name;
    const TirProblem* tir;
    Plan plan;
  };
  const std::vector<Variant> variants = {
      {"greedy_by_size, default pools", &one_pool, testing::plan_with("greedy_by_size", one_pool.problem)},
      {"distinct offsets, default pools", &one_pool, testing::distinct_plan(one_pool.problem)},
      {"hill_climb, default pools", &one_pool, testing::plan_with("hill_climb", one_pool.problem)},
      {"greedy_by_conflicts, dtcm (48 B) + sram", &split, testing::plan_with("greedy_by_conflicts", split.problem)},
      {"spread over dtcm + sram", &split_free, testing::spread_plan(split_free.problem)},
  };
  std::vector<std::string> sources;
  for (const Variant& v : variants) {
    SCOPED_TRACE(v.name);
    ASSERT_TRUE(plan_fits(v.tir->problem, v.plan));
    const PlannedRun run = testing::run_with_plan(cc, *v.tir, v.plan, small_net_tensors());
    ASSERT_TRUE(run.run.ok) << run.run.output << "\n" << run.source;
    EXPECT_EQ(run.run.output, kSmallNetOutput) << run.source;
    sources.push_back(run.source);
  }
  // The plans really differ: reuse versus none, one pool versus two.
  EXPECT_NE(sources[0], sources[1]);
  EXPECT_NE(sources[3], sources[4]);
  EXPECT_NE(sources[0].find("uint8_t* global_workspace_1_var"), std::string::npos);
  EXPECT_NE(sources[3].find("uint8_t* dtcm_0_var, uint8_t* sram_1_var"), std::string::npos);
}

// With use_workspace_io the outputs live in the pools. USMP's liveness ends an output at its
// last write, like any buffer, so TVM's planners may let a later buffer overwrite it before the
// application reads it (here Out and OutF share bytes under greedy_by_size): the plans used here
// do not reuse memory.
TEST(CRun, SmallNetWithInputsAndOutputsInThePools) {
  USMPX_REQUIRE_CC(cc);
  PoolOptions io;
  io.use_workspace_io = true;
  PoolOptions io_split = two_pools(-1);
  io_split.use_workspace_io = true;
  const TirProblem one_pool = testing::analyze_tir_file(small_net(), io);
  const TirProblem split = testing::analyze_tir_file(small_net(), io_split);
  for (const auto& [tir, plan] : {std::pair{&one_pool, testing::distinct_plan(one_pool.problem)},
                                  std::pair{&split, testing::spread_plan(split.problem)}}) {
    const PlannedRun run = testing::run_with_plan(cc, *tir, plan, small_net_tensors());
    ASSERT_TRUE(run.run.ok) << run.run.output << "\n" << run.source;
    EXPECT_EQ(run.run.output, kSmallNetOutput) << run.source;
    // main has no I/O parameters: only its pools.
    EXPECT_NE(run.source.find("TVM_DLL int32_t tvmgen_default___tvm_main__(uint8_t* "), std::string::npos);
    EXPECT_NE(run.source.find("void* X_let = "), std::string::npos);
  }
}

// tests/fixtures/tir/post_usmp.legacy.txt: fused_add copies its input through acc and adds 1;
// main runs it four times, so out[i] = in[i] + 4. With in[i] = 3 i - 90: out[i] = 3 i - 86.
TEST(CRun, PostUsmpDumpRunsAsBuiltAndReplanned) {
  USMPX_REQUIRE_CC(cc);
  const TirProblem tir = testing::analyze_tir_file(testing::fixture_path("tir/post_usmp.legacy.txt"));
  ASSERT_TRUE(tir.as_built.has_value());
  std::vector<std::string> in;
  std::string expected = "rc=0\noutput_buffer_var:";
  for (int i = 0; i < 64; ++i) {
    in.push_back(std::to_string(3 * i - 90));
    expected += " " + std::to_string(3 * i - 86);
  }
  expected += "\n";
  const std::vector<DriverTensor> tensors = {{"input_buffer_var", "", "int8_t", 64, in},
                                             {"output_buffer_var", "", "int8_t", 64, {}}};
  for (const Plan& plan :
       {*tir.as_built, testing::plan_with("greedy_by_size", tir.problem), testing::distinct_plan(tir.problem)}) {
    SCOPED_TRACE(plan.algorithm);
    const PlannedRun run = testing::run_with_plan(cc, tir, plan, tensors);
    ASSERT_TRUE(run.run.ok) << run.run.output << "\n" << run.source;
    EXPECT_EQ(run.run.output, expected);
  }
}

// tests/fixtures/tir/same_program.{py,legacy.txt}: pad = [0, 0, A, 0, 0]; for each j,
// acc = 3 pad[j] + floordiv(pad[j + 4], 2); B[j] = acc when even (clipped to int16), else -1.
// A = [-7, -3, 0, 1, 2, 5, 9, 100, -100, -1, 4, 6, 8, 127, -128, 3]:
//   j:    0   1    2    3   4   5   6    7     8    9  10   11   12   13    14   15
//   pad:  0   0   -7   -3   0   1   2    5     9  100 -100  -1    4    6     8  127
//   +4:   0   1    2    5   9 100 -100  -1     4    6    8  127 -128    3     0    0
//   acc:  0   0  -20   -7   4 53  -44   14    29  303 -296   60  -52   19    24  381
const char* kSameProgramOutput = "rc=0\nout_buf: 0 0 -20 -1 4 -1 -44 14 -1 -1 -296 60 -52 -1 24 -1\n";

TEST(CRun, SameProgramInBothFormatsGivesTheHandWorkedValues) {
  USMPX_REQUIRE_CC(cc);
  const std::vector<DriverTensor> tensors = {
      {"inp_buf",
       "",
       "int8_t",
       16,
       {"-7", "-3", "0", "1", "2", "5", "9", "100", "-100", "-1", "4", "6", "8", "127", "-128", "3"}},
      {"out_buf", "", "int16_t", 16, {}}};
  for (const char* file : {"tir/same_program.py", "tir/same_program.legacy.txt"}) {
    SCOPED_TRACE(file);
    const TirProblem tir = testing::analyze_tir_file(testing::fixture_path(file));
    for (const Plan& plan : {testing::plan_with("greedy_by_size", tir.problem), testing::distinct_plan(tir.problem)}) {
      const PlannedRun run = testing::run_with_plan(cc, tir, plan, tensors);
      ASSERT_TRUE(run.run.ok) << run.run.output << "\n" << run.source;
      EXPECT_EQ(run.run.output, kSameProgramOutput) << run.source;
    }
  }
}

// The bundled keyword-spotting network (constants truncated by the printer, so completed with
// zeros): the same outputs under TVM's plans, a plan without reuse, and from the dump written
// after USMP (where the constants stay in the operators) as built and re-planned.
TEST(CRun, KwsDscnnGivesTheSameOutputsUnderEveryPlan) {
  USMPX_REQUIRE_CC(cc);
  std::vector<std::string> in;
  for (int i = 0; i < 490; ++i)
    in.push_back(std::to_string((i * 37) % 256 - 128));
  const std::vector<DriverTensor> tensors = {{"input_buffer_var", "", "int8_t", 490, in},
                                             {"output_buffer_var", "", "int8_t", 12, {}}};
  const TirProblem before =
      testing::analyze_tir_file(testing::source_path("resources/examples/kws_dscnn.tvmscript.py"));
  const TirProblem after =
      testing::analyze_tir_file(testing::source_path("resources/examples/kws_dscnn.planned.tvmscript.py"));
  std::vector<std::string> outputs;
  for (const auto& [tir, plan] :
       {std::pair{&before, testing::plan_with("greedy_by_size", before.problem)},
        std::pair{&before, testing::distinct_plan(before.problem)},
        std::pair{&before, testing::plan_with("hill_climb", before.problem)}, std::pair{&after, *after.as_built},
        std::pair{&after, testing::plan_with("greedy_by_size", after.problem)},
        std::pair{&after, testing::spread_plan(after.problem)}}) {
    SCOPED_TRACE(outputs.size());
    const PlannedRun run = testing::run_with_plan(cc, *tir, plan, tensors);
    ASSERT_TRUE(run.run.ok) << run.run.output;
    ASSERT_TRUE(run.run.output.starts_with("rc=0\noutput_buffer_var: ")) << run.run.output;
    outputs.push_back(run.run.output);
  }
  for (const std::string& o : outputs)
    EXPECT_EQ(o, outputs.front());
}

}  // namespace
}  // namespace usmpx
