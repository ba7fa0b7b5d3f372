// CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV (conv.cc, depthwise_conv.cc, transpose_conv.cc and
// their cmsis_nn/ versions at kTflmVersion; CMSIS-NN 4ab83cc's buffer sizes for a DSP core;
// esp-tflite-micro 1.4.0's esp_nn/ versions with esp-nn 1.2.3's scratch sizes).
#include <algorithm>
#include <optional>

#include "base/alignment.h"
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

// ESP-NN's convolutions (esp-tflite-micro 1.4.0, kernels/esp_nn/): for int8 input Prepare requests
// one scratch buffer of what the target's esp-nn 1.2.3 size function returns (none when it returns
// 0: the generic optimised functions and the ANSI C fallback always do). The arguments are the
// NHWC dims as {width, height, channels} and TFLM's padding before the first element.
struct EspShape {
  int64_t in_w, in_h, in_c, f_w, f_h, out_w, out_h, out_c, s_w, s_h, p_w, p_h;
};

// One code path of an S3 size function: the key's word for it and the bytes it asks for.
struct EspPath {
  std::string_view word;
  int64_t bytes = 0;
};

// The shapes and options esp-nn is called with; nullopt where missing or dilated (ESP-NN's
// dilated path is not modelled).
std::optional<EspShape> esp_shape(const TflmOp& op, bool depthwise) {
  const TfliteTensor* input = op.input(0);
  const TfliteTensor* filter = op.input(1);
  const TfliteTensor* output = op.output(0);
  const size_t dilation = depthwise ? 4 : 3;
  if (!input || !filter || !output || op.op.option_ints.size() < dilation + 2 || input->shape.size() != 4 ||
      filter->shape.size() != 4 || output->shape.size() != 4)
    return std::nullopt;
  if (op.shape_path(op.option(dilation, 1, true) != 1 || op.option(dilation + 1, 1, true) != 1)) return std::nullopt;
  const bool same = op.option(0, 0, true) == 0;
  EspShape s{};
  s.in_h = input->shape[1], s.in_w = input->shape[2], s.in_c = input->shape[3];
  s.f_h = filter->shape[1], s.f_w = filter->shape[2];
  s.out_h = output->shape[1], s.out_w = output->shape[2], s.out_c = output->shape[3];
  s.s_w = op.option(1, 1, true), s.s_h = op.option(2, 1, true);
  s.p_w = padding_before(s.in_w, s.f_w, s.s_w, 1, same);
  s.p_h = padding_before(s.in_h, s.f_h, s.s_h, 1, same);
  return s;
}

// esp_nn_get_conv_scratch_size_esp32s3: a 1x1 stride-1 unpadded filter transposes eight input
// positions at a time; a filter row narrower than 16 bytes with a window of 16 or more copies
// windows (im2col); otherwise the filter is copied with rows aligned to 16, the input padded, and
// an int32 per output channel kept. 64 bytes of alignment margin each.
EspPath esp_s3_conv(const TflmOp& op, const EspShape& s) {
  if (op.shape_path(s.f_w == 1 && s.f_h == 1 && s.p_w == 0 && s.p_h == 0 && s.s_w == 1 && s.s_h == 1)) {
    const int64_t channels = align_up(s.in_c, 8);
    const int64_t transpose = op.shape_path(s.in_w * s.in_h >= 8) ? 2 * 8 * channels : 0;
    const bool pad_channels = op.shape_path(s.in_c % 8 != 0);
    const int64_t input = pad_channels ? s.in_w * s.in_h * channels : 0;
    return {pad_channels ? "esp_nn:s3-1x1-pad-channels" : "esp_nn:s3-1x1", input + channels * s.out_c + transpose + 64};
  }
  const int64_t row = s.f_w * s.in_c, window = row * s.f_h;
  if (op.shape_path(row < 16 && window >= 16)) {
    const int64_t aligned = align_up(window, 16);
    return {"esp_nn:s3-im2col", s.out_c * 4 + 16 + s.out_c * aligned + 16 + aligned + 64};
  }
  const int64_t input =
      op.shape_path(s.p_w == 0 && s.p_h == 0) ? 0 : (s.in_w + 2 * s.p_w) * (s.in_h + 2 * s.p_h) * s.in_c;
  const int64_t filter = s.f_w * s.f_h * align_up(s.in_c, 16) * s.out_c;
  const int64_t aligned_rows = align_up(row, 16) * s.f_h * s.out_c;
  const int64_t right = std::max<int64_t>(0, s.out_w * s.s_w + s.f_w - 1 - s.in_w);
  const int64_t bottom = std::max<int64_t>(0, s.out_h * s.s_h + s.f_h - 1 - s.in_h);
  const int64_t boundary = op.shape_path(right > 0 || bottom > 0) ? (s.in_w + right) * (s.in_h + bottom) * s.in_c : 0;
  return {op.shape_path(s.in_c % 16 == 0) ? "esp_nn:s3-direct" : "esp_nn:s3-direct-pad-channels",
          input + filter + aligned_rows + boundary + 64 + 4 * s.out_c};
}

