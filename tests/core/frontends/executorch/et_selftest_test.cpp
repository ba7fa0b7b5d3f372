// usmpx selftest for .pte programs: the program as it is and re-planned run on the project's own
// portable operators with the plan's offsets as real memory; same outputs for a valid plan,
// outputs differ for an overlapping one, delegates and unknown operators refused by name.
#include <cmath>

#include <gtest/gtest.h>

#include "et_test_program.h"
#include "export/export_error.h"
#include "frontends/executorch/et_export.h"
#include "frontends/executorch/et_portable_ops.h"
#include "frontends/executorch/et_problem.h"
#include "frontends/executorch/et_selftest.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

ExportBundle bundle_of(const std::string& bytes) {
  ExportBundle b;
  b.single_file = true;
  b.put("program.pte", bytes);
  return b;
}

SelftestResult selftest(const std::string& path, const std::string& original, const std::string& replanned) {
  const auto st = et_selftest(path);
  EXPECT_EQ(st->obstacle(bundle_of(original), SelftestOptions{}), "");
  const auto results = st->run(bundle_of(original), bundle_of(replanned), {"host"}, "", SelftestOptions{});
  EXPECT_EQ(results.size(), 1u);
  return results.empty() ? SelftestResult{} : results.front();
}

const std::vector<std::string> kRunnable = {"add", "arduino_add", "linear_no_constant_segment", "maxpool2d", "softmax"};

TEST(EtSelftest, AsBuiltAndBestComputeTheSameOnEveryRunnableProgram) {
  for (const std::string& name : kRunnable) {
    SCOPED_TRACE(name);
    USMPX_REQUIRE_SHARED(path, "executorch/models/" + name + ".pte");
    const std::string bytes = read_et_file(path);
    const EtAnalysis a = analyse_et(bytes, path, PoolOptions{});
    Plan as_built = a.as_built;
    finish_plan(a.problem, as_built);
    const EtExport same = export_et(a, bytes, path, a.problem, as_built);
    const SelftestResult r0 = selftest(path, bytes, same.bytes);
    EXPECT_TRUE(r0.same) << r0.verdict;
    const Plan best = testing::plan_with("best", a.problem);
    ASSERT_FALSE(best.has_errors());
    const EtExport e = export_et(a, bytes, path, a.problem, best);
    const SelftestResult r = selftest(path, bytes, e.bytes);
    EXPECT_TRUE(r.same) << r.verdict << r.replanned.log;
    EXPECT_EQ(r.verdict.rfind("same outputs", 0), 0u) << r.verdict;
    ASSERT_FALSE(r.original.outputs.empty());
    EXPECT_EQ(r.original.outputs, r.replanned.outputs);
  }
}

// The operators compute what PyTorch defines: add with alpha and broadcasting, softmax, max
// pooling with the flat index of each maximum.
EtRtValue float_tensor(std::vector<int64_t> sizes, std::vector<float>& data) {
  EtRtValue v;
  v.type = et_schema::ValueType::kTensor;
  v.tensor.scalar_type = 6;
  v.tensor.sizes = std::move(sizes);
  v.tensor.data = reinterpret_cast<uint8_t*>(data.data());
  v.tensor.nbytes = static_cast<int64_t>(data.size() * 4);
  return v;
}

EtRtValue int_value(int64_t i) {
  EtRtValue v;
  v.type = et_schema::ValueType::kInt;
  v.i = i;
  return v;
}

