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

// ESP-NN's int8 SOFTMAX (esp-tflite-micro 1.4.0, int8 in and out): Prepare requests what esp-nn
// 1.2.3's esp_nn_get_softmax_scratch_size returns, an int32 per class (the input's last dimension)
// on the S3 and the generic optimised path, none for the ANSI C fallback.
bool esp_softmax_int8(const TflmOp& op) {
  return op.esp_nn() && op.input_type(0) == sc::kInt8 && op.output_type(0) == sc::kInt8;
}

ScratchNeed softmax_scratch(const TflmOp& op) {
  if (!esp_softmax_int8(op) || op.build.target == TflmTarget::kEspAnsi) return scratch_none("SOFTMAX: no scratch");
  const int64_t classes = last_dim(op.input(0));
  if (classes <= 0) return scratch_unknown("SOFTMAX without a shape");
  return {true, {4 * classes}, "ESP-NN softmax (esp-nn 1.2.3): 4 x classes"};
}

std::string softmax_key(const TflmOp& op) {
  return op.esp_nn() ? "esp_nn" : "";
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
constexpr std::string_view kSoftmaxProven[] = {"FLOAT32>FLOAT32",   "INT16>INT16",
                                               "INT8>INT16",        "INT8>INT8",
                                               "esp32: INT8>INT16", "esp32: INT8>INT16 esp_nn",
                                               "esp32: INT8>INT8",  "esp32: INT8>INT8 esp_nn"};
constexpr std::string_view kTanhProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT8>INT8"};

// RELU6 in the older TFLM versions: differences from the rules above (tflm_version_rules.h).
constexpr TflmVersionChange kRelu6Versions[] = {
    {TflmVersion::k2023_06_30, TflmVersion::k2024_05_29, TflmChange::kInitOpData, {}, 2},
    refused_at_invoke(TflmVersion::k2023_06_30, TflmVersion::k2024_05_29, "RELU6 INT16>*",
                      "Only float32 is supported currently, got INT16"),
};

// RELU in the older TFLM versions: differences from the rules above (tflm_version_rules.h).
constexpr TflmVersionChange kReluVersions[] = {
    refused_at_invoke(TflmVersion::k2023_06_30, TflmVersion::k2025_02_07, "RELU INT16>*",
                      "Only float32 is supported currently, got INT16"),
};

}  // namespace

const TflmKernel kActivationKernels[] = {
    {.name = "ELU",
     .init = same_init(256),
     .proven = kEluProven},  // an int8 lookup table of 256 entries, whatever the type
    {.name = "HARD_SWISH", .init = same_init(20), .proven = kHardSwishProven},
    {.name = "L2_NORMALIZATION", .options = kActivationOptions, .init = same_init(4), .proven = kL2NormalizationProven},
    {.name = "LEAKY_RELU", .options = kOneIntOptions, .init = same_init(24), .proven = kLeakyReluProven},
    {.name = "LOGISTIC", .init = same_init(16), .proven = kLogisticProven},
    {.name = "LOG_SOFTMAX", .prepare = log_softmax_op_data, .proven = kLogSoftmaxProven},
    {.name = "PRELU", .init = same_init(28), .proven = kPreluProven},
    {.name = "RELU", .init = same_init(28), .proven = kReluProven, .versions = kReluVersions},
    {.name = "RELU6", .init = same_init(8), .proven = kRelu6Proven, .versions = kRelu6Versions},
    {.name = "SOFTMAX",
     .options = kOneIntOptions,
     .init = {56, 80, 64, 64},  // ESP-NN: SoftmaxParams and its scratch buffer's index
     .prepare = softmax_luts,
     .scratch = softmax_scratch,
     .refusal = softmax_refusal,
     .proven = kSoftmaxProven,
     .key_words = softmax_key,
     .cmsis_nn = true},
    {.name = "TANH", .init = same_init(16), .proven = kTanhProven},
};
constinit const std::span<const TflmKernel> kTflmActivationKernels = kActivationKernels;

}  // namespace usmpx
