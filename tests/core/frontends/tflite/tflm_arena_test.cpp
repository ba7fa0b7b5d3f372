// The arena a firmware needs, from the .tflite alone, against TFLite Micro's own accounting of
// real models (../shared/tflite/tflm_arena.json): for every model TFLM runs and each of its three
// builds (reference and CMSIS-NN kernels on a Cortex-M4, reference on x86-64), the head, every
// buffer's offset, the tail by category, each operator's persistent bytes and the total.
#include <fstream>

#include <flatbuffers/flatbuffers.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "frontends/tflite/tflite_problem.h"
#include "frontends/tflite/tflite_schema.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

struct BuildCase {
  const char* key;
  TflmBuild build;
};

const BuildCase kBuilds[] = {
    {"reference_cortex_m4", {TflmKernels::kReference, TflmTarget::kCortexM}},
    {"cmsis_nn_cortex_m4", {TflmKernels::kCmsisNn, TflmTarget::kCortexM}},
    {"reference_x86_64", {TflmKernels::kReference, TflmTarget::kX86_64}},
};

class TflmArena : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string json = testing::shared_path("tflite/tflm_arena.json");
    if (json.empty()) GTEST_SKIP() << "shared data not found: tflite/tflm_arena.json";
    std::ifstream in(json);
    arena_ = nlohmann::json::parse(in);
  }

  static TfliteAnalysis analyse(const std::string& name, const TflmBuild& build) {
    const std::string path = testing::shared_path("tflite/models/" + name + ".tflite");
    TfliteLoadOptions options;
    options.build = build;
    return analyse_tflite(read_tflite_file(path), path, options);
  }

  nlohmann::json arena_;
};

