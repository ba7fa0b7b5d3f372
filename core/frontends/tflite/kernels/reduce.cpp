// MEAN, SUM, REDUCE_MAX, REDUCE_MIN (reduce.cc, reduce_common.cc), ARG_MAX, ARG_MIN (arg_min_max.cc),
// CUMSUM (cumsum.cc) and ADD_N (add_n.cc) at kTflmVersion.
#include "frontends/tflite/kernels/tflm_kernel_families.h"
#include "frontends/tflite/kernels/tflm_refusal_rules.h"
#include "frontends/tflite/tflite_schema.h"
#include "frontends/tflite/tflm_version_rules.h"

namespace usmpx {
namespace {

namespace sc = tflite_schema;

// MEAN and SUM (PrepareMeanOrSumHelper): int8/int16 input: 4 x output elements (int32 sums); then,
// every type, 4 x input rank (iteration index) and 4 x axis count (resolved axes). REDUCE_MAX and
// REDUCE_MIN: the last two only.
ScratchNeed reduce_scratch(const TflmOp& op, bool mean_or_sum) {
  const TfliteTensor* input = op.input(0);
  const TfliteTensor* axis = op.input(1);
  const TfliteTensor* output = op.output(0);
  if (!input || !axis || !output) return scratch_unknown("reduction without input, axis or output");
  const int64_t axes = elements(*axis);
  const int64_t out = elements(*output);
  if (axes < 0 || out < 0 || out > kMaxScratchBytes / 4) return scratch_unknown("reduction too large");
  ScratchNeed need{true, {}, ""};
  const int type = op.input_type(0);
  if (mean_or_sum && (type == sc::kInt8 || type == sc::kInt16)) need.bytes.push_back(4 * out);
  // Before 2026-01-16 MEAN/SUM asked only the sums (tflm_version_rules.cpp).
  const std::string name = sc::builtin_name(op.model.operator_codes[op.op.opcode_index].builtin_code);
  if (mean_or_sum && tflm_build_has(op.build, name, TflmChange::kReduceTempSumOnly)) {
    need.rule = "MEAN/SUM before 2026-01-16: [4 x output elements (8/16-bit input)]";
    return need;
  }
  need.bytes.push_back(4 * rank(input));
  need.bytes.push_back(4 * axes);
  need.rule = mean_or_sum ? "MEAN/SUM: [4 x output elements (8/16-bit input)], 4 x input rank, 4 x axes"
                          : "REDUCE_MAX/MIN: 4 x input rank, 4 x axes";
  return need;
}

ScratchNeed mean_or_sum_scratch(const TflmOp& op) {
  return reduce_scratch(op, true);
}

ScratchNeed max_or_min_scratch(const TflmOp& op) {
  return reduce_scratch(op, false);
}

std::vector<int64_t> cumsum_op_data(const TflmOp& op, TflmResourceState*) {
  return int8_op_data(op, 36, 36);
}

std::vector<int64_t> add_n_op_data(const TflmOp& op, TflmResourceState*) {
  return int8_op_data(op, 40, 40);
}

// ADD_N: one pointer per input.
ScratchNeed add_n_scratch(const TflmOp& op) {
  return {true, {op.pointer_bytes() * static_cast<int64_t>(op.op.inputs.size())}, "ADD_N: a pointer per input"};
}

std::optional<TflmRefusal> add_n_refusal(const TflmOp& op) {
  return type_check(op, "ADD_N", {sc::kFloat32, sc::kInt8}, false, "ADD_N only supports FLOAT32 and INT8, got %s.");
}

// ARG_MAX and ARG_MIN check their types only in Eval (arg_min_max.cc): the model passes
// AllocateTensors and fails at its first Invoke.
std::optional<TflmRefusal> arg_min_max_refusal(const TflmOp& op, std::string_view name) {
  const int in = op.input_type(0);
  const int axis = op.input_type(1, TflmKeyPart::kOtherTypes);
  const int out = op.output_type(0);
  const std::string kernel(name);
  auto refuse = [&](const std::string& what, const std::string& message) {
    return TflmRefusal{"", "its " + kernel + " kernel " + what + " (TFLM: \"" + message + "\")", "at Invoke"};
  };
  if (axis >= 0 && axis != sc::kInt32)
    return refuse("takes an INT32 axis, not " + sc::type_name(axis),
                  "Only int32_t are supported currently, got " + sc::type_name(axis) + ".");
  if (out >= 0 && out != sc::kInt32)
    return refuse("gives INT32 output, not " + sc::type_name(out),
                  "Only int32_t are supported currently, got " + sc::type_name(out) + ".");
  if (in >= 0 && in != sc::kFloat32 && in != sc::kInt8)
    return refuse("takes FLOAT32 or INT8 input, not " + sc::type_name(in),
                  "Only float32, uint8_t and int8_t are supported currently, got " + sc::type_name(in) + ".");
  return std::nullopt;
}

std::optional<TflmRefusal> arg_max_refusal(const TflmOp& op) {
  return arg_min_max_refusal(op, "ARG_MAX");
}

std::optional<TflmRefusal> arg_min_refusal(const TflmOp& op) {
  return arg_min_max_refusal(op, "ARG_MIN");
}

constexpr std::string_view kAddNProven[] = {"FLOAT32>FLOAT32", "INT8>INT8"};
constexpr std::string_view kArgMaxProven[] = {"FLOAT32>INT32", "INT8>INT32"};
constexpr std::string_view kArgMinProven[] = {"FLOAT32>INT32", "INT8>INT32"};
constexpr std::string_view kCumsumProven[] = {"FLOAT32>FLOAT32", "INT8>INT8"};
constexpr std::string_view kMeanProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT8>INT8", "esp32: INT8>INT8"};
constexpr std::string_view kReduceMaxProven[] = {"FLOAT32>FLOAT32", "INT8>INT8"};
constexpr std::string_view kReduceMinProven[] = {"FLOAT32>FLOAT32", "INT8>INT8"};
constexpr std::string_view kSumProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT8>INT8"};

// REDUCE_MIN in the older TFLM versions: differences from the rules above (tflm_version_rules.h).
constexpr TflmVersionChange kReduceMinVersions[] = {
    {TflmVersion::k2023_06_30, TflmVersion::k2025_02_07, TflmChange::kUnregistered},
};

// MEAN in the older TFLM versions: differences from the rules above (tflm_version_rules.h).
constexpr TflmVersionChange kMeanVersions[] = {
    {TflmVersion::k2023_06_30, TflmVersion::k2025_02_07, TflmChange::kReduceTempSumOnly},
    {TflmVersion::k2023_06_30, TflmVersion::k2025_02_07, TflmChange::kInitOpData, {}, 40},
};

// SUM in the older TFLM versions: differences from the rules above (tflm_version_rules.h).
constexpr TflmVersionChange kSumVersions[] = {
    {TflmVersion::k2023_06_30, TflmVersion::k2025_02_07, TflmChange::kReduceTempSumOnly},
    {TflmVersion::k2023_06_30, TflmVersion::k2025_02_07, TflmChange::kInitOpData, {}, 40},
};

// REDUCE_MAX in the older TFLM versions: differences from the rules above (tflm_version_rules.h).
constexpr TflmVersionChange kReduceMaxVersions[] = {
    {TflmVersion::k2023_06_30, TflmVersion::k2025_02_07, TflmChange::kInitOpData, {}, 40},
};

}  // namespace

const TflmKernel kReduceKernels[] = {
    {.name = "ADD_N",
     .prepare = add_n_op_data,
     .scratch = add_n_scratch,
     .refusal = add_n_refusal,
     .proven = kAddNProven},
    {.name = "ARG_MAX", .options = kOneTypeOptions, .refusal = arg_max_refusal, .proven = kArgMaxProven},
    {.name = "ARG_MIN", .options = kOneTypeOptions, .refusal = arg_min_refusal, .proven = kArgMinProven},
    {.name = "CUMSUM", .options = kTwoBoolsOptions, .prepare = cumsum_op_data, .proven = kCumsumProven},
    {.name = "MEAN",
     .options = kReducerOptions,
     .init = same_init(44),
     .scratch = mean_or_sum_scratch,
     .proven = kMeanProven,
     .versions = kMeanVersions},
    {.name = "REDUCE_MAX",
     .options = kReducerOptions,
     .init = same_init(44),
     .scratch = max_or_min_scratch,
     .proven = kReduceMaxProven,
     .versions = kReduceMaxVersions},
    {.name = "REDUCE_MIN",
     .options = kReducerOptions,
     .init = same_init(44),
     .scratch = max_or_min_scratch,
     .proven = kReduceMinProven,
     .versions = kReduceMinVersions},
    {.name = "SUM",
     .options = kReducerOptions,
     .init = same_init(44),
     .scratch = mean_or_sum_scratch,
     .proven = kSumProven,
     .versions = kSumVersions},
};
constinit const std::span<const TflmKernel> kTflmReduceKernels = kReduceKernels;

}  // namespace usmpx
