#include "frontends/tflite/tflite_scratch.h"

#include <algorithm>

#include "frontends/tflite/tflite_schema.h"
#include "frontends/tflite/tflm_version_rules.h"

namespace usmpx {
namespace {

namespace sc = tflite_schema;

const TfliteTensor* input_tensor(const TfliteSubgraph& g, const TfliteOperator& op, size_t k) {
  if (k >= op.inputs.size() || op.inputs[k] < 0) return nullptr;
  return &g.tensors[static_cast<size_t>(op.inputs[k])];
}

const TfliteTensor* output_tensor(const TfliteSubgraph& g, const TfliteOperator& op, size_t k) {
  if (k >= op.outputs.size() || op.outputs[k] < 0) return nullptr;
  return &g.tensors[static_cast<size_t>(op.outputs[k])];
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

ScratchNeed none(std::string why) {
  return {true, {}, std::move(why)};
}

// A dimension of a tensor's NHWC shape, or -1 when it has no such dimension.
int64_t dim(const TfliteTensor* t, size_t k) {
  return t && k < t->shape.size() ? t->shape[k] : -1;
}

bool quantized_8bit(const TfliteTensor* t) {
  return t && t->type == sc::kInt8;
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

ScratchNeed lstm(const TfliteSubgraph& g, const TfliteOperator& op, TflmKernels kernels) {
  const TfliteTensor* cell_state = input_tensor(g, op, 19);
  if (!cell_state) return unknown("LSTM without a cell state input");
  const auto bytes = sc::type_size(cell_state->type);
  const int64_t n = elements(*cell_state);
  if (!bytes || n < 0 || n > kMaxScratchBytes / 16)
    return unknown("LSTM cell state of type " + sc::type_name(cell_state->type) + " and " + std::to_string(n) +
                   " elements");
  if (kernels == TflmKernels::kCmsisNn && quantized_8bit(input_tensor(g, op, 0)))
    return {true, std::vector<int64_t>(3, n * *bytes), "CMSIS-NN int8 LSTM: 3 x cell state bytes"};
  // CMSIS-NN runs other types on the reference kernel; where it does not (an int16 path of its own),
  // four buffers are the most either asks.
  return {true, std::vector<int64_t>(4, n * *bytes), "LSTM: 4 x cell state bytes"};
}

ScratchNeed int4_unpack(const TfliteSubgraph& g, const TfliteOperator& op) {
  const TfliteTensor* filter = input_tensor(g, op, 1);
  if (!filter || filter->type != sc::kInt4) return none("no scratch (filter not INT4)");
  const int64_t n = elements(*filter);
  if (n < 0) return unknown("INT4 filter too large");
  return {true, {n}, "INT4 filter unpacked to int8: filter elements"};
}

// MEAN / SUM / REDUCE_MAX / REDUCE_MIN (reduce_common.cc). `sums_only`: MEAN/SUM as TFLM asked
// before 2026-01-16 (the int8/int16 sums, nothing for float).
ScratchNeed reduce(const TfliteSubgraph& g, const TfliteOperator& op, bool mean_or_sum, bool sums_only = false) {
  const TfliteTensor* input = input_tensor(g, op, 0);
  const TfliteTensor* axis = input_tensor(g, op, 1);
  const TfliteTensor* output = output_tensor(g, op, 0);
  if (!input || !axis || !output) return unknown("reduction without input, axis or output");
  const int64_t rank = static_cast<int64_t>(input->shape.size());
  const int64_t axes = elements(*axis);
  const int64_t out = elements(*output);
  if (axes < 0 || out < 0 || out > kMaxScratchBytes / 4) return unknown("reduction too large");
  ScratchNeed need{true, {}, ""};
  if (mean_or_sum && (input->type == sc::kInt8 || input->type == sc::kInt16)) need.bytes.push_back(4 * out);
  if (sums_only) {
    need.rule = "MEAN/SUM before 2026-01-16: [4 x output elements (8/16-bit input)]";
    return need;
  }
  need.bytes.push_back(4 * rank);
  need.bytes.push_back(4 * axes);
  need.rule = mean_or_sum ? "MEAN/SUM: [4 x output elements (8/16-bit input)], 4 x input rank, 4 x axes"
                          : "REDUCE_MAX/MIN: 4 x input rank, 4 x axes";
  return need;
}

// TFLite's SAME/VALID padding before the first element (ComputePaddingHeightWidth).
int64_t padding_before(int64_t in, int64_t filter, int64_t stride, int64_t dilation, bool same) {
  const int64_t effective = (filter - 1) * dilation + 1;
  if (stride <= 0) return 0;
  const int64_t out = same ? (in + stride - 1) / stride : (in - effective + stride) / stride;
  const int64_t total = std::max<int64_t>((out - 1) * stride + effective - in, 0);
  return total / 2;
}

ScratchNeed cmsis_conv(const TfliteSubgraph& g, const TfliteOperator& op) {
  const TfliteTensor* input = input_tensor(g, op, 0);
  const TfliteTensor* filter = input_tensor(g, op, 1);
  if (!input || !filter) return unknown("CONV_2D without input or filter");
  if (input->type == sc::kFloat32) return none("float CONV_2D: reference kernel, no scratch");
  if (input->type == sc::kInt16) {
    // arm_convolve_wrapper_s16 (DSP): 2 x filter w x h x input channels int16 of im2col.
    if (filter->shape.size() != 4 || input->shape.size() != 4) return unknown("CONV_2D without NHWC shapes");
    const int64_t cols = int64_t{filter->shape[1]} * filter->shape[2] * input->shape[3];
    if (cols > kMaxScratchBytes / 8) return unknown("CONV_2D too large");
    return {true, {2 * cols * 2}, "CMSIS-NN int16 convolution (DSP): 2 x kw*kh*cin x 2 bytes"};
  }
  if (!quantized_8bit(input)) return unknown("CMSIS-NN CONV_2D with input type " + sc::type_name(input->type));
  if (filter->type == sc::kInt4) return unknown("CMSIS-NN CONV_2D with an INT4 filter");
  if (op.option_ints.size() < 5 || input->shape.size() != 4 || filter->shape.size() != 4)
    return unknown("CONV_2D without NHWC shapes or options");
  const bool same = op.option_ints[0] == 0;
  const int64_t sw = op.option_ints[1], sh = op.option_ints[2], dw = op.option_ints[3], dh = op.option_ints[4];
  const int64_t fh = filter->shape[1], fw = filter->shape[2], ic = input->shape[3];
  const int64_t pw = padding_before(input->shape[2], fw, sw, dw, same);
  const int64_t ph = padding_before(input->shape[1], fh, sh, dh, same);
  if (pw == 0 && ph == 0 && fw == 1 && fh == 1 && dw == 1 && dh == 1)
    return none("CMSIS-NN 1x1 convolution: no scratch");
  const int64_t cols = fw * fh * ic;
  if (cols > kMaxScratchBytes / 8) return unknown("CONV_2D too large");
  const int64_t aligned = (cols + 3) / 4 * 4;
  return {true, {2 * aligned * 2}, "CMSIS-NN int8 convolution (DSP): 2 x align4(kw*kh*cin) x 2 bytes"};
}

ScratchNeed cmsis_depthwise(const TfliteSubgraph& g, const TfliteOperator& op) {
  const TfliteTensor* input = input_tensor(g, op, 0);
  const TfliteTensor* filter = input_tensor(g, op, 1);
  const TfliteTensor* output = output_tensor(g, op, 0);
  if (!input || !filter || !output) return unknown("DEPTHWISE_CONV_2D without input, filter or output");
  if (input->type == sc::kFloat32) return none("float DEPTHWISE_CONV_2D: reference kernel, no scratch");
  if (input->type == sc::kInt16) return none("CMSIS-NN int16 depthwise: no scratch");
  if (!quantized_8bit(input))
    return unknown("CMSIS-NN DEPTHWISE_CONV_2D with input type " + sc::type_name(input->type));
  if (filter->type == sc::kInt4) return unknown("CMSIS-NN DEPTHWISE_CONV_2D with an INT4 filter");
  if (op.option_ints.size() < 6 || input->shape.size() != 4 || filter->shape.size() != 4 || output->shape.size() != 4)
    return unknown("DEPTHWISE_CONV_2D without NHWC shapes or options");
  const bool same = op.option_ints[0] == 0;
  const int64_t sw = op.option_ints[1], sh = op.option_ints[2], dw = op.option_ints[4], dh = op.option_ints[5];
  const int64_t fh = filter->shape[1], fw = filter->shape[2], ic = input->shape[3];
  if (ic != output->shape[3] || input->shape[0] != 1 || dw != 1 || dh != 1)
    return none("CMSIS-NN generic depthwise kernel: no scratch");
  const int64_t pw = padding_before(input->shape[2], fw, sw, dw, same);
  const int64_t ph = padding_before(input->shape[1], fh, sh, dh, same);
  if (fw == 3 && fh == 3 && pw <= 1 && ph <= 1) return none("CMSIS-NN 3x3 depthwise kernel: no scratch");
  if (ic * fw * fh > kMaxScratchBytes / 2) return unknown("DEPTHWISE_CONV_2D too large");
  return {true, {ic * fw * fh * 2}, "CMSIS-NN int8 depthwise (DSP): cin x kw x kh x 2 bytes"};
}

ScratchNeed cmsis_average_pool(const TfliteSubgraph& g, const TfliteOperator& op) {
  const TfliteTensor* input = input_tensor(g, op, 0);
  if (!input) return unknown("AVERAGE_POOL_2D without input");
  if (input->type == sc::kFloat32) return none("float AVERAGE_POOL_2D: no scratch");
  if (!quantized_8bit(input) && input->type != sc::kInt16)
    return unknown("CMSIS-NN AVERAGE_POOL_2D with input type " + sc::type_name(input->type));
  const int64_t channels = dim(input, 3);
  if (channels < 0) return unknown("AVERAGE_POOL_2D without NHWC input");
  return {true, {4 * channels}, "CMSIS-NN int8/int16 average pooling (DSP): 4 x channels"};
}

ScratchNeed cmsis_fully_connected(const TfliteSubgraph& g, const TfliteOperator& op) {
  const TfliteTensor* input = input_tensor(g, op, 0);
  const TfliteTensor* filter = input_tensor(g, op, 1);
  if (!input || !filter) return unknown("FULLY_CONNECTED without input or filter");
  if (input->type == sc::kFloat32) return none("float FULLY_CONNECTED: no scratch");
  if ((!quantized_8bit(input) && input->type != sc::kInt16) || filter->type == sc::kInt4)
    return unknown("CMSIS-NN FULLY_CONNECTED with input " + sc::type_name(input->type) + " and filter " +
                   sc::type_name(filter->type));
  return none("CMSIS-NN int8/int16 fully connected (DSP): no scratch");
}

// TRANSPOSE_CONV (transpose_conv.cc): int8: an int32 accumulator per output element; int16: an
// int64 one, and an int64 copy of an int16 bias. CMSIS-NN's int8 kernel asks
// arm_transpose_conv_s8_get_buffer_size and its reverse-convolution buffer instead.
ScratchNeed transpose_conv(const TfliteSubgraph& g, const TfliteOperator& op, bool cmsis) {
  const TfliteTensor* filter = input_tensor(g, op, 1);
  const TfliteTensor* input = input_tensor(g, op, 2);
  const TfliteTensor* bias = input_tensor(g, op, 3);
  const TfliteTensor* output = output_tensor(g, op, 0);
  if (!filter || !input || !output) return unknown("TRANSPOSE_CONV without filter, input or output");
  if (input->type == sc::kFloat32) return none("float TRANSPOSE_CONV: no scratch");
  const int64_t out = elements(*output);
  if (out < 0 || out > kMaxScratchBytes / 8) return unknown("TRANSPOSE_CONV too large");
  if (input->type == sc::kInt16) {
    ScratchNeed need{true, {}, "int16 TRANSPOSE_CONV: 8 x output elements [, 8 x bias elements for an int16 bias]"};
    if (bias && bias->type == sc::kInt16) need.bytes.push_back(elements(*bias) * 8);
    need.bytes.insert(need.bytes.begin(), out * 8);
    return need;
  }
  if (!quantized_8bit(input)) return unknown("TRANSPOSE_CONV with input type " + sc::type_name(input->type));
  if (!cmsis) return {true, {out * 4}, "int8 TRANSPOSE_CONV: 4 x output elements"};
  if (op.option_ints.size() < 3 || input->shape.size() != 4 || filter->shape.size() != 4 || output->shape.size() != 4)
    return unknown("TRANSPOSE_CONV without NHWC shapes or options");
  const int64_t sw = op.option_ints[1], sh = op.option_ints[2];
  const int64_t in_w = input->shape[2], in_c = input->shape[3];
  const int64_t f_n = filter->shape[0], f_h = filter->shape[1], f_w = filter->shape[2];
  const int64_t out_c = output->shape[3];
  // Reverse convolution when the strides are at most 2 and there are more than 16 input channels.
  if (sw <= 2 && sh <= 2 && in_c > 16) {
    const int64_t cols = (f_w * f_h * in_c + 3) / 4 * 4;
    return {true,
            {2 * cols * 2, in_c * f_w * f_h * f_n},
            "CMSIS-NN int8 TRANSPOSE_CONV (reverse convolution): im2col 2 x align4(kw*kh*cin) x 2, reversed filter"};
  }
  const int64_t buf_x = ((in_w - 1) * sw + std::max(f_w, sh)) * out_c;
  const int64_t buf_y = std::max(f_h, sh);
  return {true, {buf_x * buf_y * 4, 0}, "CMSIS-NN int8 TRANSPOSE_CONV: rolling int32 rows, no reverse buffer"};
}

}  // namespace

ScratchNeed scratch_need(const TfliteModel& model, const TfliteSubgraph& subgraph, const TfliteOperator& op,
                         const TflmBuild& build) {
  const TfliteOperatorCode& code = model.operator_codes[op.opcode_index];
  const TflmKernels kernels = build.kernels;
  const bool cmsis = kernels == TflmKernels::kCmsisNn;
  const int64_t pointer = build.target == TflmTarget::kX86_64 ? 8 : 4;
  switch (code.builtin_code) {
    case sc::kSvdf:
      return svdf(subgraph, op);
    case sc::kUnidirectionalSequenceLstm:
      return lstm(subgraph, op, kernels);
    case sc::kConv2d:
      return cmsis ? cmsis_conv(subgraph, op) : int4_unpack(subgraph, op);
    case sc::kDepthwiseConv2d:
      return cmsis ? cmsis_depthwise(subgraph, op) : int4_unpack(subgraph, op);
    case sc::kFullyConnected:
      return cmsis ? cmsis_fully_connected(subgraph, op) : int4_unpack(subgraph, op);
    case sc::kAveragePool2d:
      return cmsis ? cmsis_average_pool(subgraph, op) : none("no scratch");
    case 40:  // MEAN
    case 74:  // SUM
      return reduce(
          subgraph, op, true,
          tflm_version_has(build.version, sc::builtin_name(code.builtin_code), TflmChange::kReduceTempSumOnly));
    case 82:  // REDUCE_MAX
    case 89:  // REDUCE_MIN
      return reduce(subgraph, op, false);
    case 81:   // REDUCE_PROD
    case 91:   // REDUCE_ANY
    case 140:  // REDUCE_ALL
      return unknown(sc::builtin_name(code.builtin_code) + ": no TFLM kernel to say what it requests");
    case sc::kCustom:
      return unknown("custom operator '" + code.custom_code + "'");
    case 106:  // ADD_N: one pointer per input
      return {true, {pointer * static_cast<int64_t>(op.inputs.size())}, "ADD_N: a pointer per input"};
    case 100: {  // MIRROR_PAD: the input's and the output's element counts per dimension
      const TfliteTensor* input = input_tensor(subgraph, op, 0);
      const int64_t rank = input ? static_cast<int64_t>(input->shape.size()) : 0;
      return {true, {4 * rank, 4 * rank}, "MIRROR_PAD: 4 x rank, twice"};
    }
    case 67:  // TRANSPOSE_CONV
      return transpose_conv(subgraph, op, cmsis);
    default:
      return none("no scratch");
  }
}

}  // namespace usmpx
