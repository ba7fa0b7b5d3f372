// QUANTIZE and DEQUANTIZE (quantize.cc, quantize_common.cc, dequantize.cc, dequantize_common.cc at
// kTflmVersion).
#include "frontends/tflite/kernels/tflm_kernel_families.h"
#include "frontends/tflite/kernels/tflm_refusal_rules.h"
#include "frontends/tflite/tflite_schema.h"

namespace usmpx {
namespace {

namespace sc = tflite_schema;

// The types quantize_common.cc and dequantize_common.cc Prepare take.
std::optional<TflmRefusal> conversion_refusal(const TflmOp& op, std::string_view name, const std::vector<int>& inputs,
                                              const std::vector<int>& outputs) {
  const int in = op.input_type(0);
  const int out = op.output_type(0);
  const std::string kernel(name);
  if (in >= 0 && !in_set(in, inputs))
    return TflmRefusal{"", "its " + kernel + " kernel takes " + one_of(inputs) + " input, not " + sc::type_name(in)};
  if (out >= 0 && !in_set(out, outputs))
    return TflmRefusal{"", "its " + kernel + " kernel gives " + one_of(outputs) + " output, not " + sc::type_name(out)};
  return std::nullopt;
}

std::optional<TflmRefusal> quantize_refusal(const TflmOp& op) {
  return conversion_refusal(op, "QUANTIZE", {sc::kFloat32, sc::kInt32, sc::kInt16, sc::kInt8, kTypeUInt8},
                            {sc::kInt8, sc::kInt16, sc::kInt32, kTypeUInt8});
}

std::optional<TflmRefusal> dequantize_refusal(const TflmOp& op) {
  return conversion_refusal(op, "DEQUANTIZE", {sc::kInt8, sc::kInt16}, {sc::kFloat32});
}

constexpr std::string_view kDequantizeProven[] = {"INT16>FLOAT32", "INT8>FLOAT32"};
constexpr std::string_view kQuantizeProven[] = {"FLOAT32>INT16", "FLOAT32>INT8",       "INT16>INT32",      "INT16>INT8",
                                                "INT8>INT8",     "esp32: INT16>INT32", "esp32: INT16>INT8"};

}  // namespace

const TflmKernel kQuantizeKernels[] = {
    {.name = "DEQUANTIZE", .init = same_init(32), .refusal = dequantize_refusal, .proven = kDequantizeProven},
    {.name = "QUANTIZE", .init = same_init(32), .refusal = quantize_refusal, .proven = kQuantizeProven},
};
constinit const std::span<const TflmKernel> kTflmQuantizeKernels = kQuantizeKernels;

}  // namespace usmpx