TEST(EtSelftest, PortableOperatorsComputeWhatPyTorchDefines) {
  std::vector<float> a = {1, 2}, b = {10}, out(2);
  std::vector<EtRtValue> values = {float_tensor({2}, a), float_tensor({1}, b), int_value(2), float_tensor({2}, out)};
  et_portable_kernel("aten::add.out")(values, {0, 1, 2, 3, 3});
  EXPECT_EQ(out, (std::vector<float>{21, 22}));

  std::vector<float> logits = {0, std::log(3.0f)}, probabilities(2);
  values = {float_tensor({1, 2}, logits), int_value(-1), int_value(0), float_tensor({1, 2}, probabilities)};
  et_portable_kernel("aten::_softmax.out")(values, {0, 1, 2, 3, 3});
  EXPECT_NEAR(probabilities[0], 0.25f, 1e-6);
  EXPECT_NEAR(probabilities[1], 0.75f, 1e-6);

  std::vector<float> image = {1, 5, 3, 4}, pooled(1);
  std::vector<int64_t> index(1, -1);
  EtRtValue indices;
  indices.type = et_schema::ValueType::kTensor;
  indices.tensor = {4, {1, 1, 1, 1}, {}, reinterpret_cast<uint8_t*>(index.data()), 8};
  EtRtValue two;
  two.type = et_schema::ValueType::kIntList;
  two.ints = {2, 2};
  EtRtValue zero = two, one = two;
  zero.ints = {0, 0};
  one.ints = {1, 1};
  values = {float_tensor({1, 1, 2, 2}, image),  two,    two, zero, one, int_value(0),
            float_tensor({1, 1, 1, 1}, pooled), indices};
  et_portable_kernel("aten::max_pool2d_with_indices.out")(values, {0, 1, 2, 3, 4, 5, 6, 7, 6, 7});
  EXPECT_EQ(pooled[0], 5);
  EXPECT_EQ(index[0], 1);
}

// The keyword spotter's 16 Cortex-M (CMSIS-NN) and dim-order calls compute what ExecuTorch's own
// runtime computed: the FNV-1a of its 12 output floats is the one et_runtime.json records. (Its
// input scale, 2.82, quantises every input in [-1, 1) to the zero point, so the output does not
// depend on which generator filled the input: the kernels, weights and requantisation decide it.)
TEST(EtSelftest, KeywordSpotterComputesExecuTorchsOwnOutput) {
  USMPX_REQUIRE_SHARED(path, "executorch/models/arduino_kws.pte");
  const std::string bytes = read_et_file(path);
  const SelftestResult r = selftest(path, bytes, bytes);
  ASSERT_EQ(r.original.outputs.size(), 1u);
  EXPECT_EQ(r.original.outputs[0].second, "48 687af466890b8fbb");
}

// A deliberately overlapping plan (the second input moved onto the first one's bytes, a
// test-only placement no planner makes): the program then adds the first input to itself.
TEST(EtSelftest, AnOverlappingPlanIsReportedAsOutputsDiffer) {
  USMPX_REQUIRE_SHARED(path, "executorch/models/add.pte");
  const std::string bytes = read_et_file(path);
  const EtAnalysis a = analyse_et(bytes, path, PoolOptions{});
  ASSERT_GE(a.problem.buffers.size(), 3u);
  Plan broken = a.as_built;
  finish_plan(a.problem, broken);
  ASSERT_FALSE(broken.has_errors());
  broken.allocations[1].offset = broken.allocations[0].offset;
  broken.diagnostics.clear();
  const EtExport e = export_et(a, bytes, path, a.problem, broken);
  const SelftestResult r = selftest(path, bytes, e.bytes);
  EXPECT_FALSE(r.same);
  EXPECT_EQ(r.verdict.rfind("outputs differ: forward output 0", 0), 0u) << r.verdict;
}

// Every planned tensor of the keyword spotter moved to offset 0 (as a hand-edited program): the
// reader names the overlaps of live tensors, check calls the plan invalid, and the program run on
// that plan computes another output.
TEST(EtSelftest, ZeroedOffsetsAreCaughtByCheckAndChangeTheOutput) {
  USMPX_REQUIRE_SHARED(path, "executorch/models/arduino_kws.pte");
  const std::string bytes = read_et_file(path);
  const EtAnalysis a = analyse_et(bytes, path, PoolOptions{});
  Plan zeroed = a.as_built;
  finish_plan(a.problem, zeroed);
  for (Allocation& alloc : zeroed.allocations)
    alloc.offset = 0;
  zeroed.diagnostics.clear();
  const EtExport e = export_et(a, bytes, path, a.problem, zeroed);
  const EtAnalysis broken = analyse_et(e.bytes, path, PoolOptions{});
  int overlaps = 0;
  for (const Diagnostic& d : broken.warnings)
    overlaps += d.code == "et-overlap" ? 1 : 0;
  EXPECT_GT(overlaps, 0);
  Plan as_built = broken.as_built;
  finish_plan(broken.problem, as_built);
  EXPECT_TRUE(as_built.has_errors());
  const SelftestResult r = selftest(path, bytes, e.bytes);
  EXPECT_FALSE(r.same);
  EXPECT_EQ(r.verdict.rfind("outputs differ: forward output 0", 0), 0u) << r.verdict;
}

