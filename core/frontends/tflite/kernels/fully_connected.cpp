// FULLY_CONNECTED and BATCH_MATMUL (fully_connected.cc, batch_matmul.cc and their cmsis_nn/
// versions at kTflmVersion).
#include <algorithm>

#include "frontends/tflite/kernels/tflm_kernel_families.h"
#include "frontends/tflite/kernels/tflm_refusal_rules.h"
#include "frontends/tflite/tflite_schema.h"

namespace usmpx {
namespace {

namespace sc = tflite_schema;

constexpr TflmOptionsStruct kFullyConnectedOptions{5, 1, 16, 4};  // five one-byte fields on Cortex-M
constexpr TflmOptionsStruct kBatchMatmulOptions{3, 1, 3, 1};      // {bool adj_x, adj_y, asymmetric}

// CMSIS-NN's int8 kernel on an output of rank 3 or 4 (a Dense on a sequence, keep_num_dims) whose
// accumulation depth (the filter's last dimension) is a multiple of 4 runs as a 1x1 convolution
// over the batches (cmsis_nn/fully_connected.cc: output_dim_count > 2 && accum_depth % 4 == 0).
bool cmsis_batched(const TflmOp& op) {
  if (!op.cmsis() || op.input_type(0) != sc::kInt8 || op.input_type(1, TflmKeyPart::kOtherTypes) == sc::kInt4)
    return false;
  return op.output_rank() > 2 && op.shape_path(last_dim(op.input(1)) % 4 == 0);
}

std::string fully_connected_key(const TflmOp& op) {
  const int in = op.input_type(0);
  const bool per_channel = op.per_channel(1);
  const bool int4 = op.input_type(1, TflmKeyPart::kOtherTypes) == sc::kInt4;
  if (!op.input(1) || in < 0 || in == sc::kFloat32) return "";
  std::string words = per_channel ? "per-channel" : "per-tensor";
  if (int4) words += " int4-filter";
  if (cmsis_batched(op)) words += " cmsis:batched";
  return words;
}

// Prepare: multipliers and shifts per output channel (the filter's first dimension), only for a
// per-channel quantized filter.
std::vector<int64_t> fully_connected_arrays(const TflmOp& op, TflmResourceState*) {
  const int64_t channels = first_dim(op.input(1));
  if (op.input_type(0) == sc::kFloat32 || !op.per_channel(1) || channels <= 0) return {};
  return {4 * channels, 4 * channels};
}

// CMSIS-NN (DSP): no scratch for the int8 and int16 kernels (arm_fully_connected_s8/s16_get_buffer_size
// are 0 on a DSP core), except on the batched path: there TFLM 90b983c requests one buffer of the
// per-channel multipliers and shifts, an int32 each per output channel (8 x output depth; measured
// on a real model: 2,064 bytes for 257 channels, 2,056 rounded up), and
// arm_convolve_1x1_s8_fast_get_buffer_size, 0 in a GCC build.
ScratchNeed cmsis_fully_connected(const TflmOp& op) {
  const TfliteTensor* input = op.input(0);
  const TfliteTensor* filter = op.input(1);
  if (!input || !filter) return scratch_unknown("FULLY_CONNECTED without input or filter");
  const int type = op.input_type(0);
  const int filter_type = op.input_type(1, TflmKeyPart::kOtherTypes);
  if (type == sc::kFloat32) return scratch_none("float FULLY_CONNECTED: no scratch");
  if ((type != sc::kInt8 && type != sc::kInt16) || filter_type == sc::kInt4)
    return scratch_unknown("CMSIS-NN FULLY_CONNECTED with input " + sc::type_name(type) + " and filter " +
                           sc::type_name(filter_type));
  if (cmsis_batched(op)) {
    const int64_t depth = last_dim(op.output(0));
    if (depth <= 0 || depth > kMaxScratchBytes / 8) return scratch_unknown("FULLY_CONNECTED without an output depth");
    return {true, {8 * depth}, "CMSIS-NN int8 fully connected as a 1x1 convolution: 8 x output depth"};
  }
  return scratch_none("CMSIS-NN int8/int16 fully connected (DSP): no scratch");
}

ScratchNeed fully_connected_scratch(const TflmOp& op) {
  return op.cmsis() ? cmsis_fully_connected(op) : int4_unpack_scratch(op);
}

std::optional<TflmRefusal> fully_connected_refusal(const TflmOp& op) {
  return weighted_layer_refusal(op, "FULLY_CONNECTED");
}

// BATCH_MATMUL's Prepare (batch_matmul.cc, the same in CMSIS-NN's): for int8/int16 a quantization
// record of seven int32; for each operand it transposes (LHS when adj_x, RHS unless adj_y) a
// TfLiteEvalTensor, its dims and its data; then a writable copy of the output's dims, of the rank
// of the larger operand.
std::vector<int64_t> batch_matmul_buffers(const TflmOp& op, TflmResourceState*) {
  std::vector<int64_t> out;
  const TfliteTensor* lhs = op.input(0);
  const TfliteTensor* rhs = op.input(1);
  if (!lhs || !rhs) return out;
  const bool adj_x = op.option(0, 0, true) != 0;
  const bool adj_y = op.option(1, 0, true) != 0;
  const int type = op.input_type(0);
  if (type == sc::kInt8 || type == sc::kInt16) out.push_back(28);
  const int64_t eval_tensor = op.x64() ? 24 : 12;
  auto transposed = [&](const TfliteTensor& t) {
    out.push_back(eval_tensor);
    out.push_back(int_array_bytes(rank(&t)));
    out.push_back(elements(t) * sc::type_size(t.type).value_or(4));
  };
  if (adj_x) transposed(*lhs);
  if (!adj_y) transposed(*rhs);
  out.push_back(int_array_bytes(std::max(rank(lhs), rank(rhs))));
  return out;
}

// Which operands BATCH_MATMUL's Prepare transposes depends on adj_x and adj_y.
std::string batch_matmul_key(const TflmOp& op) {
  const bool adj_x = op.option(0, 0, true) != 0;
  const bool adj_y = op.option(1, 0, true) != 0;
  return std::string(adj_x ? "adj_x" : "") + (adj_x && adj_y ? " " : "") + (adj_y ? "adj_y" : "");
}

constexpr std::string_view kFullyConnectedProven[] = {"FLOAT32>FLOAT32", "INT16>INT16 per-tensor",
                                                      "INT8>INT8 per-channel", "INT8>INT8 per-tensor",
                                                      "esp32: INT8>INT8 per-tensor"};
constexpr std::string_view kBatchMatmulProven[] = {
    "FLOAT32>FLOAT32", "FLOAT32>FLOAT32 adj_x", "FLOAT32>FLOAT32 adj_y", "INT16>INT16",
    "INT8>INT8",       "INT8>INT8 adj_x",       "INT8>INT8 adj_y"};

// BATCH_MATMUL in the older TFLM versions: differences from the rules above (tflm_version_rules.h).
constexpr TflmVersionChange kBatchMatmulVersions[] = {
    {TflmVersion::k2023_06_30, TflmVersion::k2023_06_30, TflmChange::kUnregistered},
};

// FULLY_CONNECTED in the older TFLM versions: differences from the rules above (tflm_version_rules.h).
constexpr TflmVersionChange kFullyConnectedVersions[] = {
    {TflmVersion::k2023_06_30, TflmVersion::k2023_06_30, TflmChange::kOptions, {4, 1, 12, 4}},
    {TflmVersion::k2023_06_30, TflmVersion::k2024_05_29, TflmChange::kInitOpData, {}, 36},
    {TflmVersion::k2023_06_30, TflmVersion::k2023_06_30, TflmChange::kNoPerChannelArrays},
    refused_at_allocate(
        TflmVersion::k2024_05_29, TflmVersion::k2024_05_29, "FULLY_CONNECTED * per-channel",
        "tensorflow/lite/micro/kernels/fully_connected_common.cc FullyConnected per-channel quantization not yet "
        "supported. Please set converter._experimental_disable_per_channel_quantization_for_dense_layers = True."),
};

}  // namespace

const TflmKernel kFullyConnectedKernels[] = {
    {.name = "BATCH_MATMUL",
     .options = kBatchMatmulOptions,
     .init = {16, 32, 36},
     .prepare = batch_matmul_buffers,
     .proven = kBatchMatmulProven,
     .key_words = batch_matmul_key,
     .cmsis_nn = true,
     .versions = kBatchMatmulVersions},
    {.name = "FULLY_CONNECTED",
     .options = kFullyConnectedOptions,
     .init = {48, 64, 72},
     .prepare = fully_connected_arrays,
     .scratch = fully_connected_scratch,
     .refusal = fully_connected_refusal,
     .proven = kFullyConnectedProven,
     .key_words = fully_connected_key,
     .cmsis_nn = true,
     .versions = kFullyConnectedVersions},
};
constinit const std::span<const TflmKernel> kTflmFullyConnectedKernels = kFullyConnectedKernels;

}  // namespace usmpx
