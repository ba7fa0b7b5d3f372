// Elementwise functions of one input (elementwise.cc, exp.cc, neg.cc, ceil.cc, floor.cc, round.cc,
// logical.cc at kTflmVersion).
#include "frontends/tflite/kernels/tflm_kernel_families.h"
#include "frontends/tflite/kernels/tflm_refusal_rules.h"
#include "frontends/tflite/tflite_schema.h"

namespace usmpx {
namespace {

namespace sc = tflite_schema;

std::optional<TflmRefusal> exp_refusal(const TflmOp& op) {
  return type_check(op, "EXP", {sc::kFloat32}, false,
                    "tensorflow/lite/micro/kernels/exp.cc:41 input->type != kTfLiteFloat32 (%s != FLOAT32)");
}

std::optional<TflmRefusal> neg_refusal(const TflmOp& op) {
  return type_check(op, "NEG", {sc::kFloat32}, true, "Type %s (%d) not supported.");
}

constexpr std::string_view kAbsProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT8>INT8"};
constexpr std::string_view kCeilProven[] = {"FLOAT32>FLOAT32"};
constexpr std::string_view kCosProven[] = {"FLOAT32>FLOAT32"};
constexpr std::string_view kExpProven[] = {"FLOAT32>FLOAT32"};
constexpr std::string_view kFloorProven[] = {"FLOAT32>FLOAT32"};
constexpr std::string_view kLogProven[] = {"FLOAT32>FLOAT32"};
constexpr std::string_view kLogicalNotProven[] = {"BOOL>BOOL"};
constexpr std::string_view kNegProven[] = {"FLOAT32>FLOAT32", "INT8>INT8"};
constexpr std::string_view kRoundProven[] = {"FLOAT32>FLOAT32"};
constexpr std::string_view kRsqrtProven[] = {"FLOAT32>FLOAT32", "INT8>INT8"};
constexpr std::string_view kSinProven[] = {"FLOAT32>FLOAT32"};
constexpr std::string_view kSqrtProven[] = {"FLOAT32>FLOAT32"};
constexpr std::string_view kSquareProven[] = {"FLOAT32>FLOAT32"};

// Every version fails NEG INT8 at Invoke; the recordings, which invoke, kept no figure of it.
constexpr TflmVersionChange kNegVersions[] = {not_measured_before_90b983c("NEG INT8>*")};

}  // namespace

const TflmKernel kUnaryKernels[] = {
    {.name = "ABS", .init = same_init(28), .proven = kAbsProven},  // elementwise OpDataAbsRsqrt (ABS and RSQRT)
    {.name = "CEIL", .proven = kCeilProven},
    {.name = "COS", .proven = kCosProven},
    {.name = "EXP", .refusal = exp_refusal, .proven = kExpProven},
    {.name = "FLOOR", .proven = kFloorProven},
    {.name = "LOG", .proven = kLogProven},
    {.name = "LOGICAL_NOT", .proven = kLogicalNotProven},
    {.name = "NEG", .refusal = neg_refusal, .proven = kNegProven, .versions = kNegVersions},
    {.name = "ROUND", .proven = kRoundProven},
    {.name = "RSQRT", .init = same_init(28), .proven = kRsqrtProven},
    {.name = "SIN", .proven = kSinProven},
    {.name = "SQRT", .proven = kSqrtProven},
    {.name = "SQUARE", .proven = kSquareProven},
};
constinit const std::span<const TflmKernel> kTflmUnaryKernels = kUnaryKernels;

}  // namespace usmpx