TEST_F(TflmArena, HeadOffsetsTailAndTotalEqualTflmForEveryBuildOfEveryModel) {
  int checked = 0;
  for (const auto& [name, model] : arena_["models"].items()) {
    for (const BuildCase& b : kBuilds) {
      const nlohmann::json& truth = model[b.key];
      if (!truth["runs"].get<bool>()) continue;
      SCOPED_TRACE(name + " " + b.key);
      const TfliteAnalysis a = analyse(name, b.build);
      EXPECT_TRUE(a.unknown_scratch.empty());
      EXPECT_TRUE(a.tail.exact);
      const Plan plan = run_planner(*make_planner("tflm_greedy"), a.problem, PlannerOptions{});
      EXPECT_EQ(plan.pool_sizes[0], truth["head"].get<int64_t>());
      EXPECT_EQ(a.tail.bytes, truth["tail"].get<int64_t>());
      EXPECT_EQ(plan.pool_sizes[0] + a.tail.bytes, truth["total"].get<int64_t>());
      EXPECT_EQ(a.tail.uncategorized, truth["tail_uncategorized"].get<int64_t>());
      for (const TflmTailCategory& c : a.tail.categories) {
        SCOPED_TRACE(c.name);
        const nlohmann::json& t = truth["categories"][c.name];
        EXPECT_EQ(c.used, t["used"].get<int64_t>());
        EXPECT_EQ(c.requested, t["requested"].get<int64_t>());
        EXPECT_EQ(c.count, t["count"].get<int64_t>());
      }
      if (truth.contains("buffers")) {
        const auto& buffers = truth["buffers"];
        ASSERT_EQ(a.problem.buffers.size(), buffers.size());
        for (const auto& buf : buffers) {
          const size_t id = buf["id"].get<size_t>();
          SCOPED_TRACE("buffer " + std::to_string(id));
          EXPECT_EQ(a.problem.buffers[id].size_bytes, buf["size"].get<int64_t>());
          EXPECT_EQ(plan.allocations[id].offset, buf["offset"].get<int64_t>());
          EXPECT_EQ(a.problem.buffers[id].lifetime->first(), buf["first_used"].get<int64_t>());
          EXPECT_EQ(a.problem.buffers[id].lifetime->last(), buf["last_used"].get<int64_t>());
        }
      }
      if (truth.contains("operators")) {
        const auto& ops = truth["operators"];
        ASSERT_EQ(a.tail.operators.size(), ops.size());
        for (size_t k = 0; k < ops.size(); ++k) {
          SCOPED_TRACE("operator " + std::to_string(k));
          const TflmOperatorTail& op = a.tail.operators[k];
          EXPECT_EQ(op.name, ops[k]["op"].get<std::string>());
          EXPECT_EQ(op.init_bytes, ops[k]["init_persistent"].get<int64_t>());
          EXPECT_EQ(op.prepare_bytes, ops[k]["prepare_persistent"].get<int64_t>());
          EXPECT_EQ(op.scratch_requests, ops[k]["scratch_requests"].get<int64_t>());
          int64_t scratch = 0;
          for (int buffer : a.operators[k].scratch_buffers)
            scratch += a.problem.buffers[static_cast<size_t>(buffer)].size_bytes;
          // The ground truth gives the bytes asked for; the plan holds them rounded up to 16.
          EXPECT_GE(scratch, ops[k]["scratch_bytes"].get<int64_t>());
          EXPECT_LT(scratch, ops[k]["scratch_bytes"].get<int64_t>() + 16 * op.scratch_requests + 1);
        }
      }
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
  // built so far (all but the interpreter's I/O tensors), 12 scratch request slots of 12 bytes,
  // one 24-byte AllocationInfo per tensor (10) and 40 bytes per planned buffer (4).
  const TfliteAnalysis a = analyse("hello_world_int8", {TflmKernels::kReference, TflmTarget::kCortexM});
  EXPECT_EQ(a.tail.bytes, 756);
  EXPECT_EQ(a.tail.planning_bytes, a.tail.tail_while_planning + 144 + 10 * 24 + 4 * 40);
  EXPECT_LT(a.tail.tail_while_planning, a.tail.bytes);
  EXPECT_GT(a.tail.planning_bytes, 32 + 756);
  // person_detect: the head dwarfs planning.
  const TfliteAnalysis p = analyse("person_detect", {TflmKernels::kReference, TflmTarget::kCortexM});
  EXPECT_LT(p.tail.planning_bytes, 55296 + p.tail.bytes);
}

TEST_F(TflmArena, TheTailOfAHostBuildIsLargerThanTheCortexMTail) {
  const TfliteAnalysis m = analyse("keyword_scrambled", {TflmKernels::kReference, TflmTarget::kCortexM});
  const TfliteAnalysis x = analyse("keyword_scrambled", {TflmKernels::kReference, TflmTarget::kX86_64});
  EXPECT_EQ(m.tail.bytes, 12612);
  EXPECT_EQ(x.tail.bytes, 14256);
}

// One float operator `code` from tensor 0 to tensor 1 (both [1, 8]), the subgraph's input and output.
std::string one_operator_model(int8_t code) {
  namespace fb = flatbuffers;
  namespace sc = tflite_schema;
  fb::FlatBufferBuilder b;
  const auto empty_start = b.StartTable();
  const fb::Offset<void> empty_buffer(b.EndTable(empty_start));
  std::vector<fb::Offset<void>> tensors;
  for (int k = 0; k < 2; ++k) {
    const auto shape = b.CreateVector(std::vector<int32_t>{1, 8});
    const auto start = b.StartTable();
    b.AddOffset(sc::slot(sc::tensor::kShape), shape);
    tensors.emplace_back(b.EndTable(start));
  }
  const auto code_start = b.StartTable();
  b.AddElement<int8_t>(sc::slot(sc::opcode::kDeprecatedBuiltinCode), code, 0);
  const fb::Offset<void> opcode(b.EndTable(code_start));
  const auto in = b.CreateVector(std::vector<int32_t>{0});
  const auto out = b.CreateVector(std::vector<int32_t>{1});
  const auto op_start = b.StartTable();
  b.AddOffset(sc::slot(sc::op::kInputs), in);
  b.AddOffset(sc::slot(sc::op::kOutputs), out);
  const fb::Offset<void> op(b.EndTable(op_start));
  const auto tensor_vector = b.CreateVector(tensors);
  const auto ops = b.CreateVector(std::vector<fb::Offset<void>>{op});
  const auto sg_in = b.CreateVector(std::vector<int32_t>{0});
  const auto sg_out = b.CreateVector(std::vector<int32_t>{1});
  const auto sg_start = b.StartTable();
  b.AddOffset(sc::slot(sc::subgraph::kTensors), tensor_vector);
  b.AddOffset(sc::slot(sc::subgraph::kInputs), sg_in);
  b.AddOffset(sc::slot(sc::subgraph::kOutputs), sg_out);
  b.AddOffset(sc::slot(sc::subgraph::kOperators), ops);
  const fb::Offset<void> subgraph(b.EndTable(sg_start));
  const auto codes = b.CreateVector(std::vector<fb::Offset<void>>{opcode});
  const auto subgraphs = b.CreateVector(std::vector<fb::Offset<void>>{subgraph});
  const auto buffers = b.CreateVector(std::vector<fb::Offset<void>>{empty_buffer});
  const auto model_start = b.StartTable();
  b.AddOffset(sc::slot(sc::model::kOperatorCodes), codes);
  b.AddOffset(sc::slot(sc::model::kSubgraphs), subgraphs);
  b.AddOffset(sc::slot(sc::model::kBuffers), buffers);
  b.Finish(fb::Offset<void>(b.EndTable(model_start)), "TFL3");
  return std::string(reinterpret_cast<const char*>(b.GetBufferPointer()), b.GetSize());
}

TEST(TflmTail, AKernelWithoutARecordIsNamedAndTheTailIsALowerBound) {
  const TfliteAnalysis tanh = analyse_tflite(one_operator_model(28), "tanh.tflite", {});
  EXPECT_FALSE(tanh.tail.exact);
  ASSERT_EQ(tanh.tail.unknown.size(), 1u);
  EXPECT_EQ(tanh.tail.unknown[0], "TANH: its kernel's persistent data is not modelled");
  EXPECT_FALSE(tanh.tail.operators[0].known);
  // A modelled kernel on the same graph: exact, and larger by its options struct and op data.
  const TfliteAnalysis softmax = analyse_tflite(one_operator_model(25), "softmax.tflite", {});
  EXPECT_TRUE(softmax.tail.exact);
  // SoftmaxParams, 56 bytes, taken 16-aligned: 0..15 bytes of padding with it.
  EXPECT_GE(softmax.tail.operators[0].init_bytes, 56);
  EXPECT_LT(softmax.tail.operators[0].init_bytes, 72);
  EXPECT_GT(softmax.tail.bytes, tanh.tail.bytes);
  // Records without pointers do not change with the target; pointer-holding records double.
  TfliteLoadOptions host;
  host.build.target = TflmTarget::kX86_64;
  const TfliteAnalysis softmax64 = analyse_tflite(one_operator_model(25), "softmax.tflite", host);
  EXPECT_EQ(softmax64.tail.categories[0].used, 2 * softmax.tail.categories[0].used);  // TfLiteEvalTensor
}

}  // namespace
}  // namespace usmpx
