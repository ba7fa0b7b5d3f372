#include "example_model.h"

#include <cstdint>
#include <vector>

#include <flatbuffers/flatbuffers.h>

#include "frontends/flatbuffer_walker.h"
#include "frontends/tflite/tflite_schema.h"

namespace usmpx::testing {
namespace {

namespace fb = flatbuffers;
namespace sc = tflite_schema;

struct TensorSpec {
  const char* name;
  std::vector<int32_t> shape;
  int8_t type;
  uint32_t buffer;
};

struct OpSpec {
  uint32_t opcode;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
};

fb::Offset<void> buffer_table(fb::FlatBufferBuilder& b, const std::vector<uint8_t>& data) {
  fb::Offset<fb::Vector<uint8_t>> vector;
  if (!data.empty()) {
    b.ForceVectorAlignment(data.size(), 1, 16);  // Buffer.data is force_align: 16
    vector = b.CreateVector(data);
  }
  const auto start = b.StartTable();
  if (!data.empty()) b.AddOffset(usmpx::flatbuffer_slot(sc::buffer::kData), vector);
  return fb::Offset<void>(b.EndTable(start));
}

std::vector<uint8_t> weights(size_t n, uint32_t seed) {
  std::vector<uint8_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    seed = seed * 1103515245u + 12345u;
    out[i] = static_cast<uint8_t>(seed >> 24);
  }
  return out;
}

}  // namespace

std::string build_example_tflite() {
  fb::FlatBufferBuilder b;
  // Buffers: 0 the empty sentinel, 1..6 the constant weights and biases, 7 none.
  const std::vector<std::vector<uint8_t>> data = {{},
                                                  weights(128 * 64, 1),
                                                  weights(128 * 4, 2),
                                                  weights(64 * 128, 3),
                                                  weights(64 * 4, 4),
                                                  weights(16 * 64, 5),
                                                  weights(16 * 4, 6)};
  std::vector<fb::Offset<void>> buffers;
  for (const auto& d : data)
    buffers.push_back(buffer_table(b, d));

  const int8_t i8 = sc::kInt8;
  const int8_t i32 = sc::kInt32;
  const std::vector<TensorSpec> tensors = {
      {"input", {1, 64}, i8, 0},    {"fc1/weights", {128, 64}, i8, 1}, {"fc1/bias", {128}, i32, 2},
      {"fc1/out", {1, 128}, i8, 0}, {"fc2/weights", {64, 128}, i8, 3}, {"fc2/bias", {64}, i32, 4},
      {"fc2/out", {1, 64}, i8, 0},  {"skip/out", {1, 64}, i8, 0},      {"fc3/weights", {16, 64}, i8, 5},
      {"fc3/bias", {16}, i32, 6},   {"logits", {1, 16}, i8, 0},        {"probabilities", {1, 16}, i8, 0},
  };
  std::vector<fb::Offset<void>> tensor_tables;
  for (const TensorSpec& t : tensors) {
    const auto shape = b.CreateVector(t.shape);
    const auto name = b.CreateString(t.name);
    const auto start = b.StartTable();
    b.AddOffset(usmpx::flatbuffer_slot(sc::tensor::kShape), shape);
    b.AddElement<int8_t>(usmpx::flatbuffer_slot(sc::tensor::kType), t.type, 0);
    b.AddElement<uint32_t>(usmpx::flatbuffer_slot(sc::tensor::kBuffer), t.buffer, 0);
    b.AddOffset(usmpx::flatbuffer_slot(sc::tensor::kName), name);
    tensor_tables.push_back(fb::Offset<void>(b.EndTable(start)));
  }
  // Operator codes: 0 FULLY_CONNECTED (9), 1 ADD (0), 2 SOFTMAX (25).
  std::vector<fb::Offset<void>> codes;
  for (int32_t code : {9, 0, 25}) {
    const auto start = b.StartTable();
    b.AddElement<int8_t>(usmpx::flatbuffer_slot(sc::opcode::kDeprecatedBuiltinCode), static_cast<int8_t>(code), 0);
    b.AddElement<int32_t>(usmpx::flatbuffer_slot(sc::opcode::kVersion), 1, 1);
    b.AddElement<int32_t>(usmpx::flatbuffer_slot(sc::opcode::kBuiltinCode), code, 0);
    codes.push_back(fb::Offset<void>(b.EndTable(start)));
  }
  const std::vector<OpSpec> ops = {
      {0, {0, 1, 2}, {3}}, {0, {3, 4, 5}, {6}}, {1, {0, 6}, {7}}, {0, {7, 8, 9}, {10}}, {2, {10}, {11}},
  };
  std::vector<fb::Offset<void>> op_tables;
  for (const OpSpec& op : ops) {
    const auto inputs = b.CreateVector(op.inputs);
    const auto outputs = b.CreateVector(op.outputs);
    const auto start = b.StartTable();
    b.AddElement<uint32_t>(usmpx::flatbuffer_slot(sc::op::kOpcodeIndex), op.opcode, 0);
    b.AddOffset(usmpx::flatbuffer_slot(sc::op::kInputs), inputs);
    b.AddOffset(usmpx::flatbuffer_slot(sc::op::kOutputs), outputs);
    op_tables.push_back(fb::Offset<void>(b.EndTable(start)));
  }
  const auto tensor_vector = b.CreateVector(tensor_tables);
  const auto sg_inputs = b.CreateVector(std::vector<int32_t>{0});
  const auto sg_outputs = b.CreateVector(std::vector<int32_t>{11});
  const auto op_vector = b.CreateVector(op_tables);
  const auto sg_name = b.CreateString("main");
  const auto sg_start = b.StartTable();
  b.AddOffset(usmpx::flatbuffer_slot(sc::subgraph::kTensors), tensor_vector);
  b.AddOffset(usmpx::flatbuffer_slot(sc::subgraph::kInputs), sg_inputs);
  b.AddOffset(usmpx::flatbuffer_slot(sc::subgraph::kOutputs), sg_outputs);
  b.AddOffset(usmpx::flatbuffer_slot(sc::subgraph::kOperators), op_vector);
  b.AddOffset(usmpx::flatbuffer_slot(sc::subgraph::kName), sg_name);
  const fb::Offset<void> subgraph(b.EndTable(sg_start));

  const auto code_vector = b.CreateVector(codes);
  const auto subgraph_vector = b.CreateVector(std::vector<fb::Offset<void>>{subgraph});
  const auto description = b.CreateString("USMP Explorer example: a tiny int8 classifier with a skip connection");
  const auto buffer_vector = b.CreateVector(buffers);
  const auto model_start = b.StartTable();
  b.AddElement<uint32_t>(usmpx::flatbuffer_slot(sc::model::kVersion), 3, 0);
  b.AddOffset(usmpx::flatbuffer_slot(sc::model::kOperatorCodes), code_vector);
  b.AddOffset(usmpx::flatbuffer_slot(sc::model::kSubgraphs), subgraph_vector);
  b.AddOffset(usmpx::flatbuffer_slot(sc::model::kDescription), description);
  b.AddOffset(usmpx::flatbuffer_slot(sc::model::kBuffers), buffer_vector);
  const fb::Offset<void> model(b.EndTable(model_start));
  b.Finish(model, "TFL3");
  return std::string(reinterpret_cast<const char*>(b.GetBufferPointer()), b.GetSize());
}

}  // namespace usmpx::testing
