// CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV (conv.cc, depthwise_conv.cc, transpose_conv.cc and
// their cmsis_nn/ versions at kTflmVersion; CMSIS-NN 4ab83cc's buffer sizes for a DSP core).
#include <algorithm>
#include <optional>

#include "frontends/tflite/kernels/tflm_kernel_families.h"
#include "frontends/tflite/kernels/tflm_refusal_rules.h"
#include "frontends/tflite/tflite_schema.h"

namespace usmpx {
namespace {

namespace sc = tflite_schema;

constexpr TflmOptionsStruct kConvOptions{28, 4, 28, 4};           // TfLiteConvParams / TfLiteDepthwiseConvParams
constexpr TflmOptionsStruct kTransposeConvOptions{16, 4, 20, 4};  // {padding; int stride_w, stride_h; activation; type}

// The variant's word for the filter's quantization (quantized inputs only).
std::string filter_granularity(const TflmOp& op, size_t data_input) {
  const int in = op.input_type(data_input);
  const bool per_channel = op.per_channel(1);
  if (!op.input(1) || in < 0 || in == sc::kFloat32) return "";
  return per_channel ? "per-channel" : "per-tensor";
}

// "int4-filter" when the filter is INT4 (the reference kernels unpack it, CMSIS-NN's own path).
std::string int4_word(const TflmOp& op) {
  return op.input_type(1, TflmKeyPart::kOtherTypes) == sc::kInt4 ? " int4-filter" : "";
}

// CMSIS-NN's int8 convolution with a 1x1 filter, no padding and no dilation: its kernel needs no
// im2col buffer. nullopt where the shapes or options are missing.
std::optional<bool> cmsis_conv_1x1(const TflmOp& op) {
  const TfliteTensor* input = op.input(0);
  const TfliteTensor* filter = op.input(1);
  if (!input || !filter || op.op.option_ints.size() < 5 || input->shape.size() != 4 || filter->shape.size() != 4)
    return std::nullopt;
  const bool same = op.option(0, 0, true) == 0;
  const int64_t sw = op.option(1, 1, false), sh = op.option(2, 1, false);
  const int64_t dw = op.option(3, 1, true), dh = op.option(4, 1, true);
  const int64_t fh = filter->shape[1], fw = filter->shape[2];
  const int64_t pw = padding_before(input->shape[2], fw, sw, dw, same);
  const int64_t ph = padding_before(input->shape[1], fh, sh, dh, same);
  return op.shape_path(pw == 0 && ph == 0 && fw == 1 && fh == 1 && dw == 1 && dh == 1);
}

// CMSIS-NN's int8 depthwise kernels: the generic one (a channel multiplier, batches or dilation),
// the 3x3 one (padding <= 1), or the DSP one with its buffer.
enum class DepthwisePath { kUnknown, kGeneric, k3x3, kDsp };

DepthwisePath cmsis_depthwise_path(const TflmOp& op) {
  const TfliteTensor* input = op.input(0);
  const TfliteTensor* filter = op.input(1);
  const TfliteTensor* output = op.output(0);
  if (!input || !filter || !output || op.op.option_ints.size() < 6 || input->shape.size() != 4 ||
      filter->shape.size() != 4 || output->shape.size() != 4)
    return DepthwisePath::kUnknown;
  const bool same = op.option(0, 0, true) == 0;
  const int64_t sw = op.option(1, 1, false), sh = op.option(2, 1, false);
  const int64_t dw = op.option(4, 1, true), dh = op.option(5, 1, true);
  const int64_t fh = filter->shape[1], fw = filter->shape[2], ic = input->shape[3];
  if (op.shape_path(ic != output->shape[3] || input->shape[0] != 1 || dw != 1 || dh != 1))
    return DepthwisePath::kGeneric;
  const int64_t pw = padding_before(input->shape[2], fw, sw, dw, same);
  const int64_t ph = padding_before(input->shape[1], fh, sh, dh, same);
  return op.shape_path(fw == 3 && fh == 3 && pw <= 1 && ph <= 1) ? DepthwisePath::k3x3 : DepthwisePath::kDsp;
}

// Whether CMSIS-NN's own int8 path runs (int8 input, a filter that is not INT4).
bool cmsis_int8_path(const TflmOp& op, size_t data_input) {
  return op.cmsis() && op.input_type(data_input) == sc::kInt8 &&
         op.input_type(1, TflmKeyPart::kOtherTypes) != sc::kInt4;
}

std::string conv_key(const TflmOp& op) {
  std::string words = filter_granularity(op, 0) + int4_word(op);
  if (cmsis_int8_path(op, 0)) {
    const auto one_by_one = cmsis_conv_1x1(op);
    if (one_by_one) words += *one_by_one ? " cmsis:1x1" : " cmsis:im2col";
  }
  return words;
}

std::string depthwise_key(const TflmOp& op) {
  std::string words = filter_granularity(op, 0) + int4_word(op);
  if (cmsis_int8_path(op, 0)) {
    const DepthwisePath path = cmsis_depthwise_path(op);
    if (path == DepthwisePath::kGeneric) words += " cmsis:generic";
    if (path == DepthwisePath::k3x3) words += " cmsis:3x3";
    if (path == DepthwisePath::kDsp) words += " cmsis:dsp";
  }
  return words;
}

// CMSIS-NN's int8 TRANSPOSE_CONV reverses the convolution with strides <= 2 and more than 16
// input channels.
std::optional<bool> cmsis_transpose_conv_reverse(const TflmOp& op) {
  const TfliteTensor* input = op.input(2);
  if (!input || op.op.option_ints.size() < 3 || input->shape.size() != 4) return std::nullopt;
  const int64_t sw = op.option(1, 1, true), sh = op.option(2, 1, true);
  return op.shape_path(sw <= 2 && sh <= 2 && input->shape[3] > 16);
}

std::string transpose_conv_key(const TflmOp& op) {
  std::string words = filter_granularity(op, 2);
  const int type = op.input_type(2);
  if (type == sc::kInt16 && op.input(3) && op.input_type(3, TflmKeyPart::kOtherTypes) == sc::kInt16)
    words += " int16-bias";
  if (op.cmsis() && type == sc::kInt8) {
    const auto reverse = cmsis_transpose_conv_reverse(op);
    if (reverse) words += *reverse ? " cmsis:reverse" : " cmsis:rolling";
  }
  return words;
}

// Prepare: output multipliers and shifts, an int32 each per output channel. The reference kernels
// allocate them whatever the type (float too); CMSIS-NN's float path is the reference code without.
std::vector<int64_t> per_channel_arrays(const TflmOp& op, TflmResourceState*) {
  const int64_t channels = last_dim(op.output(0));
  if (channels <= 0 || (op.cmsis() && op.input_type(0) == sc::kFloat32)) return {};
  return {4 * channels, 4 * channels};
}

// TRANSPOSE_CONV's Prepare: multipliers and shifts per output channel (the filter's first
// dimension), every type.
std::vector<int64_t> transpose_conv_arrays(const TflmOp& op, TflmResourceState*) {
  const int64_t channels = first_dim(op.input(1));
  if (channels <= 0) return {};
  return {4 * channels, 4 * channels};
}

// CMSIS-NN int16: arm_convolve_wrapper_s16 (DSP), 2 x filter w x h x input channels int16 of
// im2col. int8: none for a 1x1 filter without padding or dilation; otherwise im2col of
// 2 x align4(filter w x filter h x input channels) int16.
ScratchNeed cmsis_conv(const TflmOp& op) {
  const TfliteTensor* input = op.input(0);
  const TfliteTensor* filter = op.input(1);
  if (!input || !filter) return scratch_unknown("CONV_2D without input or filter");
  const int type = op.input_type(0);
  if (type == sc::kFloat32) return scratch_none("float CONV_2D: reference kernel, no scratch");
  if (type == sc::kInt16) {
    if (filter->shape.size() != 4 || input->shape.size() != 4) return scratch_unknown("CONV_2D without NHWC shapes");
    const int64_t cols = int64_t{filter->shape[1]} * filter->shape[2] * input->shape[3];
    if (cols > kMaxScratchBytes / 8) return scratch_unknown("CONV_2D too large");
    return {true, {2 * cols * 2}, "CMSIS-NN int16 convolution (DSP): 2 x kw*kh*cin x 2 bytes"};
  }
  if (type != sc::kInt8) return scratch_unknown("CMSIS-NN CONV_2D with input type " + sc::type_name(type));
  if (op.input_type(1, TflmKeyPart::kOtherTypes) == sc::kInt4)
    return scratch_unknown("CMSIS-NN CONV_2D with an INT4 filter");
  const auto one_by_one = cmsis_conv_1x1(op);
  if (!one_by_one) return scratch_unknown("CONV_2D without NHWC shapes or options");
  if (*one_by_one) return scratch_none("CMSIS-NN 1x1 convolution: no scratch");
  const int64_t fh = filter->shape[1], fw = filter->shape[2], ic = input->shape[3];
  const int64_t cols = fw * fh * ic;
  if (cols > kMaxScratchBytes / 8) return scratch_unknown("CONV_2D too large");
  const int64_t aligned = (cols + 3) / 4 * 4;
  return {true, {2 * aligned * 2}, "CMSIS-NN int8 convolution (DSP): 2 x align4(kw*kh*cin) x 2 bytes"};
}

ScratchNeed conv_scratch(const TflmOp& op) {
  return op.cmsis() ? cmsis_conv(op) : int4_unpack_scratch(op);
}

// CMSIS-NN int8 depthwise: with one output channel per input channel, batch 1 and no dilation,
// none for a 3x3 filter with padding <= 1, else input channels x filter w x h x 2 bytes; none for
// other shapes (the generic kernel). int16: none.
ScratchNeed cmsis_depthwise(const TflmOp& op) {
  const TfliteTensor* input = op.input(0);
  const TfliteTensor* filter = op.input(1);
  const TfliteTensor* output = op.output(0);
  if (!input || !filter || !output) return scratch_unknown("DEPTHWISE_CONV_2D without input, filter or output");
  const int type = op.input_type(0);
  if (type == sc::kFloat32) return scratch_none("float DEPTHWISE_CONV_2D: reference kernel, no scratch");
  if (type == sc::kInt16) return scratch_none("CMSIS-NN int16 depthwise: no scratch");
  if (type != sc::kInt8) return scratch_unknown("CMSIS-NN DEPTHWISE_CONV_2D with input type " + sc::type_name(type));
  if (op.input_type(1, TflmKeyPart::kOtherTypes) == sc::kInt4)
    return scratch_unknown("CMSIS-NN DEPTHWISE_CONV_2D with an INT4 filter");
  const DepthwisePath path = cmsis_depthwise_path(op);
  if (path == DepthwisePath::kUnknown) return scratch_unknown("DEPTHWISE_CONV_2D without NHWC shapes or options");
  if (path == DepthwisePath::kGeneric) return scratch_none("CMSIS-NN generic depthwise kernel: no scratch");
  if (path == DepthwisePath::k3x3) return scratch_none("CMSIS-NN 3x3 depthwise kernel: no scratch");
  const int64_t fh = filter->shape[1], fw = filter->shape[2], ic = input->shape[3];
  if (ic * fw * fh > kMaxScratchBytes / 2) return scratch_unknown("DEPTHWISE_CONV_2D too large");
  return {true, {ic * fw * fh * 2}, "CMSIS-NN int8 depthwise (DSP): cin x kw x kh x 2 bytes"};
}

ScratchNeed depthwise_scratch(const TflmOp& op) {
  return op.cmsis() ? cmsis_depthwise(op) : int4_unpack_scratch(op);
}

// CMSIS-NN's int8 TRANSPOSE_CONV: with strides <= 2 and more than 16 input channels a reverse
// convolution (im2col and a reversed filter), else rolling int32 rows and no reverse buffer.
ScratchNeed cmsis_transpose_conv_int8(const TflmOp& op) {
  const TfliteTensor* filter = op.input(1);
  const TfliteTensor* input = op.input(2);
  const TfliteTensor* output = op.output(0);
  const auto reverse = cmsis_transpose_conv_reverse(op);
  if (!reverse || filter->shape.size() != 4 || output->shape.size() != 4)
    return scratch_unknown("TRANSPOSE_CONV without NHWC shapes or options");
  const int64_t sw = op.option(1, 1, true), sh = op.option(2, 1, true);
  const int64_t in_w = input->shape[2], in_c = input->shape[3];
  const int64_t f_n = filter->shape[0], f_h = filter->shape[1], f_w = filter->shape[2];
  const int64_t out_c = output->shape[3];
  if (*reverse) {
    const int64_t cols = (f_w * f_h * in_c + 3) / 4 * 4;
    return {true,
            {2 * cols * 2, in_c * f_w * f_h * f_n},
            "CMSIS-NN int8 TRANSPOSE_CONV (reverse convolution): im2col 2 x align4(kw*kh*cin) x 2, reversed filter"};
  }
  const int64_t buf_x = ((in_w - 1) * sw + std::max(f_w, sh)) * out_c;
  const int64_t buf_y = std::max(f_h, sh);
  return {true, {buf_x * buf_y * 4, 0}, "CMSIS-NN int8 TRANSPOSE_CONV: rolling int32 rows, no reverse buffer"};
}

// int8: an int32 accumulator per output element; int16: an int64 one, and an int64 copy of an
// int16 bias; float: none.
ScratchNeed transpose_conv_scratch(const TflmOp& op) {
  const TfliteTensor* filter = op.input(1);
  const TfliteTensor* input = op.input(2);
  const TfliteTensor* bias = op.input(3);
  const TfliteTensor* output = op.output(0);
  if (!filter || !input || !output) return scratch_unknown("TRANSPOSE_CONV without filter, input or output");
  const int type = op.input_type(2);
  if (type == sc::kFloat32) return scratch_none("float TRANSPOSE_CONV: no scratch");
  const int64_t out = elements(*output);
  if (out < 0 || out > kMaxScratchBytes / 8) return scratch_unknown("TRANSPOSE_CONV too large");
  if (type == sc::kInt16) {
    ScratchNeed need{
        true, {out * 8}, "int16 TRANSPOSE_CONV: 8 x output elements [, 8 x bias elements for an int16 bias]"};
    if (bias && op.input_type(3, TflmKeyPart::kOtherTypes) == sc::kInt16) need.bytes.push_back(elements(*bias) * 8);
    return need;
  }
  if (type != sc::kInt8) return scratch_unknown("TRANSPOSE_CONV with input type " + sc::type_name(type));
  if (!op.cmsis()) return {true, {out * 4}, "int8 TRANSPOSE_CONV: 4 x output elements"};
  return cmsis_transpose_conv_int8(op);
}

std::optional<TflmRefusal> conv_refusal(const TflmOp& op) {
  return weighted_layer_refusal(op, "CONV_2D");
}

std::optional<TflmRefusal> depthwise_refusal(const TflmOp& op) {
  return weighted_layer_refusal(op, "DEPTHWISE_CONV_2D");
}

constexpr std::string_view kConv2dProven[] = {"FLOAT32>FLOAT32",
                                              "INT16>INT16 per-channel",
                                              "reference: INT8>INT8 per-channel",
                                              "cmsis_nn: INT8>INT8 per-channel cmsis:1x1",
                                              "cmsis_nn: INT8>INT8 per-channel cmsis:im2col",
                                              "reference: INT8>INT8 per-tensor",
                                              "cmsis_nn: INT8>INT8 per-tensor cmsis:im2col"};
constexpr std::string_view kDepthwiseConv2dProven[] = {"FLOAT32>FLOAT32",
                                                       "INT16>INT16 per-channel",
                                                       "reference: INT8>INT8 per-channel",
                                                       "cmsis_nn: INT8>INT8 per-channel cmsis:3x3",
                                                       "cmsis_nn: INT8>INT8 per-channel cmsis:dsp",
                                                       "cmsis_nn: INT8>INT8 per-channel cmsis:generic",
                                                       "reference: INT8>INT8 per-tensor",
                                                       "cmsis_nn: INT8>INT8 per-tensor cmsis:3x3"};
constexpr std::string_view kTransposeConvProven[] = {"FLOAT32>FLOAT32",
                                                     "INT16>INT16 per-channel",
                                                     "reference: INT8>INT8 per-channel",
                                                     "cmsis_nn: INT8>INT8 per-channel cmsis:rolling",
                                                     "reference: INT8>INT8 per-tensor",
                                                     "cmsis_nn: INT8>INT8 per-tensor cmsis:rolling"};

const TflmKernel kConvKernels[] = {
    {.name = "CONV_2D",
     .options = kConvOptions,
     .init = {56, 72, 60},
     .prepare = per_channel_arrays,
     .scratch = conv_scratch,
     .refusal = conv_refusal,
     .proven = kConv2dProven,
     .key_words = conv_key},
    {.name = "DEPTHWISE_CONV_2D",
     .options = kConvOptions,
     .init = {56, 72, 60},  // OpDataConv, as CONV_2D
     .prepare = per_channel_arrays,
     .scratch = depthwise_scratch,
     .refusal = depthwise_refusal,
     .proven = kDepthwiseConv2dProven,
     .key_words = depthwise_key},
    {.name = "TRANSPOSE_CONV",
     .options = kTransposeConvOptions,
     .init = {72, 80, 76},
     .prepare = transpose_conv_arrays,
     .scratch = transpose_conv_scratch,
     .proven = kTransposeConvProven,
     .data_input = 2,  // the first input is the output's shape
     .key_words = transpose_conv_key},
};

}  // namespace

std::span<const TflmKernel> tflm_conv_kernels() {
  return kConvKernels;
}

}  // namespace usmpx