// esp_nn_get_depthwise_conv_scratch_size_esp32s3 for a 3x3 filter, one output channel per input
// channel and channels a multiple of 8: 16 channels or more in int8 with the input padded (in
// strips past 40 KiB), channels padded to 16 from 12 on, int16 copies for 8.
EspPath esp_s3_depthwise_3x3(const TflmOp& op, const EspShape& s, int64_t filter, int64_t input) {
  if (op.shape_path(s.in_c % 16 == 0)) {
    const bool padded = op.shape_path(s.p_w != 0 || s.p_h != 0);
    const int64_t pad_w = padded ? 2 * s.p_w : s.out_w * s.s_w + s.f_w - 1 - s.in_w;
    const int64_t pad_h = padded ? 2 * s.p_h : s.out_h * s.s_h + s.f_h - 1 - s.in_h;
    if (!op.shape_path(pad_w != 0 || pad_h != 0)) return {"esp_nn:s3-3x3-unpadded", filter + 16};
    const int64_t full = (s.in_w + pad_w) * (s.in_h + pad_h) * s.in_c;
    if (op.shape_path(full <= 40 * 1024)) return {"esp_nn:s3-3x3", filter + full + 16};
    return {"esp_nn:s3-3x3-strips", filter + (s.in_w + pad_w) * s.f_h * s.in_c + 16};
  }
  if (op.shape_path(s.in_c >= 12)) {
    const int64_t channels = align_up(s.in_c, 16);
    const int64_t pad_w = 2 * s.p_w + std::max<int64_t>(0, s.out_w * s.s_w + 2 - s.in_w);
    const int64_t pad_h = 2 * s.p_h + std::max<int64_t>(0, s.out_h * s.s_h + 2 - s.in_h);
    return {"esp_nn:s3-3x3-pad-channels",
            9 * channels + (s.in_w + pad_w) * (s.in_h + pad_h) * channels + s.out_w * s.out_h * channels + 64};
  }
  return {"esp_nn:s3-3x3-s16", 2 * (filter + input) + 32};
}

// esp_nn_get_depthwise_conv_scratch_size_esp32s3: int16 copies of filter and input for other
// filters with one output channel per input channel (in strips past 48 KiB) and for channel
// multipliers of 4k; channels padded to 8 for other channel counts above 3; 32 bytes otherwise.
EspPath esp_s3_depthwise(const TflmOp& op, const EspShape& s) {
  const int64_t mult = s.in_c > 0 ? s.out_c / s.in_c : 0;
  const int64_t filter = s.f_w * s.f_h * s.in_c * mult, input = s.in_w * s.in_h * s.in_c;
  if (op.shape_path(mult == 1 && s.in_c % 8 == 0)) {
    if (op.shape_path(s.f_w == 3 && s.f_h == 3)) return esp_s3_depthwise_3x3(op, s, filter, input);
    const int64_t copies = 2 * (filter + input);
    if (op.shape_path(copies <= 48 * 1024)) return {"esp_nn:s3-s16", copies + 32};
    return {"esp_nn:s3-s16-strips", 2 * filter + 2 * s.in_w * s.f_h * s.in_c + 32};
  }
  if (op.shape_path(mult == 1 && s.in_c > 3)) {
    const int64_t channels = align_up(s.in_c, 8);
    const int64_t input_at = align_up(s.f_w * s.f_h * channels * 2, 16);
    const int64_t output_at = align_up(input_at + s.in_w * s.in_h * channels * 2, 16);
    const int64_t arrays_at = align_up(output_at + s.out_w * s.out_h * channels, 16);
    return {"esp_nn:s3-mult1-pad-channels", arrays_at + 3 * 4 * channels + 16};
  }
  if (op.shape_path(mult % 4 == 0)) return {"esp_nn:s3-mult4", 2 * (filter + input) + 32};
  return {"esp_nn:s3-other", 32};
}

