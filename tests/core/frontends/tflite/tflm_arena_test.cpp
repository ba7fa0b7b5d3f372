// The arena a firmware needs, from the .tflite alone, against TFLite Micro's own accounting of
// real models (../shared/tflite/tflm_arena.json): for every model TFLM runs and each of its three
// builds (reference and CMSIS-NN kernels on a Cortex-M4, reference on x86-64), the head, every
// buffer's offset, the tail by category, each operator's persistent bytes and the total.
#include <fstream>

#include <flatbuffers/flatbuffers.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "frontends/flatbuffer_walker.h"
#include "frontends/tflite/tflite_problem.h"
#include "frontends/tflite/tflite_schema.h"
#include "frontends/tflite/tflm_min_arena.h"
#include "frontends/tflite/tflm_tail.h"
#include "kernel_fixtures.h"
#include "planners/registry.h"
#include "test_support.h"
#include "tflm_truth.h"

namespace usmpx {
namespace {

class TflmArena : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string json = testing::shared_path("tflite/tflm_arena.json");
    if (json.empty()) GTEST_SKIP() << "shared data not found: tflite/tflm_arena.json";
    std::ifstream in(json);
    arena_ = nlohmann::json::parse(in);
  }

  static TfliteAnalysis analyse(const std::string& name, const TflmBuild& build) {
    return testing::analyse_tflite_file(testing::shared_path("tflite/models/" + name + ".tflite"), build);
  }

  nlohmann::json arena_;
};

TEST_F(TflmArena, HeadOffsetsTailAndTotalEqualTflmForEveryBuildOfEveryModel) {
  int checked = 0;
  for (const auto& [name, model] : arena_["models"].items()) {
    for (const testing::TflmBuildCase& b : testing::kTflmBuilds) {
      const nlohmann::json& truth = model[b.key];
      if (!truth["runs"].get<bool>()) continue;
      SCOPED_TRACE(name + " " + b.key);
      const TfliteAnalysis a = analyse(name, b.build);
      EXPECT_TRUE(a.tail.exact);
      EXPECT_TRUE(testing::expect_equal_to_tflm(a, truth));
      ++checked;
    }
  }
  EXPECT_EQ(checked, 33);  // 11 models TFLM runs x 3 builds
}

TEST_F(TflmArena, CmsisNnChangesTheHeadWhereItsScratchDoesNotFitTheGaps) {
  // str_ww: depthwise convolutions that are not 3x3 ask CMSIS-NN for 240..3,840 bytes of im2col.
  const TfliteAnalysis reference = analyse("str_ww_ref_model", {TflmKernels::kReference, TflmTarget::kCortexM});
  const TfliteAnalysis cmsis = analyse("str_ww_ref_model", {TflmKernels::kCmsisNn, TflmTarget::kCortexM});
  const Plan r = run_planner(*make_planner("tflm_greedy"), reference.problem, PlannerOptions{});
  const Plan c = run_planner(*make_planner("tflm_greedy"), cmsis.problem, PlannerOptions{});
  EXPECT_EQ(r.pool_sizes[0], 6656);
  EXPECT_EQ(c.pool_sizes[0], 7936);
  EXPECT_EQ(cmsis.problem.buffers.size(), reference.problem.buffers.size() + 4);
}

TEST_F(TflmArena, PlanningRoomIsCountedWhereHeadPlusTailIsTooSmall) {
  // hello_world: TFLM counts 32 + 756 bytes, but while it plans, AllocateTensors holds the tail
  // built so far, the scratch request slots, one AllocationInfo per tensor and 40 bytes per planned
  // buffer: the smallest arena is what planning needs, 1,068 bytes (tflm_min_arena.json).
  const TfliteAnalysis a = analyse("hello_world_int8", {TflmKernels::kReference, TflmTarget::kCortexM});
  EXPECT_EQ(a.tail.bytes, 756);
  EXPECT_GT(tflm_planning_arena(a.tail), 32 + 756);
  EXPECT_EQ(tflm_min_arena(a.tail, 32), 1068);
  EXPECT_EQ(tflm_min_arena(a.tail, 32), tflm_planning_arena(a.tail));
  // person_detect: the head dwarfs planning.
  const TfliteAnalysis p = analyse("person_detect", {TflmKernels::kReference, TflmTarget::kCortexM});
  EXPECT_LT(tflm_planning_arena(p.tail), 55296 + p.tail.bytes);
  EXPECT_EQ(tflm_min_arena(p.tail, 55296), 82296);
}

