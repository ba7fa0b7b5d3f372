#include "tflite_fixture.h"

#include <algorithm>

#include <flatbuffers/flatbuffers.h>

#include "frontends/flatbuffer_walker.h"
#include "frontends/tflite/tflite_schema.h"

namespace usmpx::testing {
namespace {

namespace fb = flatbuffers;
namespace sc = tflite_schema;

// Builtin codes past 126 are written as 127 (PLACEHOLDER_FOR_GREATER_OP_CODES) in the deprecated
// int8 field, with the real value in builtin_code.
constexpr int32_t kPlaceholderForGreaterOpCodes = 127;

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

fb::Offset<void> write_subgraph(fb::FlatBufferBuilder& b, const std::vector<fb::Offset<void>>& tensors,
                                const std::vector<fb::Offset<void>>& ops, const std::vector<int32_t>& inputs,
                                const std::vector<int32_t>& outputs) {
  const auto tensor_vector = b.CreateVector(tensors);
  const auto sg_inputs = b.CreateVector(inputs);
  const auto sg_outputs = b.CreateVector(outputs);
  const auto op_vector = b.CreateVector(ops);
  const auto start = b.StartTable();
  b.AddOffset(usmpx::flatbuffer_slot(sc::subgraph::kTensors), tensor_vector);
  b.AddOffset(usmpx::flatbuffer_slot(sc::subgraph::kInputs), sg_inputs);
  b.AddOffset(usmpx::flatbuffer_slot(sc::subgraph::kOutputs), sg_outputs);
  b.AddOffset(usmpx::flatbuffer_slot(sc::subgraph::kOperators), op_vector);
  return fb::Offset<void>(b.EndTable(start));
}

}  // namespace

std::string write_fixture_tflite(const FixtureModel& model) {
  fb::FlatBufferBuilder b;
  std::vector<fb::Offset<void>> buffers{buffer_table(b, {})};
  std::vector<fb::Offset<void>> tensors;
  for (const FixtureTensor& t : model.tensors) {
    uint32_t buffer = 0;
    if (!t.data.empty()) {
      buffer = static_cast<uint32_t>(buffers.size());
      buffers.push_back(buffer_table(b, t.data));
    }
    const auto shape = b.CreateVector(t.shape);
    const auto name = b.CreateString(t.name);
    const auto start = b.StartTable();
    b.AddOffset(usmpx::flatbuffer_slot(sc::tensor::kShape), shape);
    b.AddElement<int8_t>(usmpx::flatbuffer_slot(sc::tensor::kType), static_cast<int8_t>(t.type), 0);
    b.AddElement<uint32_t>(usmpx::flatbuffer_slot(sc::tensor::kBuffer), buffer, 0);
    b.AddOffset(usmpx::flatbuffer_slot(sc::tensor::kName), name);
    b.AddElement<uint8_t>(usmpx::flatbuffer_slot(sc::tensor::kIsVariable), t.is_variable ? 1 : 0, 0);
    tensors.push_back(fb::Offset<void>(b.EndTable(start)));
  }
  std::vector<fb::Offset<void>> codes;
  for (const FixtureOpcode& c : model.opcodes) {
    fb::Offset<fb::String> custom;
    if (!c.custom.empty()) custom = b.CreateString(c.custom);
    const auto start = b.StartTable();
    b.AddElement<int8_t>(usmpx::flatbuffer_slot(sc::opcode::kDeprecatedBuiltinCode),
                         static_cast<int8_t>(std::min(c.builtin, kPlaceholderForGreaterOpCodes)), 0);
    if (!c.custom.empty()) b.AddOffset(usmpx::flatbuffer_slot(sc::opcode::kCustomCode), custom);
    b.AddElement<int32_t>(usmpx::flatbuffer_slot(sc::opcode::kVersion), 1, 1);
    b.AddElement<int32_t>(usmpx::flatbuffer_slot(sc::opcode::kBuiltinCode), c.builtin, 0);
    codes.push_back(fb::Offset<void>(b.EndTable(start)));
  }
  std::vector<fb::Offset<void>> ops;
  for (const FixtureOperator& op : model.operators) {
    const auto inputs = b.CreateVector(op.inputs);
    const auto outputs = b.CreateVector(op.outputs);
    const auto start = b.StartTable();
    b.AddElement<uint32_t>(usmpx::flatbuffer_slot(sc::op::kOpcodeIndex), op.opcode, 0);
    b.AddOffset(usmpx::flatbuffer_slot(sc::op::kInputs), inputs);
    b.AddOffset(usmpx::flatbuffer_slot(sc::op::kOutputs), outputs);
    ops.push_back(fb::Offset<void>(b.EndTable(start)));
  }
  std::vector<fb::Offset<void>> subgraphs = {write_subgraph(b, tensors, ops, model.inputs, model.outputs)};
  for (int i = 0; i < model.empty_subgraphs; ++i)
    subgraphs.push_back(write_subgraph(b, {}, {}, {}, {}));

  const auto code_vector = b.CreateVector(codes);
  const auto subgraph_vector = b.CreateVector(subgraphs);
  const auto buffer_vector = b.CreateVector(buffers);
  const auto model_start = b.StartTable();
  b.AddElement<uint32_t>(usmpx::flatbuffer_slot(sc::model::kVersion), 3, 0);
  b.AddOffset(usmpx::flatbuffer_slot(sc::model::kOperatorCodes), code_vector);
  b.AddOffset(usmpx::flatbuffer_slot(sc::model::kSubgraphs), subgraph_vector);
  b.AddOffset(usmpx::flatbuffer_slot(sc::model::kBuffers), buffer_vector);
  const fb::Offset<void> root(b.EndTable(model_start));
  b.Finish(root, "TFL3");
  return std::string(reinterpret_cast<const char*>(b.GetBufferPointer()), b.GetSize());
}

std::vector<uint8_t> pattern_bytes(size_t n) {
  std::vector<uint8_t> out(n);
  for (size_t i = 0; i < n; ++i)
    out[i] = static_cast<uint8_t>(i * 37 + 11);
  return out;
}

}  // namespace usmpx::testing