// The ESP-NN path an int8 convolution takes on the build's target: its key word and scratch.
std::optional<EspPath> esp_path(const TflmOp& op, bool depthwise) {
  if (op.build.target != TflmTarget::kEsp32S3) return EspPath{"esp_nn", 0};
  const auto shape = esp_shape(op, depthwise);
  if (!shape) return std::nullopt;
  return depthwise ? esp_s3_depthwise(op, *shape) : esp_s3_conv(op, *shape);
}

bool esp_int8_path(const TflmOp& op) {
  return op.esp_nn() && op.input_type(0) == sc::kInt8 && op.input_type(1, TflmKeyPart::kOtherTypes) == sc::kInt8;
}

// The key's words for ESP-NN: "esp_nn", or on the S3 the size function's path.
std::string esp_words(const TflmOp& op, bool depthwise) {
  if (!op.esp_nn()) return "";
  if (!esp_int8_path(op)) return " esp_nn";
  const auto path = esp_path(op, depthwise);
  return " " + std::string(path ? path->word : "esp_nn:s3-unmodelled");
}

ScratchNeed esp_scratch(const TflmOp& op, bool depthwise) {
  if (!esp_int8_path(op)) return int4_unpack_scratch(op);
  const auto path = esp_path(op, depthwise);
  if (!path) return scratch_unknown("ESP-NN convolution without NHWC shapes or options, or dilated");
  if (path->bytes <= 0) return scratch_none("ESP-NN on " + std::string(to_string(op.build.target)) + ": no scratch");
  if (path->bytes > kMaxScratchBytes) return scratch_unknown("ESP-NN convolution too large");
  return {true, {path->bytes}, "ESP-NN (esp-nn 1.2.3) " + std::string(path->word) + " scratch"};
}

std::string conv_key(const TflmOp& op) {
  std::string words = filter_granularity(op, 0) + int4_word(op);
  if (cmsis_int8_path(op, 0)) {
    const auto one_by_one = cmsis_conv_1x1(op);
    if (one_by_one) words += *one_by_one ? " cmsis:1x1" : " cmsis:im2col";
  }
  return words + esp_words(op, false);
}

std::string depthwise_key(const TflmOp& op) {
  std::string words = filter_granularity(op, 0) + int4_word(op);
  if (cmsis_int8_path(op, 0)) {
    const DepthwisePath path = cmsis_depthwise_path(op);
    if (path == DepthwisePath::kGeneric) words += " cmsis:generic";
    if (path == DepthwisePath::k3x3) words += " cmsis:3x3";
    if (path == DepthwisePath::kDsp) words += " cmsis:dsp";
  }
  return words + esp_words(op, true);
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
  if (op.esp_nn()) return esp_scratch(op, false);
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
  if (op.esp_nn()) return esp_scratch(op, true);
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
                                              "cmsis_nn: INT8>INT8 per-tensor cmsis:im2col",
                                              "esp32: INT8>INT8 per-channel",
                                              "esp32: INT8>INT8 per-channel esp_nn",
                                              "esp32: INT8>INT8 per-channel esp_nn:s3-1x1",
                                              "esp32: INT8>INT8 per-channel esp_nn:s3-direct",
                                              "esp32: INT8>INT8 per-channel esp_nn:s3-im2col"};
