// SOFTMAX, LOG_SOFTMAX and the activation functions (softmax.cc, softmax_common.cc, log_softmax.cc,
// activations.cc, leaky_relu.cc, hard_swish.cc, logistic.cc, tanh.cc, elu.cc, prelu.cc,
// l2norm.cc and cmsis_nn/softmax.cc at kTflmVersion).
#include "frontends/tflite/kernels/tflm_kernel_families.h"
#include "frontends/tflite/kernels/tflm_refusal_rules.h"
#include "frontends/tflite/tflite_schema.h"

namespace usmpx {
namespace {

namespace sc = tflite_schema;

// SOFTMAX's Prepare: for int16 input the exp and 1/(1+x) lookup tables, 513 int16 entries each.
std::vector<int64_t> softmax_luts(const TflmOp& op, TflmResourceState*) {
  if (op.input_type(0) != sc::kInt16) return {};
  return {int64_t{513} * 2, int64_t{513} * 2};
}

// softmax_common.cc, cmsis_nn/softmax.cc Prepare: the input -> output pairs it takes.
std::optional<TflmRefusal> softmax_refusal(const TflmOp& op) {
  const int in = op.input_type(0);
  const int out = op.output_type(0);
  if (in < 0 || out < 0) return std::nullopt;
  const bool taken = (in == sc::kFloat32 && out == sc::kFloat32) || (in == sc::kInt8 && out == sc::kInt8) ||
                     (in == sc::kInt8 && out == sc::kInt16) || (in == sc::kInt16 && out == sc::kInt16);
  if (taken) return std::nullopt;
  const std::string takes = "FLOAT32 to FLOAT32, INT8 to INT8, INT8 to INT16 or INT16 to INT16";
  if (in == kTypeUInt8) return unsupported_input("SOFTMAX", in, takes);
  return TflmRefusal{"",
                     "its SOFTMAX kernel takes " + takes + ", not " + sc::type_name(in) + " to " + sc::type_name(out)};
}

std::vector<int64_t> log_softmax_op_data(const TflmOp& op, TflmResourceState*) {
  return int8_op_data(op, 28, 40);
}

constexpr std::string_view kEluProven[] = {"FLOAT32>FLOAT32", "INT8>INT8"};
constexpr std::string_view kHardSwishProven[] = {"FLOAT32>FLOAT32", "INT8>INT8"};
constexpr std::string_view kL2NormalizationProven[] = {"FLOAT32>FLOAT32", "INT8>INT8"};
constexpr std::string_view kLeakyReluProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT8>INT8"};
constexpr std::string_view kLogisticProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT8>INT8"};
constexpr std::string_view kLogSoftmaxProven[] = {"FLOAT32>FLOAT32", "INT8>INT8"};
constexpr std::string_view kPreluProven[] = {"FLOAT32>FLOAT32", "INT8>INT8"};
constexpr std::string_view kReluProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT8>INT8"};
constexpr std::string_view kRelu6Proven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT8>INT8"};
constexpr std::string_view kSoftmaxProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT8>INT16", "INT8>INT8"};
constexpr std::string_view kTanhProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT8>INT8"};

const TflmKernel kActivationKernels[] = {
    {.name = "ELU",
     .options = kNoOptions,
     .init = same_init(256),
     .proven = kEluProven},  // an int8 lookup table of 256 entries, whatever the type
    {.name = "HARD_SWISH", .options = kNoOptions, .init = same_init(20), .proven = kHardSwishProven},
    {.name = "L2_NORMALIZATION", .options = kActivationOptions, .init = same_init(4), .proven = kL2NormalizationProven},
    {.name = "LEAKY_RELU", .options = kOneIntOptions, .init = same_init(24), .proven = kLeakyReluProven},
    {.name = "LOGISTIC", .options = kNoOptions, .init = same_init(16), .proven = kLogisticProven},
    {.name = "LOG_SOFTMAX",
     .options = kNoOptions,
     .init = same_init(0),
     .prepare = log_softmax_op_data,
     .proven = kLogSoftmaxProven},
    {.name = "PRELU", .options = kNoOptions, .init = same_init(28), .proven = kPreluProven},
    {.name = "RELU", .options = kNoOptions, .init = same_init(28), .proven = kReluProven},
    {.name = "RELU6", .options = kNoOptions, .init = same_init(8), .proven = kRelu6Proven},
    {.name = "SOFTMAX",
     .options = kOneIntOptions,
     .init = {56, 80, 64},
     .prepare = softmax_luts,
     .refusal = softmax_refusal,
     .proven = kSoftmaxProven},
    {.name = "TANH", .options = kNoOptions, .init = same_init(16), .proven = kTanhProven},
};

}  // namespace

std::span<const TflmKernel> tflm_activation_kernels() {
  return kActivationKernels;
}

}  // namespace usmpx
