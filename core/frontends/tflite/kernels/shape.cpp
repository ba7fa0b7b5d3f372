// Kernels that reshape, split, join, reorder or fill tensors (reshape.cc, squeeze.cc, expand_dims.cc,
// shape.cc, pack.cc, unpack.cc, split.cc, split_v.cc, concatenation.cc, transpose.cc, reverse.cc,
// broadcast_args.cc, broadcast_to.cc, fill.cc, zeros_like.cc, cast.cc at kTflmVersion).
#include "frontends/tflite/kernels/tflm_kernel_families.h"
#include "frontends/tflite/kernels/tflm_refusal_rules.h"

namespace usmpx {
namespace {

// FILL's Prepare checks the output's shape against its dims input, which must be given by the
// model: dims computed while the model runs (a GRU's WHILE loop, a dynamic batch) fail there.
std::optional<TflmRefusal> fill_refusal(const TflmOp& op) {
  if (!op.input(0) || op.constant_input(0)) return std::nullopt;
  return TflmRefusal{"",
                     "its FILL kernel needs the output's dims as a constant tensor of the model; here they are "
                     "computed while it runs (tensor '" +
                         op.input(0)->name + "')"};
}

constexpr std::string_view kBroadcastArgsProven[] = {"INT32>INT32"};
constexpr std::string_view kBroadcastToProven[] = {"FLOAT32>FLOAT32", "INT8>INT8"};
constexpr std::string_view kCastProven[] = {"FLOAT32>INT32", "INT32>FLOAT32", "INT8>FLOAT32"};
constexpr std::string_view kConcatenationProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT32>INT32", "INT8>INT8"};
constexpr std::string_view kExpandDimsProven[] = {"FLOAT32>FLOAT32", "INT8>INT8"};
constexpr std::string_view kFillProven[] = {"INT32>FLOAT32", "INT32>INT32", "INT32>INT8"};
constexpr std::string_view kPackProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT32>INT32", "INT8>INT8"};
constexpr std::string_view kReshapeProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT8>INT8", "esp32: INT8>INT8"};
constexpr std::string_view kReverseV2Proven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT32>INT32", "INT8>INT8"};
constexpr std::string_view kShapeProven[] = {"FLOAT32>INT32", "INT8>INT32"};
constexpr std::string_view kSplitProven[] = {"INT32>FLOAT32", "INT32>INT16", "INT32>INT32", "INT32>INT8"};
constexpr std::string_view kSplitVProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT8>INT8"};
constexpr std::string_view kSqueezeProven[] = {"FLOAT32>FLOAT32", "INT8>INT8"};
constexpr std::string_view kTransposeProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT8>INT8"};
constexpr std::string_view kUnpackProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT32>INT32", "INT8>INT8"};
constexpr std::string_view kZerosLikeProven[] = {"FLOAT32>FLOAT32", "INT32>INT32"};

// REVERSE_V2 in the older TFLM versions: differences from the rules above (tflm_version_rules.h).
constexpr TflmVersionChange kReverseV2Versions[] = {
    {TflmVersion::k2023_06_30, TflmVersion::k2025_02_07, TflmChange::kUnregistered},
};

// CONCATENATION in the older TFLM versions: differences from the rules above (tflm_version_rules.h).
constexpr TflmVersionChange kConcatenationVersions[] = {
    {TflmVersion::k2023_06_30, TflmVersion::k2024_05_29, TflmChange::kInt8InputArrays},
};

// PACK in the older TFLM versions: differences from the rules above (tflm_version_rules.h).
constexpr TflmVersionChange kPackVersions[] = {
    refused_at_invoke(TflmVersion::k2023_06_30, TflmVersion::k2025_02_07, "PACK INT16>*",
                      "Type 'INT16' is not supported by pack."),
};

// UNPACK in the older TFLM versions: differences from the rules above (tflm_version_rules.h).
constexpr TflmVersionChange kUnpackVersions[] = {
    refused_at_invoke(TflmVersion::k2023_06_30, TflmVersion::k2025_02_07, "UNPACK INT16>*",
                      "Type 'INT16' is not supported by unpack."),
};

// TRANSPOSE in the older TFLM versions: differences from the rules above (tflm_version_rules.h).
constexpr TflmVersionChange kTransposeVersions[] = {
    refused_at_invoke(TflmVersion::k2023_06_30, TflmVersion::k2025_02_07, "TRANSPOSE INT16>*",
                      "Type INT16 is currently not supported by Transpose. Only float32 and int8 is supported"),
};

}  // namespace

const TflmKernel kShapeKernels[] = {
    {.name = "BROADCAST_ARGS", .proven = kBroadcastArgsProven},
    {.name = "BROADCAST_TO", .proven = kBroadcastToProven},
    {.name = "CAST", .options = kTwoTypesOptions, .proven = kCastProven},
    {.name = "CONCATENATION",
     .options = kTwoIntsOptions,
     .init = {24, 40, 24},
     .proven = kConcatenationProven,
     .versions = kConcatenationVersions},
    {.name = "EXPAND_DIMS", .proven = kExpandDimsProven},
    {.name = "FILL", .refusal = fill_refusal, .proven = kFillProven},
    {.name = "PACK", .options = kTwoIntsOptions, .proven = kPackProven, .versions = kPackVersions},
    {.name = "RESHAPE", .options = kDimsOptions, .proven = kReshapeProven},
    {.name = "REVERSE_V2", .proven = kReverseV2Proven, .versions = kReverseV2Versions},
    {.name = "SHAPE", .options = kOneTypeOptions, .proven = kShapeProven},
    {.name = "SPLIT", .options = kOneIntOptions, .proven = kSplitProven},
    {.name = "SPLIT_V", .options = kOneIntOptions, .proven = kSplitVProven},
    {.name = "SQUEEZE", .options = kDimsOptions, .proven = kSqueezeProven},
    {.name = "TRANSPOSE", .proven = kTransposeProven, .versions = kTransposeVersions},
    {.name = "UNPACK", .options = kTwoIntsOptions, .proven = kUnpackProven, .versions = kUnpackVersions},
    {.name = "ZEROS_LIKE", .proven = kZerosLikeProven},
};
constinit const std::span<const TflmKernel> kTflmShapeKernels = kShapeKernels;

}  // namespace usmpx