constexpr std::string_view kDepthwiseConv2dProven[] = {"FLOAT32>FLOAT32",
                                                       "INT16>INT16 per-channel",
                                                       "reference: INT8>INT8 per-channel",
                                                       "cmsis_nn: INT8>INT8 per-channel cmsis:3x3",
                                                       "cmsis_nn: INT8>INT8 per-channel cmsis:dsp",
                                                       "cmsis_nn: INT8>INT8 per-channel cmsis:generic",
                                                       "reference: INT8>INT8 per-tensor",
                                                       "cmsis_nn: INT8>INT8 per-tensor cmsis:3x3",
                                                       "esp32: INT8>INT8 per-channel",
                                                       "esp32: INT8>INT8 per-channel esp_nn",
                                                       "esp32: INT8>INT8 per-channel esp_nn:s3-3x3",
                                                       "esp32: INT8>INT8 per-channel esp_nn:s3-3x3-s16",
                                                       "esp32: INT8>INT8 per-channel esp_nn:s3-mult4",
                                                       "esp32: INT8>INT8 per-channel esp_nn:s3-s16"};
constexpr std::string_view kTransposeConvProven[] = {"FLOAT32>FLOAT32",
                                                     "INT16>INT16 per-channel",
                                                     "reference: INT8>INT8 per-channel",
                                                     "cmsis_nn: INT8>INT8 per-channel cmsis:rolling",
                                                     "reference: INT8>INT8 per-tensor",
                                                     "cmsis_nn: INT8>INT8 per-tensor cmsis:rolling"};

// CONV_2D in the older TFLM versions: differences from the rules above (tflm_version_rules.h).
constexpr TflmVersionChange kConv2dVersions[] = {
    {TflmVersion::k2023_06_30, TflmVersion::k2023_06_30, TflmChange::kOptions, {24, 4, 24, 4}},
};

// TRANSPOSE_CONV in the older TFLM versions: differences from the rules above (tflm_version_rules.h).
constexpr TflmVersionChange kTransposeConvVersions[] = {
    {TflmVersion::k2023_06_30, TflmVersion::k2023_06_30, TflmChange::kOptions, {16, 4, 16, 4}},
};

// DEPTHWISE_CONV_2D in the older TFLM versions: differences from the rules above (tflm_version_rules.h).
constexpr TflmVersionChange kDepthwiseConv2dVersions[] = {
    refused_at_allocate(
        TflmVersion::k2023_06_30, TflmVersion::k2023_06_30, "DEPTHWISE_CONV_2D INT16>*",
        "tensorflow/lite/micro/kernels/depthwise_conv_common.cc Hybrid models are not supported on TFLite Micro."),
};

}  // namespace

const TflmKernel kConvKernels[] = {
    {.name = "CONV_2D",
     .options = kConvOptions,
     .init = {56, 72, 60, 60},  // ESP-NN: OpDataConv and its scratch buffer's index
     .prepare = per_channel_arrays,
     .scratch = conv_scratch,
     .refusal = conv_refusal,
     .proven = kConv2dProven,
     .key_words = conv_key,
     .cmsis_nn = true,
     .versions = kConv2dVersions},
    {.name = "DEPTHWISE_CONV_2D",
     .options = kConvOptions,
     .init = {56, 72, 60, 60},  // OpDataConv, as CONV_2D
     .prepare = per_channel_arrays,
     .scratch = depthwise_scratch,
     .refusal = depthwise_refusal,
     .proven = kDepthwiseConv2dProven,
     .key_words = depthwise_key,
     .cmsis_nn = true,
     .versions = kDepthwiseConv2dVersions},
    {.name = "TRANSPOSE_CONV",
     .options = kTransposeConvOptions,
     .init = {72, 80, 76},
     .prepare = transpose_conv_arrays,
     .scratch = transpose_conv_scratch,
     .proven = kTransposeConvProven,
     .data_input = 2,  // the first input is the output's shape
     .key_words = transpose_conv_key,
     .cmsis_nn = true,
     .versions = kTransposeConvVersions},
};
constinit const std::span<const TflmKernel> kTflmConvKernels = kConvKernels;

}  // namespace usmpx
