// AVERAGE_POOL_2D, MAX_POOL_2D, L2_POOL_2D (pooling.cc, pooling_common.cc, l2_pool_2d.cc and
// cmsis_nn/pooling.cc at kTflmVersion).
#include "frontends/tflite/kernels/tflm_kernel_families.h"
#include "frontends/tflite/kernels/tflm_refusal_rules.h"
#include "frontends/tflite/tflite_schema.h"

namespace usmpx {
namespace {

namespace sc = tflite_schema;

// CMSIS-NN's int8 and int16 average pooling (DSP): 4 x channels.
ScratchNeed average_pool_scratch(const TflmOp& op) {
  if (!op.cmsis()) return scratch_none("no scratch");
  const TfliteTensor* input = op.input(0);
  if (!input) return scratch_unknown("AVERAGE_POOL_2D without input");
  const int type = op.input_type(0);
  if (type == sc::kFloat32) return scratch_none("float AVERAGE_POOL_2D: no scratch");
  if (type != sc::kInt8 && type != sc::kInt16)
    return scratch_unknown("CMSIS-NN AVERAGE_POOL_2D with input type " + sc::type_name(type));
  const int64_t channels = dim(input, 3);
  if (channels < 0) return scratch_unknown("AVERAGE_POOL_2D without NHWC input");
  return {true, {4 * channels}, "CMSIS-NN int8/int16 average pooling (DSP): 4 x channels"};
}

// PoolingPrepare (pooling_common.cc, which CMSIS-NN's pooling calls too).
std::optional<TflmRefusal> pooling_refusal(const TflmOp& op, std::string_view name) {
  const int in = op.input_type(0);
  if (in < 0 || in_set(in, {sc::kFloat32, sc::kInt8, sc::kInt16})) return std::nullopt;
  return unsupported_input(name, in, "FLOAT32, INT8 or INT16 input");
}

std::optional<TflmRefusal> average_pool_refusal(const TflmOp& op) {
  return pooling_refusal(op, "AVERAGE_POOL_2D");
}

std::optional<TflmRefusal> max_pool_refusal(const TflmOp& op) {
  return pooling_refusal(op, "MAX_POOL_2D");
}

constexpr std::string_view kAveragePool2dProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT8>INT8", "esp32: INT8>INT8"};
constexpr std::string_view kL2Pool2dProven[] = {"FLOAT32>FLOAT32"};
constexpr std::string_view kMaxPool2dProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT8>INT8"};

}  // namespace

const TflmKernel kPoolingKernels[] = {
    {.name = "AVERAGE_POOL_2D",
     .options = kPoolOptions,
     .init = {32, 32, 36},
     .scratch = average_pool_scratch,
     .refusal = average_pool_refusal,
     .proven = kAveragePool2dProven,
     .cmsis_nn = true},
    {.name = "L2_POOL_2D", .options = kPoolOptions, .prepare = output_dims_copy, .proven = kL2Pool2dProven},
    {.name = "MAX_POOL_2D",
     .options = kPoolOptions,
     .init = {32, 32, 36},
     .refusal = max_pool_refusal,
     .proven = kMaxPool2dProven,
     .cmsis_nn = true},
};
constinit const std::span<const TflmKernel> kTflmPoolingKernels = kPoolingKernels;

}  // namespace usmpx
