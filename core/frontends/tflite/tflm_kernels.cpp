#include "frontends/tflite/tflm_kernels.h"

#include <array>

#include "frontends/tflite/tflite_schema.h"

namespace usmpx {
namespace {

namespace sc = tflite_schema;

// A builtin options struct: size and alignment on a 32-bit Cortex-M build and on x86-64.
struct Options {
  int64_t bytes32, align32, bytes64, align64;
};

// One kernel: its options struct and its op data (sizeof the struct Init allocates) per build.
struct Kernel {
  int32_t builtin;
  Options options;
  int64_t reference32, reference64, cmsis32;
};

// TfLite*Params: FullyConnected {activation, weights_format, keep_num_dims, asymmetric_quantize_
// inputs, quantized_bias_type}; Add {activation, pot_scale_int16}; Conv / DepthwiseConv (seven
// fields, three of them enums); Pool {padding, strides, filter, activation, computed padding};
// Reshape {shape[8], num_dimensions}; Softmax {beta}; SVDF {rank, activation, asymmetric};
// UnidirectionalSequenceLSTM {activation, cell_clip, proj_clip, three bools}; Reducer {keep_dims}.
// Op data: OpDataFullyConnected, OpDataConv, OpDataPooling, SoftmaxParams, OpDataQuantizeReference,
// OpDataSvdf, OpDataLSTM, OpDataAdd, OpDataReduce and the CMSIS-NN kernels' own (which add their
// buffer indices and kernel-sum pointers).
constexpr std::array<Kernel, 15> kKernels = {{
    {9, {5, 1, 16, 4}, 48, 64, 72},       // FULLY_CONNECTED
    {3, {28, 4, 28, 4}, 56, 72, 60},      // CONV_2D
    {4, {28, 4, 28, 4}, 56, 72, 60},      // DEPTHWISE_CONV_2D
    {1, {40, 4, 40, 4}, 32, 32, 36},      // AVERAGE_POOL_2D
    {17, {40, 4, 40, 4}, 32, 32, 36},     // MAX_POOL_2D (the same pooling kernel)
    {25, {4, 4, 4, 4}, 56, 80, 64},       // SOFTMAX
    {22, {36, 4, 36, 4}, 0, 0, 0},        // RESHAPE (no op data)
    {114, {0, 1, 0, 1}, 32, 32, 32},      // QUANTIZE (no options struct)
    {27, {8, 4, 12, 4}, 36, 36, 40},      // SVDF
    {44, {16, 4, 16, 4}, 688, 688, 912},  // UNIDIRECTIONAL_SEQUENCE_LSTM
    {0, {2, 1, 8, 4}, 60, 60, 60},        // ADD
    {40, {1, 1, 1, 1}, 44, 44, 44},       // MEAN
    {74, {1, 1, 1, 1}, 44, 44, 44},       // SUM (the same reduce kernel)
    {82, {1, 1, 1, 1}, 44, 44, 44},       // REDUCE_MAX
    {89, {1, 1, 1, 1}, 44, 44, 44},       // REDUCE_MIN
}};

const TfliteTensor* tensor(const TfliteSubgraph& g, const std::vector<int32_t>& list, size_t k) {
  if (k >= list.size() || list[k] < 0) return nullptr;
  return &g.tensors[static_cast<size_t>(list[k])];
}

int64_t last_dim(const TfliteTensor* t) {
  return t && !t->shape.empty() ? t->shape.back() : -1;
}

}  // namespace

TflmKernelRecord tflm_kernel_record(const TfliteModel& model, const TfliteSubgraph& g, const TfliteOperator& op,
                                    const TflmBuild& build) {
  TflmKernelRecord r;
  const TfliteOperatorCode& code = model.operator_codes[op.opcode_index];
  const std::string name = code.builtin_code == sc::kCustom ? code.custom_code : sc::builtin_name(code.builtin_code);
  const Kernel* kernel = nullptr;
  for (const Kernel& k : kKernels) {
    if (k.builtin == code.builtin_code && code.builtin_code != sc::kCustom) kernel = &k;
  }
  if (!kernel) {
    r.why_unknown = name + ": its kernel's persistent data is not modelled";
    return r;
  }
  const bool x64 = build.target == TflmTarget::kX86_64;
  const bool cmsis = build.kernels == TflmKernels::kCmsisNn;
  r.options_bytes = x64 ? kernel->options.bytes64 : kernel->options.bytes32;
  r.options_align = x64 ? kernel->options.align64 : kernel->options.align32;
  const int64_t data = cmsis ? kernel->cmsis32 : (x64 ? kernel->reference64 : kernel->reference32);
  if (data > 0) r.init.push_back(data);

  const TfliteTensor* input = tensor(g, op.inputs, 0);
  const TfliteTensor* filter = tensor(g, op.inputs, 1);
  const TfliteTensor* output = tensor(g, op.outputs, 0);
  const bool quantized = input && (input->type == sc::kInt8 || input->type == sc::kInt16);
  switch (code.builtin_code) {
    case sc::kConv2d:
    case sc::kDepthwiseConv2d: {
      // Per-channel output multipliers and shifts, one int32 each per output channel.
      const int64_t channels = last_dim(output);
      if (quantized && channels > 0) r.prepare = {4 * channels, 4 * channels};
      break;
    }
    case sc::kFullyConnected:
      if (filter && filter->quant_scales > 1) {
        r.why_unknown = name + " with per-channel quantization: its per-channel arrays are not modelled";
        return r;
      }
      break;
    case 25:  // SOFTMAX
      if (input && input->type == sc::kInt16) {
        r.why_unknown = name + " on int16: its lookup tables are not modelled";
        return r;
      }
      break;
    case sc::kUnidirectionalSequenceLstm:
      if (cmsis) {
        // CMSIS-NN precomputes the weight sums of the four gates' input and recurrent weights.
        const int64_t cells = last_dim(tensor(g, op.inputs, 19));
        if (!input || input->type != sc::kInt8 || cells <= 0) {
          r.why_unknown = name + " on CMSIS-NN other than int8: its precomputed sums are not modelled";
          return r;
        }
        r.prepare.assign(8, 4 * cells);
      }
      break;
    default:
      break;
  }
  r.known = true;
  return r;
}

}  // namespace usmpx