TEST_F(TflmArena, TheTailOfAHostBuildIsLargerThanTheCortexMTail) {
  const TfliteAnalysis m = analyse("keyword_scrambled", {TflmKernels::kReference, TflmTarget::kCortexM});
  const TfliteAnalysis x = analyse("keyword_scrambled", {TflmKernels::kReference, TflmTarget::kX86_64});
  EXPECT_EQ(m.tail.bytes, 12612);
  EXPECT_EQ(x.tail.bytes, 14256);
}

// One operator `code` from tensor 0 to tensor 1 (both [1, 8] of `type`, float32 by default), the
// subgraph's input and output.
std::string one_operator_model(int8_t code, int8_t type = 0) {
  namespace fb = flatbuffers;
  namespace sc = tflite_schema;
  fb::FlatBufferBuilder b;
  const auto empty_start = b.StartTable();
  const fb::Offset<void> empty_buffer(b.EndTable(empty_start));
  std::vector<fb::Offset<void>> tensors;
  for (int k = 0; k < 2; ++k) {
    const auto shape = b.CreateVector(std::vector<int32_t>{1, 8});
    const auto start = b.StartTable();
    b.AddOffset(usmpx::flatbuffer_slot(sc::tensor::kShape), shape);
    b.AddElement<int8_t>(usmpx::flatbuffer_slot(sc::tensor::kType), type, 0);
    tensors.emplace_back(b.EndTable(start));
  }
  const auto code_start = b.StartTable();
  b.AddElement<int8_t>(usmpx::flatbuffer_slot(sc::opcode::kDeprecatedBuiltinCode), code, 0);
  const fb::Offset<void> opcode(b.EndTable(code_start));
  const auto in = b.CreateVector(std::vector<int32_t>{0});
  const auto out = b.CreateVector(std::vector<int32_t>{1});
  const auto op_start = b.StartTable();
  b.AddOffset(usmpx::flatbuffer_slot(sc::op::kInputs), in);
  b.AddOffset(usmpx::flatbuffer_slot(sc::op::kOutputs), out);
  const fb::Offset<void> op(b.EndTable(op_start));
  const auto tensor_vector = b.CreateVector(tensors);
  const auto ops = b.CreateVector(std::vector<fb::Offset<void>>{op});
  const auto sg_in = b.CreateVector(std::vector<int32_t>{0});
  const auto sg_out = b.CreateVector(std::vector<int32_t>{1});
  const auto sg_start = b.StartTable();
  b.AddOffset(usmpx::flatbuffer_slot(sc::subgraph::kTensors), tensor_vector);
  b.AddOffset(usmpx::flatbuffer_slot(sc::subgraph::kInputs), sg_in);
  b.AddOffset(usmpx::flatbuffer_slot(sc::subgraph::kOutputs), sg_out);
  b.AddOffset(usmpx::flatbuffer_slot(sc::subgraph::kOperators), ops);
  const fb::Offset<void> subgraph(b.EndTable(sg_start));
  const auto codes = b.CreateVector(std::vector<fb::Offset<void>>{opcode});
  const auto subgraphs = b.CreateVector(std::vector<fb::Offset<void>>{subgraph});
  const auto buffers = b.CreateVector(std::vector<fb::Offset<void>>{empty_buffer});
  const auto model_start = b.StartTable();
  b.AddOffset(usmpx::flatbuffer_slot(sc::model::kOperatorCodes), codes);
  b.AddOffset(usmpx::flatbuffer_slot(sc::model::kSubgraphs), subgraphs);
  b.AddOffset(usmpx::flatbuffer_slot(sc::model::kBuffers), buffers);
  b.Finish(fb::Offset<void>(b.EndTable(model_start)), "TFL3");
  return std::string(reinterpret_cast<const char*>(b.GetBufferPointer()), b.GetSize());
}

