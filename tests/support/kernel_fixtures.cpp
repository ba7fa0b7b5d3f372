#include "kernel_fixtures.h"

#include <cstdint>
#include <vector>

#include "tflite_fixture.h"

namespace usmpx::testing {
namespace {

constexpr int32_t kFullyConnected = 9;
constexpr int kInt32 = 2, kInt8 = 9;

}  // namespace

std::string fully_connected_sequence_tflite(int empty_subgraphs) {
  FixtureModel m;
  m.opcodes = {{kFullyConnected, ""}};
  m.tensors = {{"frames", {1, 10, 128}, kInt8, {}, false},
               {"dense/weights", {257, 128}, kInt8, pattern_bytes(257 * 128), false},
               {"dense/bias", {257}, kInt32, pattern_bytes(257 * 4), false},
               {"mask", {1, 10, 257}, kInt8, {}, false}};
  m.operators = {{0, {0, 1, 2}, {3}}};
  m.inputs = {0};
  m.outputs = {3};
  m.empty_subgraphs = empty_subgraphs;
  return write_fixture_tflite(m);
}

}  // namespace usmpx::testing