TEST(EtSelftest, DelegatesAndUnknownOperatorsAreRefusedByName) {
  const std::string delegated = testing::et_test_program_bytes(testing::two_delegates_joined_by_a_view());
  const std::string why = et_selftest("two.pte")->obstacle(bundle_of(delegated), SelftestOptions{});
  EXPECT_NE(why.find("it calls delegate XnnpackBackend"), std::string::npos) << why;
  USMPX_REQUIRE_SHARED(xor_path, "executorch/models/xor_training.pte");
  const std::string xor_why = et_selftest(xor_path)->obstacle(bundle_of(read_et_file(xor_path)), SelftestOptions{});
  EXPECT_NE(xor_why.find("operators not implemented by this tool: aten::_log_softmax.out, aten::addmm.out"),
            std::string::npos)
      << xor_why;
  EXPECT_NE(xor_why.find("its weights are in an external .ptd file"), std::string::npos) << xor_why;
}

// An operator the project implements, called on an element type its kernel does not: a refusal
// known before running, not a failed run of the original.
TEST(EtSelftest, AnOperatorOnAnElementTypeWithoutAKernelHereIsRefusedBeforeRunning) {
  const std::string bytes = testing::et_test_program_bytes(testing::add_on_long_tensors());
  const EtProgram p = read_et_program(bytes, "long_add.pte");
  ASSERT_EQ(p.methods.at(0).values.at(0).tensor->scalar_type, 4);
  EXPECT_EQ(et_run_obstacle(p), "aten::add.out has no LONG kernel here (implemented: FLOAT)");
  EXPECT_EQ(et_selftest("long_add.pte")->obstacle(bundle_of(bytes), SelftestOptions{}),
            "aten::add.out has no LONG kernel here (implemented: FLOAT)");
  try {
    run_et_program(bytes, "long_add.pte");
    ADD_FAILURE() << "the program ran";
  } catch (const ExportError& e) {
    EXPECT_STREQ(e.what(), "long_add.pte: cannot run: aten::add.out has no LONG kernel here (implemented: FLOAT)");
  }
  // The same program on FLOAT tensors passes the check (and runs).
  testing::EtTestProgram floats = testing::add_on_long_tensors();
  for (testing::EtTestTensor& t : floats.tensors)
    t.scalar_type = 6;
  floats.buffer_sizes = {0, 96};
  const std::string float_bytes = testing::et_test_program_bytes(floats);
  EXPECT_EQ(et_run_obstacle(read_et_program(float_bytes, "float_add.pte")), "");
  EXPECT_EQ(run_et_program(float_bytes, "float_add.pte").outputs.size(), 1u);
}

// Every operator the project implements says which element types it implements for which
// arguments (the check above reads them), except the copy that takes any.
TEST(EtSelftest, EveryKernelDeclaresItsElementTypes) {
  for (const std::string& name : et_portable_kernel_names()) {
    SCOPED_TRACE(name);
    if (name == "dim_order_ops::_clone_dim_order.out") {
      EXPECT_TRUE(et_portable_kernel_types(name).empty());
      continue;
    }
    EXPECT_FALSE(et_portable_kernel_types(name).empty());
  }
  EXPECT_TRUE(et_portable_kernel_types("aten::sub.out").empty());
}

}  // namespace
}  // namespace usmpx
