#include "frontends/tflite/tflite_scratch.h"

#include "frontends/tflite/tflite_schema.h"

namespace usmpx {
namespace {

namespace sc = tflite_schema;

const TfliteTensor* input_tensor(const TfliteSubgraph& g, const TfliteOperator& op, size_t k) {
  if (k >= op.inputs.size() || op.inputs[k] < 0) return nullptr;
  return &g.tensors[static_cast<size_t>(op.inputs[k])];
}

// Largest scratch request taken as computed (TFLM sizes are ints).
constexpr int64_t kMaxScratchBytes = int64_t{1} << 31;

// Element count, or -1 past kMaxScratchBytes.
int64_t elements(const TfliteTensor& t) {
  int64_t n = 1;
  for (int32_t d : t.shape) {
    if (d != 0 && n > kMaxScratchBytes / d) return -1;
    n *= d;
  }
  return n;
}

ScratchNeed unknown(std::string why) {
  return {false, {}, std::move(why)};
}

ScratchNeed svdf(const TfliteSubgraph& g, const TfliteOperator& op) {
  const TfliteTensor* input = input_tensor(g, op, 0);
  const TfliteTensor* weights_feature = input_tensor(g, op, 1);
  const int64_t rank = op.option_ints.empty() ? 0 : op.option_ints[0];
  if (!input || !weights_feature || input->shape.size() < 1 || weights_feature->shape.size() < 1 || rank <= 0)
    return unknown("SVDF without input, feature weights or rank");
  const int64_t batch = input->shape[0];
  const int64_t filters = weights_feature->shape[0];
  if (batch > (int64_t{1} << 20) || filters > (int64_t{1} << 20)) return unknown("SVDF too large");
  if (input->type == sc::kInt8)
    return {true, {batch * filters * 4, batch * (filters / rank) * 4}, "int8 SVDF: batch*filters*4, batch*units*4"};
  if (input->type == sc::kFloat32) return {true, {batch * filters * 4}, "float SVDF: batch*filters*4"};
  return unknown("SVDF with input type " + sc::type_name(input->type));
}

ScratchNeed lstm(const TfliteSubgraph& g, const TfliteOperator& op) {
  const TfliteTensor* cell_state = input_tensor(g, op, 19);
  if (!cell_state) return unknown("LSTM without a cell state input");
  const auto bytes = sc::type_size(cell_state->type);
  const int64_t n = elements(*cell_state);
  if (!bytes || n < 0 || n > kMaxScratchBytes / 16)
    return unknown("LSTM cell state of type " + sc::type_name(cell_state->type) + " and " + std::to_string(n) +
                   " elements");
  return {true, std::vector<int64_t>(4, n * *bytes), "LSTM: 4 x cell state bytes"};
}

ScratchNeed int4_unpack(const TfliteSubgraph& g, const TfliteOperator& op) {
  const TfliteTensor* filter = input_tensor(g, op, 1);
  if (!filter || filter->type != sc::kInt4) return {true, {}, "no scratch (filter not INT4)"};
  const int64_t n = elements(*filter);
  if (n < 0) return unknown("INT4 filter too large");
  return {true, {n}, "INT4 filter unpacked to int8: filter elements"};
}

}  // namespace

ScratchNeed scratch_need(const TfliteModel& model, const TfliteSubgraph& subgraph, const TfliteOperator& op) {
  const TfliteOperatorCode& code = model.operator_codes[op.opcode_index];
  switch (code.builtin_code) {
    case sc::kSvdf:
      return svdf(subgraph, op);
    case sc::kUnidirectionalSequenceLstm:
      return lstm(subgraph, op);
    case 3:  // CONV_2D
    case 4:  // DEPTHWISE_CONV_2D
    case 9:  // FULLY_CONNECTED
      return int4_unpack(subgraph, op);
    case sc::kCustom:
      return unknown("custom operator '" + code.custom_code + "'");
    case 106:  // ADD_N
    case 100:  // MIRROR_PAD
    case 40:   // MEAN
    case 74:   // SUM
    case 81:   // REDUCE_PROD
    case 82:   // REDUCE_MAX
    case 89:   // REDUCE_MIN
    case 91:   // REDUCE_ANY
    case 140:  // REDUCE_ALL
    case 67:   // TRANSPOSE_CONV
      return unknown(sc::builtin_name(code.builtin_code) + " requests scratch; no rule here");
    default:
      return {true, {}, "no scratch"};
  }
}

}  // namespace usmpx
