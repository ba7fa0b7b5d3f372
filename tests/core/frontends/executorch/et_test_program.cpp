#include "et_test_program.h"

#include <cstring>

#include <flatbuffers/flatbuffers.h>

#include "frontends/executorch/et_schema.h"
#include "frontends/flatbuffer_walker.h"

namespace usmpx::testing {
namespace {

namespace fb = flatbuffers;
namespace sc = et_schema;

fb::Offset<void> tensor_value(fb::FlatBufferBuilder& b, const EtTestTensor& t) {
  const auto sizes = b.CreateVector(t.sizes);
  std::vector<uint8_t> order;
  for (size_t i = 0; i < t.sizes.size(); ++i)
    order.push_back(static_cast<uint8_t>(i));
  const auto dim_order = b.CreateVector(order);
  fb::Offset<void> allocation;
  if (t.memory_id > 0) {
    const auto start = b.StartTable();
    b.AddElement<uint32_t>(usmpx::flatbuffer_slot(sc::allocation::kMemoryId), t.memory_id, 0);
    b.AddElement<uint32_t>(usmpx::flatbuffer_slot(sc::allocation::kOffsetLow), static_cast<uint32_t>(t.offset), 0);
    b.AddElement<uint32_t>(usmpx::flatbuffer_slot(sc::allocation::kOffsetHigh), static_cast<uint32_t>(t.offset >> 32),
                           0);
    allocation = fb::Offset<void>(b.EndTable(start));
  }
  auto start = b.StartTable();
  b.AddElement<int8_t>(usmpx::flatbuffer_slot(sc::tensor::kScalarType), t.scalar_type, 0);
  b.AddOffset(usmpx::flatbuffer_slot(sc::tensor::kSizes), sizes);
  b.AddOffset(usmpx::flatbuffer_slot(sc::tensor::kDimOrder), dim_order);
  if (t.memory_id > 0) b.AddOffset(usmpx::flatbuffer_slot(sc::tensor::kAllocationInfo), allocation);
  const fb::Offset<void> table(b.EndTable(start));
  start = b.StartTable();
  b.AddElement<uint8_t>(usmpx::flatbuffer_slot(sc::evalue::kValType), static_cast<uint8_t>(sc::ValueType::kTensor), 0);
  b.AddOffset(usmpx::flatbuffer_slot(sc::evalue::kVal), table);
  return fb::Offset<void>(b.EndTable(start));
}

fb::Offset<void> call(fb::FlatBufferBuilder& b, const EtTestCall& c) {
  const auto vector = b.CreateVector(c.args);
  auto start = b.StartTable();
  b.AddElement<int32_t>(usmpx::flatbuffer_slot(sc::kernel_call::kOpIndex), c.index, 0);
  b.AddOffset(usmpx::flatbuffer_slot(sc::kernel_call::kArgs), vector);
  const fb::Offset<void> args(b.EndTable(start));
  const auto type = c.delegate ? sc::InstructionType::kDelegateCall : sc::InstructionType::kKernelCall;
  start = b.StartTable();
  b.AddElement<uint8_t>(usmpx::flatbuffer_slot(sc::instruction::kArgsType), static_cast<uint8_t>(type), 0);
  b.AddOffset(usmpx::flatbuffer_slot(sc::instruction::kArgs), args);
  return fb::Offset<void>(b.EndTable(start));
}

// The extended header goes after the root offset and identifier, as ExecuTorch's serializer
// inserts it: 32 bytes (every alignment kept), the root offset moved past it.
std::string with_extended_header(const std::string& flat) {
  std::string out = flat.substr(0, 8) + std::string(32, '\0') + flat.substr(8);
  uint32_t root = 0;
  std::memcpy(&root, out.data(), 4);
  root += 32;
  std::memcpy(out.data(), &root, 4);
  std::memcpy(out.data() + 8, "eh00", 4);
  const uint32_t length = 32;
  const uint64_t program_size = out.size();
  std::memcpy(out.data() + 12, &length, 4);
  std::memcpy(out.data() + 16, &program_size, 8);  // segment base and data size stay 0: no segments
  return out;
}

}  // namespace

std::string et_test_program_bytes(const EtTestProgram& p) {
  fb::FlatBufferBuilder b;
  std::vector<fb::Offset<void>> values;
  for (const EtTestTensor& t : p.tensors)
    values.push_back(tensor_value(b, t));
  for (int64_t i : p.ints) {
    auto start = b.StartTable();
    b.AddElement<int64_t>(usmpx::flatbuffer_slot(0), i, 0);  // Int.int_val
    const fb::Offset<void> table(b.EndTable(start));
    start = b.StartTable();
    b.AddElement<uint8_t>(usmpx::flatbuffer_slot(sc::evalue::kValType), static_cast<uint8_t>(sc::ValueType::kInt), 0);
    b.AddOffset(usmpx::flatbuffer_slot(sc::evalue::kVal), table);
    values.push_back(fb::Offset<void>(b.EndTable(start)));
  }
  std::vector<fb::Offset<void>> instructions;
  for (const EtTestCall& c : p.calls)
    instructions.push_back(call(b, c));
  std::vector<fb::Offset<void>> operators;
  for (const std::string& full : p.operators) {
    const size_t dot = full.find('.');
    const auto name = b.CreateString(full.substr(0, dot));
    const auto overload = b.CreateString(dot == std::string::npos ? "" : full.substr(dot + 1));
    const auto start = b.StartTable();
    b.AddOffset(usmpx::flatbuffer_slot(sc::op::kName), name);
    b.AddOffset(usmpx::flatbuffer_slot(sc::op::kOverload), overload);
    operators.push_back(fb::Offset<void>(b.EndTable(start)));
  }
  std::vector<fb::Offset<void>> delegates;
  for (const std::string& id : p.delegates) {
    const auto name = b.CreateString(id);
    auto start = b.StartTable();
    b.AddElement<int8_t>(usmpx::flatbuffer_slot(sc::data_reference::kLocation), sc::kInline, -1);
    b.AddElement<uint32_t>(usmpx::flatbuffer_slot(sc::data_reference::kIndex), 0, 1);
    const fb::Offset<void> processed(b.EndTable(start));
    start = b.StartTable();
    b.AddOffset(usmpx::flatbuffer_slot(sc::delegate::kId), name);
    b.AddOffset(usmpx::flatbuffer_slot(sc::delegate::kProcessed), processed);
    delegates.push_back(fb::Offset<void>(b.EndTable(start)));
  }
  const auto instruction_vector = b.CreateVector(instructions);
  auto start = b.StartTable();
  b.AddOffset(usmpx::flatbuffer_slot(sc::chain::kInstructions), instruction_vector);
  const fb::Offset<void> chain(b.EndTable(start));

  const auto name = b.CreateString("forward");
  const auto value_vector = b.CreateVector(values);
  const auto inputs = b.CreateVector(p.inputs);
  const auto outputs = b.CreateVector(p.outputs);
  const auto chains = b.CreateVector(std::vector<fb::Offset<void>>{chain});
  const auto operator_vector = b.CreateVector(operators);
  fb::Offset<fb::Vector<fb::Offset<void>>> delegate_vector;
  if (!delegates.empty()) delegate_vector = b.CreateVector(delegates);
  const auto buffer_sizes = b.CreateVector(p.buffer_sizes);
  start = b.StartTable();
  b.AddOffset(usmpx::flatbuffer_slot(sc::plan::kName), name);
  b.AddOffset(usmpx::flatbuffer_slot(sc::plan::kValues), value_vector);
  b.AddOffset(usmpx::flatbuffer_slot(sc::plan::kInputs), inputs);
  b.AddOffset(usmpx::flatbuffer_slot(sc::plan::kOutputs), outputs);
  b.AddOffset(usmpx::flatbuffer_slot(sc::plan::kChains), chains);
  b.AddOffset(usmpx::flatbuffer_slot(sc::plan::kOperators), operator_vector);
  if (!delegates.empty()) b.AddOffset(usmpx::flatbuffer_slot(sc::plan::kDelegates), delegate_vector);
  b.AddOffset(usmpx::flatbuffer_slot(sc::plan::kNonConstBufferSizes), buffer_sizes);
  const fb::Offset<void> plan(b.EndTable(start));

  const auto plans = b.CreateVector(std::vector<fb::Offset<void>>{plan});
  start = b.StartTable();
  b.AddOffset(usmpx::flatbuffer_slot(sc::program::kExecutionPlan), plans);
  const fb::Offset<void> program(b.EndTable(start));
  b.Finish(program, "ET12");
  const std::string flat(reinterpret_cast<const char*>(b.GetBufferPointer()), b.GetSize());
  return p.extended_header ? with_extended_header(flat) : flat;
}

EtTestProgram two_delegates_joined_by_a_view() {
  EtTestProgram p;
  p.tensors = {{{1, 1024, 1024}, 1, 0},  // v0: input, 4 MiB
               {{1, 16, 1, 1}, 1, 4194304},
               {{1, 16}, 1, 4194304},  // v2: a view of v1
               {{1, 16}, 1, 0}};       // v3: output
  p.delegates = {"XnnpackBackend", "XnnpackBackend"};
  p.calls = {{true, 0, {0, 1}}, {true, 1, {2, 3}}};
  p.inputs = {0};
  p.outputs = {3};
  p.buffer_sizes = {0, 4194304 + 64 + 64};
  return p;
}

EtTestProgram delegate_output_on_dead_bytes() {
  EtTestProgram p;
  p.tensors = {{{16}, 1, 128}, {{32}, 1, 0}, {{32}, 1, 128}, {{32}, 1, 0}, {{16}, 1, 128}};
  p.operators = {"example::step.out"};
  p.delegates = {"XnnpackBackend"};
  p.calls = {{false, 0, {0, 1, 1}}, {false, 0, {1, 2, 2}}, {true, 0, {2, 3}}, {false, 0, {3, 4, 4}}};
  p.inputs = {0};
  p.outputs = {4};
  p.buffer_sizes = {0, 256};
  return p;
}

EtTestProgram add_on_long_tensors() {
  constexpr int8_t kLong = 4;
  EtTestProgram p;
  p.tensors = {{{4}, 1, 0, kLong}, {{4}, 1, 32, kLong}, {{4}, 1, 64, kLong}};
  p.ints = {1};
  p.operators = {"aten::add.out"};
  p.calls = {{false, 0, {0, 1, 3, 2, 2}}};
  p.inputs = {0, 1};
  p.outputs = {2};
  p.buffer_sizes = {0, 96};
  return p;
}

std::string example_program_bytes() {
  // Values 0..6: x[64] -> t1[64] -> t2[40] -> t3[48]; t4[48] = f(t2, t3); t5[48] = f(t3);
  // y[32] = f(t4, t5). Offsets: ExecuTorch's greedy on these lifetimes (buffer of 864 bytes).
  EtTestProgram p;
  p.tensors = {{{64}, 1, 256}, {{64}, 1, 0}, {{40}, 1, 704}, {{48}, 1, 512},
               {{48}, 1, 256}, {{48}, 1, 0}, {{32}, 1, 512}};
  const std::vector<std::vector<int32_t>> calls = {{0, 1, 1},    {1, 2, 2}, {2, 3, 3},
                                                   {2, 3, 4, 4}, {3, 5, 5}, {4, 5, 6, 6}};
  for (size_t k = 0; k < calls.size(); ++k) {
    p.calls.push_back({false, static_cast<int32_t>(k), calls[k]});
    p.operators.push_back("example::step_" + std::to_string(k + 1) + ".out");
  }
  p.inputs = {0};
  p.outputs = {6};
  p.buffer_sizes = {0, 864};
  p.extended_header = true;
  return et_test_program_bytes(p);
}

}  // namespace usmpx::testing
