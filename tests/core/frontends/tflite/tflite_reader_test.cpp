// The .tflite reader on the bundled example and on damaged files: every bad file is refused with
// "file: message", never read out of bounds.
#include <cstring>
#include <fstream>

#include <flatbuffers/flatbuffers.h>
#include <gtest/gtest.h>

#include "base/text_file.h"
#include "example_model.h"
#include "frontends/flatbuffer_walker.h"
#include "frontends/tflite/tflite_export.h"
#include "frontends/tflite/tflite_problem.h"
#include "frontends/tflite/tflite_schema.h"
#include "inputs/input_file.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

std::string refusal(const std::string& bytes) {
  try {
    (void)analyse_tflite(bytes, "bad.tflite", {});
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(TfliteReader, BundledExampleIsWhatTheGeneratorWrites) {
  const std::string generated = testing::build_example_tflite();
  const std::string path = testing::source_path("resources/examples/tiny_classifier.tflite");
  if (std::getenv("USMPX_WRITE_EXAMPLES")) write_file_atomically(path, generated);
  EXPECT_EQ(read_tflite_file(path), generated)
      << "regenerate with USMPX_WRITE_EXAMPLES=1 usmpx_core_tests --gtest_filter=TfliteReader.Bundled*";
}

TEST(TfliteReader, ExampleTensorsOperatorsAndLifetimes) {
  const TfliteAnalysis a = analyse_tflite(testing::build_example_tflite(), "tiny.tflite", {});
  ASSERT_EQ(a.tensors.size(), 12u);
  EXPECT_EQ(a.tensors[1].placement, TensorPlacement::kConstant);
  EXPECT_EQ(a.tensors[0].placement, TensorPlacement::kPlanned);
  ASSERT_EQ(a.operators.size(), 5u);
  EXPECT_EQ(a.operators[0].name, "FULLY_CONNECTED");
  EXPECT_EQ(a.operators[2].name, "ADD");
  EXPECT_EQ(a.operators[4].name, "SOFTMAX");
  // Planned: input, fc1/out, fc2/out, skip/out, logits, probabilities.
  const Problem& p = a.problem;
  ASSERT_EQ(p.buffers.size(), 6u);
  EXPECT_EQ(p.buffers[0].name, "input");
  EXPECT_EQ(p.buffers[0].kind, BufferKind::kInput);
  EXPECT_EQ(p.buffers[0].lifetime, Lifetime::closed(0, 3));  // the skip connection keeps it to ADD
  EXPECT_EQ(p.buffers[1].size_bytes, 128);
  EXPECT_EQ(p.buffers[1].lifetime, Lifetime::closed(1, 2));
  EXPECT_EQ(p.buffers[5].kind, BufferKind::kOutput);
  EXPECT_EQ(p.buffers[5].lifetime, Lifetime::closed(5, 5));
  EXPECT_EQ(p.pools[0].name, "arena");
  const Plan plan = run_planner(*make_planner("tflm_greedy"), p, PlannerOptions{});
  // TFLM's order: fc1/out (128), then the 64-byte ones from the highest index down, then 16s.
  EXPECT_EQ(plan.allocations[1].offset, 0);
  EXPECT_EQ(plan.allocations[3].offset, 0);  // skip/out reuses fc1/out's bytes
  EXPECT_EQ(plan.allocations[2].offset, 128);
  EXPECT_EQ(plan.allocations[0].offset, 192);
  EXPECT_EQ(plan.pool_sizes[0], 256);
}

TEST(TfliteReader, RecognisedThroughTheInputTable) {
  const std::string path = testing::source_path("resources/examples/tiny_classifier.tflite");
  const LoadedInput input = load_input(path);
  EXPECT_EQ(input.format, InputFormat::kTflite);
  ASSERT_TRUE(input.details);
  ASSERT_TRUE(input.exporter);
  EXPECT_EQ(input.default_algorithm, "tflm_greedy");
  EXPECT_EQ(input.reference, "TFLM");
  EXPECT_NE(input.details->info_text().find("FULLY_CONNECTED"), std::string::npos);
  EXPECT_EQ(input.problem.buffers.size(), 6u);
  LoadOptions limited;
  limited.pools.capacity = 200;
  EXPECT_EQ(load_input(path, limited).problem.pools[0].size_hint_bytes, 200);
}

TEST(TfliteReader, RefusesDamagedFilesPrecisely) {
  const std::string good = testing::build_example_tflite();
  EXPECT_EQ(refusal("abc"), "bad.tflite: too short for a TFLite model (3 bytes)");
  std::string wrong = good;
  std::memcpy(&wrong[4], "TFL2", 4);
  EXPECT_EQ(refusal(wrong),
            "bad.tflite: not a TFLite model: the flatbuffer identifier at bytes 4..8 is 'TFL2', "
            "expected 'TFL3'");
  std::string root = good;
  const uint32_t far = 0x7fff0000u;
  std::memcpy(&root[0], &far, 4);
  EXPECT_EQ(refusal(root), "bad.tflite: the root offset at byte 0 points outside the file");
  // Truncated anywhere: refused, never read past the end.
  for (size_t cut = 8; cut < good.size(); cut += 97) {
    const std::string message = refusal(good.substr(0, cut));
    EXPECT_EQ(message.rfind("bad.tflite: ", 0), 0u) << cut << ": " << message;
  }
}

TEST(TfliteReader, RefusesAnOfflinePlanOfTheWrongLength) {
  const std::string good = testing::build_example_tflite();
  const TfliteAnalysis a = analyse_tflite(good, "tiny.tflite", {});
  std::vector<int32_t> offsets(12, -1);
  std::string planned = write_offline_plan(good, a.model, offsets);
  ASSERT_EQ(refusal(planned), "accepted");
  // Change the count word: TFLM refuses a count other than the tensor count.
  const TfliteModel m = read_tflite_model(planned, "p.tflite");
  const TfliteBuffer& data = m.buffers[m.metadata.back().buffer];
  const int32_t eleven = 11;
  std::memcpy(&planned[data.data_position + 8], &eleven, 4);
  EXPECT_EQ(refusal(planned),
            "bad.tflite: OfflineMemoryAllocation metadata has 11 offsets but the model has 12 tensors (TFLM refuses "
            "it: \"Nbr of offline buffer offsets not equal nbr tensors\")");
}

// A model whose one subgraph lists the same operator table `repeats` times; the operator has
// `inputs` inputs (all tensor 0).
std::string repeated_operator_model(size_t repeats, size_t inputs) {
  namespace fb = flatbuffers;
  namespace sc = tflite_schema;
  fb::FlatBufferBuilder b;
  const auto empty_start = b.StartTable();
  const fb::Offset<void> empty_buffer(b.EndTable(empty_start));
  const auto shape = b.CreateVector(std::vector<int32_t>{1});
  const auto tensor_start = b.StartTable();
  b.AddOffset(usmpx::flatbuffer_slot(sc::tensor::kShape), shape);
  const fb::Offset<void> tensor(b.EndTable(tensor_start));
  const auto code_start = b.StartTable();
  const fb::Offset<void> code(b.EndTable(code_start));
  const auto op_inputs = b.CreateVector(std::vector<int32_t>(inputs, 0));
  const auto op_start = b.StartTable();
  b.AddOffset(usmpx::flatbuffer_slot(sc::op::kInputs), op_inputs);
  const fb::Offset<void> op(b.EndTable(op_start));
  const auto ops = b.CreateVector(std::vector<fb::Offset<void>>(repeats, op));
  const auto tensors = b.CreateVector(std::vector<fb::Offset<void>>{tensor});
  const auto sg_start = b.StartTable();
  b.AddOffset(usmpx::flatbuffer_slot(sc::subgraph::kTensors), tensors);
  b.AddOffset(usmpx::flatbuffer_slot(sc::subgraph::kOperators), ops);
  const fb::Offset<void> subgraph(b.EndTable(sg_start));
  const auto codes = b.CreateVector(std::vector<fb::Offset<void>>{code});
  const auto subgraphs = b.CreateVector(std::vector<fb::Offset<void>>{subgraph});
  const auto buffers = b.CreateVector(std::vector<fb::Offset<void>>{empty_buffer});
  const auto model_start = b.StartTable();
  b.AddOffset(usmpx::flatbuffer_slot(sc::model::kOperatorCodes), codes);
  b.AddOffset(usmpx::flatbuffer_slot(sc::model::kSubgraphs), subgraphs);
  b.AddOffset(usmpx::flatbuffer_slot(sc::model::kBuffers), buffers);
  b.Finish(fb::Offset<void>(b.EndTable(model_start)), "TFL3");
  return std::string(reinterpret_cast<const char*>(b.GetBufferPointer()), b.GetSize());
}

TEST(TfliteReader, SharedTablesCannotMultiplyWhatIsCopied) {
  // 3 operators sharing one table read fine: ADD-less ops with input 0, times 1..3.
  const TfliteAnalysis small = analyse_tflite(repeated_operator_model(3, 2), "shared.tflite", {});
  ASSERT_EQ(small.operators.size(), 3u);
  EXPECT_EQ(small.tensors[0].last, 3);
  // 200,000 references to one operator of 1,000 inputs: 800 MB to copy from 800 kB.
  const std::string hostile = repeated_operator_model(200000, 1000);
  EXPECT_LT(hostile.size(), 1000000u);
  const std::string message = refusal(hostile);
  EXPECT_NE(message.find("bad.tflite: the model's tables refer to the same lists and names over and over"),
            std::string::npos)
      << message;
}

// Two subgraphs: subgraph 0 runs one control-flow operator `code` whose options name `called`;
// subgraph 1 has one ADD.
std::string control_flow_model(int32_t code, std::vector<int32_t> called) {
  namespace fb = flatbuffers;
  namespace sc = tflite_schema;
  fb::FlatBufferBuilder b;
  const auto empty_start = b.StartTable();
  const fb::Offset<void> empty_buffer(b.EndTable(empty_start));
  auto tensor = [&] {
    const auto shape = b.CreateVector(std::vector<int32_t>{4});
    const auto start = b.StartTable();
    b.AddOffset(usmpx::flatbuffer_slot(sc::tensor::kShape), shape);
    return fb::Offset<void>(b.EndTable(start));
  };
  auto opcode = [&](int32_t c) {
    const auto start = b.StartTable();
    b.AddElement<int32_t>(usmpx::flatbuffer_slot(sc::opcode::kBuiltinCode), c, 0);
    return fb::Offset<void>(b.EndTable(start));
  };
  auto subgraph = [&](uint32_t opcode_index, bool with_options) {
    std::vector<fb::Offset<void>> tensors = {tensor(), tensor()};
    const auto options_start = b.StartTable();
    for (size_t k = 0; k < called.size(); ++k)
      b.AddElement<int32_t>(usmpx::flatbuffer_slot(static_cast<int>(k)), called[k], -1);
    const fb::Offset<void> options(b.EndTable(options_start));
    const auto inputs = b.CreateVector(std::vector<int32_t>{0});
    const auto outputs = b.CreateVector(std::vector<int32_t>{1});
    const auto op_start = b.StartTable();
    b.AddElement<uint32_t>(usmpx::flatbuffer_slot(sc::op::kOpcodeIndex), opcode_index, 0);
    b.AddOffset(usmpx::flatbuffer_slot(sc::op::kInputs), inputs);
    b.AddOffset(usmpx::flatbuffer_slot(sc::op::kOutputs), outputs);
    if (with_options) {
      b.AddElement<uint8_t>(usmpx::flatbuffer_slot(sc::op::kOptionsType), 1, 0);
      b.AddOffset(usmpx::flatbuffer_slot(sc::op::kOptions), options);
    }
    const fb::Offset<void> op(b.EndTable(op_start));
    const auto tensor_vector = b.CreateVector(tensors);
    const auto ops = b.CreateVector(std::vector<fb::Offset<void>>{op});
    const auto sg_inputs = b.CreateVector(std::vector<int32_t>{0});
    const auto sg_outputs = b.CreateVector(std::vector<int32_t>{1});
    const auto start = b.StartTable();
    b.AddOffset(usmpx::flatbuffer_slot(sc::subgraph::kTensors), tensor_vector);
    b.AddOffset(usmpx::flatbuffer_slot(sc::subgraph::kInputs), sg_inputs);
    b.AddOffset(usmpx::flatbuffer_slot(sc::subgraph::kOutputs), sg_outputs);
    b.AddOffset(usmpx::flatbuffer_slot(sc::subgraph::kOperators), ops);
    return fb::Offset<void>(b.EndTable(start));
  };
  const std::vector<fb::Offset<void>> codes = {opcode(code), opcode(0)};
  const std::vector<fb::Offset<void>> subgraphs = {subgraph(0, true), subgraph(1, false)};
  const auto code_vector = b.CreateVector(codes);
  const auto subgraph_vector = b.CreateVector(subgraphs);
  const auto buffers = b.CreateVector(std::vector<fb::Offset<void>>{empty_buffer});
  const auto model_start = b.StartTable();
  b.AddOffset(usmpx::flatbuffer_slot(sc::model::kOperatorCodes), code_vector);
  b.AddOffset(usmpx::flatbuffer_slot(sc::model::kSubgraphs), subgraph_vector);
  b.AddOffset(usmpx::flatbuffer_slot(sc::model::kBuffers), buffers);
  b.Finish(fb::Offset<void>(b.EndTable(model_start)), "TFL3");
  return std::string(reinterpret_cast<const char*>(b.GetBufferPointer()), b.GetSize());
}

TEST(TfliteReader, ControlFlowMarksTheCalledSubgraphWhereItIsCalled) {
  // CALL_ONCE (129) at time 1 calls subgraph 1 (its ADD at time 3, after the ++scope of the call).
  const TfliteAnalysis a = analyse_tflite(control_flow_model(129, {1}), "cf.tflite", {});
  ASSERT_EQ(a.tensors.size(), 4u);
  EXPECT_EQ(a.operators[0].name, "CALL_ONCE");
  EXPECT_EQ(a.operators[0].time, 1);
  EXPECT_EQ(a.operators[1].time, 3);
  EXPECT_EQ(a.tensors[0].first, 0);  // subgraph 0's input
  EXPECT_EQ(a.tensors[0].last, 3);   // its last use is after the call
  EXPECT_EQ(a.tensors[2].first, 2);  // subgraph 1's input, marked at the call
  EXPECT_EQ(a.tensors[3].last, 3);
  EXPECT_EQ(a.tensors[1].last, 3);  // subgraph 0's output
}

TEST(TfliteReader, ControlFlowThatRecursesOrNamesNoSubgraphIsRefused) {
  EXPECT_EQ(refusal(control_flow_model(119, {0, 1})),
            "bad.tflite: subgraph 0 calls itself through control flow; TFLM cannot plan recursion");
  EXPECT_EQ(refusal(control_flow_model(118, {1, 7})), "bad.tflite: IF calls subgraph 7 of 2");
}

TEST(TfliteReader, ExportRefusesAnInvalidPlanBeforeWriting) {
  const std::string good = testing::build_example_tflite();
  const TfliteAnalysis a = analyse_tflite(good, "tiny.tflite", {});
  Plan all_zero;
  all_zero.allocations.assign(a.problem.buffers.size(), Allocation{0, 0});
  EXPECT_THROW((void)export_tflite(a, good, "tiny.tflite", all_zero), std::exception);
}

}  // namespace
}  // namespace usmpx
