// SVDF and UNIDIRECTIONAL_SEQUENCE_LSTM (svdf.cc, svdf_common.cc, unidirectional_sequence_lstm.cc
// and their cmsis_nn/ versions at kTflmVersion).
#include "frontends/tflite/kernels/tflm_kernel_families.h"
#include "frontends/tflite/kernels/tflm_refusal_rules.h"
#include "frontends/tflite/tflite_schema.h"

namespace usmpx {
namespace {

namespace sc = tflite_schema;

constexpr TflmOptionsStruct kSvdfOptions{8, 4, 12, 4};   // {int rank; activation; bool}
constexpr TflmOptionsStruct kLstmOptions{16, 4, 16, 4};  // {activation; float clips x2; three bools}

// Both kernel sets: int8 input: batch x filters x 4 and batch x units x 4 (units = filters /
// rank); float: batch x filters x 4.
ScratchNeed svdf_scratch(const TflmOp& op) {
  const TfliteTensor* input = op.input(0);
  const TfliteTensor* weights_feature = op.input(1);
  const int64_t rank = op.option(0, 0, false);
  if (!input || !weights_feature || input->shape.empty() || weights_feature->shape.empty() || rank <= 0)
    return scratch_unknown("SVDF without input, feature weights or rank");
  const int64_t batch = input->shape[0];
  const int64_t filters = weights_feature->shape[0];
  if (batch > (int64_t{1} << 20) || filters > (int64_t{1} << 20)) return scratch_unknown("SVDF too large");
  const int type = op.input_type(0);
  if (type == sc::kInt8)
    return {true, {batch * filters * 4, batch * (filters / rank) * 4}, "int8 SVDF: batch*filters*4, batch*units*4"};
  if (type == sc::kFloat32) return {true, {batch * filters * 4}, "float SVDF: batch*filters*4"};
  return scratch_unknown("SVDF with input type " + sc::type_name(type));
}

// Float activations with integer weights (`weights` is the input index of a weight tensor always
// present): TFLM has no hybrid path.
std::optional<TflmRefusal> recurrent_hybrid(const TflmOp& op, std::string_view name, size_t weights) {
  const int in = op.input_type(0);
  const int w = op.input_type(weights, TflmKeyPart::kOtherTypes);
  if (in == sc::kFloat32 && is_integer_weight(w)) return TflmRefusal{"", hybrid(name, in, w)};
  return std::nullopt;
}

// PrepareSvdf: FLOAT32 or INT8 input; float input wants float weights.
std::optional<TflmRefusal> svdf_refusal(const TflmOp& op) {
  const int in = op.input_type(0);
  if (in >= 0 && in != sc::kFloat32 && in != sc::kInt8) return unsupported_input("SVDF", in, "FLOAT32 or INT8 input");
  return recurrent_hybrid(op, "SVDF", 1);  // weights_feature
}

// CMSIS-NN's int8 LSTM precomputes the sums of the four gates' input and recurrent weights.
std::vector<int64_t> lstm_sums(const TflmOp& op, TflmResourceState*) {
  if (!op.cmsis()) return {};
  const int64_t cells = last_dim(op.input(19));
  if (op.input_type(0) != sc::kInt8 || cells <= 0) return {};
  return std::vector<int64_t>(8, 4 * cells);
}

// Reference: 4 buffers of the cell state's bytes; CMSIS-NN (int8): 3.
ScratchNeed lstm_scratch(const TflmOp& op) {
  const TfliteTensor* cell_state = op.input(19);
  if (!cell_state) return scratch_unknown("LSTM without a cell state input");
  const auto bytes = sc::type_size(cell_state->type);
  const int64_t n = elements(*cell_state);
  if (!bytes || n < 0 || n > kMaxScratchBytes / 16)
    return scratch_unknown("LSTM cell state of type " + sc::type_name(cell_state->type) + " and " + std::to_string(n) +
                           " elements");
  if (op.cmsis() && op.input_type(0) == sc::kInt8)
    return {true, std::vector<int64_t>(3, n * *bytes), "CMSIS-NN int8 LSTM: 3 x cell state bytes"};
  // CMSIS-NN runs other types on the reference kernel; where it does not (an int16 path of its own),
  // four buffers are the most either asks.
  return {true, std::vector<int64_t>(4, n * *bytes), "LSTM: 4 x cell state bytes"};
}

std::optional<TflmRefusal> lstm_refusal(const TflmOp& op) {
  return recurrent_hybrid(op, "UNIDIRECTIONAL_SEQUENCE_LSTM", 2);  // input_to_forget
}

constexpr std::string_view kSvdfProven[] = {"FLOAT32>FLOAT32", "INT8>INT8", "esp32: INT8>INT8"};
constexpr std::string_view kUnidirectionalSequenceLstmProven[] = {"FLOAT32>FLOAT32", "INT8>INT8", "esp32: INT8>INT8"};

}  // namespace

const TflmKernel kRecurrentKernels[] = {
    {.name = "SVDF",
     .options = kSvdfOptions,
     .init = {36, 36, 40},
     .scratch = svdf_scratch,
     .refusal = svdf_refusal,
     .proven = kSvdfProven,
     .cmsis_nn = true},
    {.name = "UNIDIRECTIONAL_SEQUENCE_LSTM",
     .options = kLstmOptions,
     .init = {688, 688, 912},
     .prepare = lstm_sums,
     .scratch = lstm_scratch,
     .refusal = lstm_refusal,
     .proven = kUnidirectionalSequenceLstmProven,
     .cmsis_nn = true},
};
constinit const std::span<const TflmKernel> kTflmRecurrentKernels = kRecurrentKernels;

}  // namespace usmpx
