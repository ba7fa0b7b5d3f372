#include "example_program.h"

#include <cstdint>
#include <cstring>
#include <vector>

#include <flatbuffers/flatbuffers.h>

#include "frontends/executorch/et_schema.h"
#include "frontends/flatbuffer_walker.h"

namespace usmpx::testing {
namespace {

namespace fb = flatbuffers;
namespace sc = et_schema;

struct TensorSpec {
  int32_t elements;
  uint64_t offset;  // ExecuTorch's greedy plan of this chain
};

fb::Offset<void> tensor(fb::FlatBufferBuilder& b, const TensorSpec& t) {
  const auto sizes = b.CreateVector(std::vector<int32_t>{t.elements});
  const auto dim_order = b.CreateVector(std::vector<uint8_t>{0});
  auto start = b.StartTable();
  b.AddElement<uint32_t>(usmpx::flatbuffer_slot(sc::allocation::kMemoryId), 1, 0);
  b.AddElement<uint32_t>(usmpx::flatbuffer_slot(sc::allocation::kOffsetLow), static_cast<uint32_t>(t.offset), 0);
  const fb::Offset<void> allocation(b.EndTable(start));
  start = b.StartTable();
  b.AddElement<int8_t>(usmpx::flatbuffer_slot(sc::tensor::kScalarType), 6, 0);  // FLOAT
  b.AddOffset(usmpx::flatbuffer_slot(sc::tensor::kSizes), sizes);
  b.AddOffset(usmpx::flatbuffer_slot(sc::tensor::kDimOrder), dim_order);
  b.AddOffset(usmpx::flatbuffer_slot(sc::tensor::kAllocationInfo), allocation);
  const fb::Offset<void> table(b.EndTable(start));
  start = b.StartTable();
  b.AddElement<uint8_t>(usmpx::flatbuffer_slot(sc::evalue::kValType), static_cast<uint8_t>(sc::ValueType::kTensor), 0);
  b.AddOffset(usmpx::flatbuffer_slot(sc::evalue::kVal), table);
  return fb::Offset<void>(b.EndTable(start));
}

fb::Offset<void> kernel_call(fb::FlatBufferBuilder& b, int32_t op, const std::vector<int32_t>& args) {
  const auto vector = b.CreateVector(args);
  auto start = b.StartTable();
  b.AddElement<int32_t>(usmpx::flatbuffer_slot(sc::kernel_call::kOpIndex), op, 0);
  b.AddOffset(usmpx::flatbuffer_slot(sc::kernel_call::kArgs), vector);
  const fb::Offset<void> call(b.EndTable(start));
  start = b.StartTable();
  b.AddElement<uint8_t>(usmpx::flatbuffer_slot(sc::instruction::kArgsType),
                        static_cast<uint8_t>(sc::InstructionType::kKernelCall), 0);
  b.AddOffset(usmpx::flatbuffer_slot(sc::instruction::kArgs), call);
  return fb::Offset<void>(b.EndTable(start));
}

}  // namespace

std::string example_program_bytes() {
  // Values 0..6: x[64] -> t1[64] -> t2[40] -> t3[48]; t4[48] = f(t2, t3); t5[48] = f(t3);
  // y[32] = f(t4, t5). Offsets: ExecuTorch's greedy on these lifetimes (buffer of 864 bytes).
  const std::vector<TensorSpec> tensors = {{64, 256}, {64, 0}, {40, 704}, {48, 512}, {48, 256}, {48, 0}, {32, 512}};
  const std::vector<std::vector<int32_t>> calls = {{0, 1, 1},    {1, 2, 2}, {2, 3, 3},
                                                   {2, 3, 4, 4}, {3, 5, 5}, {4, 5, 6, 6}};
  fb::FlatBufferBuilder b;
  std::vector<fb::Offset<void>> values;
  for (const TensorSpec& t : tensors)
    values.push_back(tensor(b, t));
  std::vector<fb::Offset<void>> instructions;
  for (size_t k = 0; k < calls.size(); ++k)
    instructions.push_back(kernel_call(b, static_cast<int32_t>(k), calls[k]));
  std::vector<fb::Offset<void>> operators;
  for (size_t k = 0; k < calls.size(); ++k) {
    const auto name = b.CreateString("example::step_" + std::to_string(k + 1));
    const auto overload = b.CreateString("out");
    const auto start = b.StartTable();
    b.AddOffset(usmpx::flatbuffer_slot(sc::op::kName), name);
    b.AddOffset(usmpx::flatbuffer_slot(sc::op::kOverload), overload);
    operators.push_back(fb::Offset<void>(b.EndTable(start)));
  }
  const auto instruction_vector = b.CreateVector(instructions);
  auto start = b.StartTable();
  b.AddOffset(usmpx::flatbuffer_slot(sc::chain::kInstructions), instruction_vector);
  const fb::Offset<void> chain(b.EndTable(start));

  const auto name = b.CreateString("forward");
  const auto value_vector = b.CreateVector(values);
  const auto inputs = b.CreateVector(std::vector<int32_t>{0});
  const auto outputs = b.CreateVector(std::vector<int32_t>{6});
  const auto chains = b.CreateVector(std::vector<fb::Offset<void>>{chain});
  const auto operator_vector = b.CreateVector(operators);
  const auto buffer_sizes = b.CreateVector(std::vector<int64_t>{0, 864});
  start = b.StartTable();
  b.AddOffset(usmpx::flatbuffer_slot(sc::plan::kName), name);
  b.AddOffset(usmpx::flatbuffer_slot(sc::plan::kValues), value_vector);
  b.AddOffset(usmpx::flatbuffer_slot(sc::plan::kInputs), inputs);
  b.AddOffset(usmpx::flatbuffer_slot(sc::plan::kOutputs), outputs);
  b.AddOffset(usmpx::flatbuffer_slot(sc::plan::kChains), chains);
  b.AddOffset(usmpx::flatbuffer_slot(sc::plan::kOperators), operator_vector);
  b.AddOffset(usmpx::flatbuffer_slot(sc::plan::kNonConstBufferSizes), buffer_sizes);
  const fb::Offset<void> plan(b.EndTable(start));

  const auto plans = b.CreateVector(std::vector<fb::Offset<void>>{plan});
  start = b.StartTable();
  b.AddOffset(usmpx::flatbuffer_slot(sc::program::kExecutionPlan), plans);
  const fb::Offset<void> program(b.EndTable(start));
  b.Finish(program, "ET12");

  // The extended header goes after the root offset and identifier, as ExecuTorch's serializer
  // inserts it: 32 bytes (every alignment kept), the root offset moved past it.
  const std::string flat(reinterpret_cast<const char*>(b.GetBufferPointer()), b.GetSize());
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

}  // namespace usmpx::testing
