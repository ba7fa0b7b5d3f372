// Kernels that select or pad elements (gather.cc, gather_nd.cc, slice.cc, strided_slice.cc,
// dynamic_update_slice.cc, embedding_lookup.cc, pad.cc, mirror_pad.cc at kTflmVersion).
#include "frontends/tflite/kernels/tflm_kernel_families.h"
#include "frontends/tflite/kernels/tflm_refusal_rules.h"
#include "frontends/tflite/tflite_schema.h"

namespace usmpx {
namespace {

namespace sc = tflite_schema;

constexpr TflmOptionsStruct kStridedSliceOptions{24, 4, 24, 4};  // five int masks and a bool

// EMBEDDING_LOOKUP's Prepare: the output's dims, then OpData {float scale; size_t num_columns}.
std::vector<int64_t> embedding_lookup_buffers(const TflmOp& op, TflmResourceState*) {
  if (!op.output(0)) return {};
  return {int_array_bytes(rank(op.output(0))), op.x64() ? 16 : 8};
}

// MIRROR_PAD: the input's and the output's element counts per dimension.
ScratchNeed mirror_pad_scratch(const TflmOp& op) {
  const int64_t r = rank(op.input(0));
  return {true, {4 * r, 4 * r}, "MIRROR_PAD: 4 x rank, twice"};
}

std::optional<TflmRefusal> gather_refusal(const TflmOp& op) {
  return type_check(op, "GATHER", {sc::kFloat32, sc::kInt8, sc::kInt16}, false,
                    "Type '%s' is not supported by gather.");
}

std::optional<TflmRefusal> gather_nd_refusal(const TflmOp& op) {
  return type_check(op, "GATHER_ND", {sc::kFloat32, sc::kInt8, sc::kInt16}, false,
                    "Params of type '%s' are not supported by gather_nd.");
}

constexpr std::string_view kDynamicUpdateSliceProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT32>INT32", "INT8>INT8"};
constexpr std::string_view kEmbeddingLookupProven[] = {"INT32>FLOAT32"};
constexpr std::string_view kGatherProven[] = {"FLOAT32>FLOAT32", "INT8>INT8"};
constexpr std::string_view kGatherNdProven[] = {"FLOAT32>FLOAT32", "INT8>INT8"};
constexpr std::string_view kMirrorPadProven[] = {"FLOAT32>FLOAT32", "INT8>INT8"};
constexpr std::string_view kPadProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT32>INT32", "INT8>INT8"};
constexpr std::string_view kPadv2Proven[] = {"FLOAT32>FLOAT32", "INT8>INT8"};
constexpr std::string_view kSliceProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT32>INT32", "INT8>INT8"};
constexpr std::string_view kStridedSliceProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT32>INT32", "INT8>INT8"};

// EMBEDDING_LOOKUP in the older TFLM versions: differences from the rules above (tflm_version_rules.h).
constexpr TflmVersionChange kEmbeddingLookupVersions[] = {
    {TflmVersion::k2023_06_30, TflmVersion::k2023_06_30, TflmChange::kUnregistered},
};

// DYNAMIC_UPDATE_SLICE in the older TFLM versions: differences from the rules above (tflm_version_rules.h).
constexpr TflmVersionChange kDynamicUpdateSliceVersions[] = {
    {TflmVersion::k2023_06_30, TflmVersion::k2025_02_07, TflmChange::kUnregistered},
};

}  // namespace

const TflmKernel kIndexingKernels[] = {
    {.name = "DYNAMIC_UPDATE_SLICE", .proven = kDynamicUpdateSliceProven, .versions = kDynamicUpdateSliceVersions},
    {.name = "EMBEDDING_LOOKUP",
     .prepare = embedding_lookup_buffers,
     .proven = kEmbeddingLookupProven,
     .versions = kEmbeddingLookupVersions},
    {.name = "GATHER",
     .options = kTwoIntsOptions,
     .prepare = output_dims_copy,
     .refusal = gather_refusal,
     .proven = kGatherProven},
    {.name = "GATHER_ND", .prepare = output_dims_copy, .refusal = gather_nd_refusal, .proven = kGatherNdProven},
    {.name = "MIRROR_PAD",
     .options = kActivationOptions,
     .init = same_init(20),
     .scratch = mirror_pad_scratch,
     .proven = kMirrorPadProven},  // {TfLiteMirrorPaddingMode mode}: one enum
    {.name = "PAD", .init = same_init(56), .proven = kPadProven},
    {.name = "PADV2", .init = same_init(56), .proven = kPadv2Proven},
    {.name = "SLICE", .proven = kSliceProven},
    {.name = "STRIDED_SLICE", .options = kStridedSliceOptions, .init = same_init(84), .proven = kStridedSliceProven},
};
constinit const std::span<const TflmKernel> kTflmIndexingKernels = kIndexingKernels;

}  // namespace usmpx
