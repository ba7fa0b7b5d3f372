#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace usmpx::testing {

// A small TFLite model described field by field, written with flatbuffers::FlatBufferBuilder from
// the project's own TFLite field ids (one subgraph, and any empty ones after it; buffer 0 is the empty sentinel and
// every tensor with data gets a buffer of its own).
struct FixtureTensor {
  std::string name;
  std::vector<int32_t> shape;
  int type = 0;               // TensorType value
  std::vector<uint8_t> data;  // empty: not constant
  bool is_variable = false;
};

struct FixtureOpcode {
  int32_t builtin = 0;  // BuiltinOperator value (32 = CUSTOM)
  std::string custom;   // custom code when builtin is CUSTOM
};

struct FixtureOperator {
  uint32_t opcode = 0;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
};

struct FixtureModel {
  std::vector<FixtureOpcode> opcodes;
  std::vector<FixtureTensor> tensors;
  std::vector<FixtureOperator> operators;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  int empty_subgraphs = 0;  // subgraphs with no tensor and no operator after the first
};

std::string write_fixture_tflite(const FixtureModel& model);

// `n` bytes of a fixed pattern, for constant tensors whose values do not matter.
std::vector<uint8_t> pattern_bytes(size_t n);

}  // namespace usmpx::testing