TEST(TflmTail, ABuiltinWithoutAKernelIsNamedAndTheTailIsALowerBound) {
  // LOCAL_RESPONSE_NORMALIZATION (13): TFLM registers no kernel for it.
  const TfliteAnalysis lrn = analyse_tflite(one_operator_model(13), "lrn.tflite", {});
  EXPECT_FALSE(lrn.tail.exact);
  ASSERT_EQ(lrn.tail.unknown.size(), 1u);
  EXPECT_EQ(lrn.tail.unknown[0], "LOCAL_RESPONSE_NORMALIZATION: TFLM has no kernel for it");
  EXPECT_FALSE(lrn.tail.operators[0].known);
  // TANH has a rule now, held by the tests for float32: exact, with its 16-byte op data.
  const TfliteAnalysis tanh = analyse_tflite(one_operator_model(28), "tanh.tflite", {});
  EXPECT_TRUE(tanh.tail.exact);
  EXPECT_EQ(tanh.tail.operators[0].variant, "TANH FLOAT32>FLOAT32");
  EXPECT_GE(tanh.tail.operators[0].init_bytes, 16);  // with 0..15 bytes of padding
  EXPECT_LT(tanh.tail.operators[0].init_bytes, 32);
  // A modelled kernel on the same graph: exact, and larger by its options struct and op data.
  const TfliteAnalysis softmax = analyse_tflite(one_operator_model(25), "softmax.tflite", {});
  EXPECT_TRUE(softmax.tail.exact);
  // SoftmaxParams, 56 bytes, taken 16-aligned: 0..15 bytes of padding with it.
  EXPECT_GE(softmax.tail.operators[0].init_bytes, 56);
  EXPECT_LT(softmax.tail.operators[0].init_bytes, 72);
  EXPECT_GT(softmax.tail.bytes, lrn.tail.bytes);
  // Records without pointers do not change with the target; pointer-holding records double.
  TfliteLoadOptions host;
  host.build.target = TflmTarget::kX86_64;
  const TfliteAnalysis softmax64 = analyse_tflite(one_operator_model(25), "softmax.tflite", host);
  EXPECT_EQ(softmax64.tail.categories[0].used, 2 * softmax.tail.categories[0].used);  // TfLiteEvalTensor
}

TEST(TflmTail, AVariantNoTestHoldsIsModelledButSaysAtLeast) {
  // LOGISTIC on INT32 (2): the kernel's rule gives its bytes, but no ground truth holds that variant.
  const TfliteAnalysis a = analyse_tflite(one_operator_model(14, 2), "logistic.tflite", {});
  EXPECT_TRUE(a.tail.unknown.empty());
  ASSERT_EQ(a.tail.unproven.size(), 1u);
  EXPECT_EQ(a.tail.unproven[0], "LOGISTIC INT32>INT32");
  EXPECT_FALSE(a.tail.exact);
  EXPECT_TRUE(a.tail.operators[0].known);
  EXPECT_GE(a.tail.operators[0].init_bytes, 16);
  EXPECT_LT(a.tail.operators[0].init_bytes, 32);
}

// TFLM allocates the scratch buffers' handles once for the model, not once per subgraph (it did
// in 2022): an empty subgraph after the first adds its SubgraphAllocations record (two pointers)
// and nothing else. Issue 40 found the figure 16 bytes above TFLM's on such a model.
TEST(TflmTail, ScratchHandlesAreAllocatedOnceForAllSubgraphs) {
  TfliteLoadOptions options;
  options.build = {TflmKernels::kCmsisNn, TflmTarget::kCortexM};
  const TfliteAnalysis one = analyse_tflite(testing::fully_connected_sequence_tflite(0), "fc.tflite", options);
  const TfliteAnalysis two = analyse_tflite(testing::fully_connected_sequence_tflite(1), "fc2.tflite", options);
  ASSERT_EQ(one.operators[0].scratch_buffers.size(), 1u);
  ASSERT_EQ(two.model.subgraphs.size(), 2u);
  const TflmTail a = tflm_tail(one, options.build);
  const TflmTail b = tflm_tail(two, options.build);
  // The allocator's own records (builtin data allocator, SubgraphAllocations, handles): one more
  // record of 8 bytes, and no second 4-byte handle.
  EXPECT_EQ(a.uncategorized, 245);
  EXPECT_EQ(b.uncategorized - a.uncategorized, 8);
  // The tail: 496 bytes, and 512 with the empty subgraph (the 8 bytes rounded up by the 16-aligned
  // allocations after them).
  EXPECT_EQ(a.bytes, 496);
  EXPECT_EQ(b.bytes, 512);
}

}  // namespace
}  // namespace usmpx
