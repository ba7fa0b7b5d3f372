#include "refusal_fixtures.h"

#include "tflite_fixture.h"

namespace usmpx::testing {
namespace {

// BuiltinOperator and TensorType values of the published schema.
constexpr int32_t kAdd = 0, kConv2d = 3, kDequantize = 6, kFullyConnected = 9, kCustom = 32, kArgMax = 56,
                  kReduceProd = 81, kFill = 94, kVarHandle = 142, kReadVariable = 143;
constexpr int kFloat32 = 0, kFloat16 = 1, kInt32 = 2, kUInt8 = 3, kInt64 = 4, kInt8 = 9, kResource = 13;

std::vector<uint8_t> bytes(size_t n) {
  return pattern_bytes(n);
}

}  // namespace

std::string hybrid_conv_tflite() {
  FixtureModel m;
  m.opcodes = {{kConv2d, ""}};
  m.tensors = {{"input", {1, 8, 8, 2}, kFloat32, {}, false},
               {"conv/filter", {4, 3, 3, 2}, kInt8, bytes(72), false},
               {"conv/bias", {4}, kFloat32, bytes(16), false},
               {"output", {1, 6, 6, 4}, kFloat32, {}, false}};
  m.operators = {{0, {0, 1, 2}, {3}}};
  m.inputs = {0};
  m.outputs = {3};
  return write_fixture_tflite(m);
}

std::string float16_dequantize_tflite() {
  FixtureModel m;
  m.opcodes = {{kDequantize, ""}, {kAdd, ""}};
  m.tensors = {{"input", {16}, kFloat32, {}, false},
               {"offset/f16", {16}, kFloat16, bytes(32), false},
               {"offset", {16}, kFloat32, {}, false},
               {"output", {16}, kFloat32, {}, false}};
  m.operators = {{0, {1}, {2}}, {1, {0, 2}, {3}}};
  m.inputs = {0};
  m.outputs = {3};
  return write_fixture_tflite(m);
}

std::string reduce_prod_tflite() {
  FixtureModel m;
  m.opcodes = {{kReduceProd, ""}};
  m.tensors = {{"input", {1, 4, 4}, kFloat32, {}, false},
               {"axis", {1}, kInt32, {2, 0, 0, 0}, false},
               {"output", {1, 4}, kFloat32, {}, false}};
  m.operators = {{0, {0, 1}, {2}}};
  m.inputs = {0};
  m.outputs = {2};
  return write_fixture_tflite(m);
}

std::string custom_tflite(const std::string& custom_code) {
  FixtureModel m;
  m.opcodes = {{kCustom, custom_code}};
  m.tensors = {{"x", {4}, kFloat32, {}, false}, {"y", {4}, kFloat32, {}, false}, {"sum", {4}, kFloat32, {}, false}};
  m.operators = {{0, {0, 1}, {2}}};
  m.inputs = {0, 1};
  m.outputs = {2};
  return write_fixture_tflite(m);
}

std::string flex_add_tflite() {
  return custom_tflite("FlexAddV2");
}

std::string var_handle_tflite() {
  FixtureModel m;
  m.opcodes = {{kVarHandle, ""}, {kReadVariable, ""}};
  m.tensors = {{"state/handle", {}, kResource, {}, false}, {"state", {4}, kFloat32, {}, false}};
  m.operators = {{0, {}, {0}}, {1, {0}, {1}}};
  m.outputs = {1};
  return write_fixture_tflite(m);
}

std::string uint8_fully_connected_tflite() {
  FixtureModel m;
  m.opcodes = {{kFullyConnected, ""}};
  m.tensors = {{"input", {1, 8}, kUInt8, {}, false},
               {"fc/weights", {4, 8}, kUInt8, bytes(32), false},
               {"fc/bias", {4}, kInt32, bytes(16), false},
               {"output", {1, 4}, kUInt8, {}, false}};
  m.operators = {{0, {0, 1, 2}, {3}}};
  m.inputs = {0};
  m.outputs = {3};
  return write_fixture_tflite(m);
}

std::string fill_dynamic_dims_tflite() {
  FixtureModel m;
  m.opcodes = {{kFill, ""}};
  m.tensors = {{"dims", {2}, kInt32, {}, false},
               {"value", {}, kFloat32, bytes(4), false},
               {"output", {2, 3}, kFloat32, {}, false}};
  m.operators = {{0, {0, 1}, {2}}};
  m.inputs = {0};
  m.outputs = {2};
  return write_fixture_tflite(m);
}

std::string arg_max_int64_tflite() {
  FixtureModel m;
  m.opcodes = {{kArgMax, ""}};
  m.tensors = {{"input", {1, 4}, kFloat32, {}, false},
               {"axis", {1}, kInt32, {1, 0, 0, 0}, false},
               {"output", {1}, kInt64, {}, false}};
  m.operators = {{0, {0, 1}, {2}}};
  m.inputs = {0};
  m.outputs = {2};
  return write_fixture_tflite(m);
}

}  // namespace usmpx::testing
