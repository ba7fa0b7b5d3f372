// Kernels that move elements between space, depth and batch, or resize (batch_to_space_nd.cc,
// space_to_batch_nd.cc, space_to_depth.cc, depth_to_space.cc, resize_bilinear.cc,
// resize_nearest_neighbor.cc at kTflmVersion).
#include "frontends/tflite/kernels/tflm_kernel_families.h"

namespace usmpx {
namespace {

constexpr std::string_view kBatchToSpaceNdProven[] = {"FLOAT32>FLOAT32", "INT8>INT8"};
constexpr std::string_view kDepthToSpaceProven[] = {"FLOAT32>FLOAT32", "INT8>INT8"};
constexpr std::string_view kResizeBilinearProven[] = {"FLOAT32>FLOAT32", "INT8>INT8"};
constexpr std::string_view kResizeNearestNeighborProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT8>INT8"};
constexpr std::string_view kSpaceToBatchNdProven[] = {"FLOAT32>FLOAT32", "INT8>INT8"};
constexpr std::string_view kSpaceToDepthProven[] = {"FLOAT32>FLOAT32", "INT8>INT8"};

}  // namespace

const TflmKernel kSpatialKernels[] = {
    {.name = "BATCH_TO_SPACE_ND", .proven = kBatchToSpaceNdProven},
    {.name = "DEPTH_TO_SPACE", .options = kOneIntOptions, .prepare = output_dims_copy, .proven = kDepthToSpaceProven},
    {.name = "RESIZE_BILINEAR", .options = kTwoBoolsOptions, .proven = kResizeBilinearProven},
    {.name = "RESIZE_NEAREST_NEIGHBOR", .options = kTwoBoolsOptions, .proven = kResizeNearestNeighborProven},
    {.name = "SPACE_TO_BATCH_ND", .init = same_init(4), .proven = kSpaceToBatchNdProven},
    {.name = "SPACE_TO_DEPTH", .options = kOneIntOptions, .prepare = output_dims_copy, .proven = kSpaceToDepthProven},
};
constinit const std::span<const TflmKernel> kTflmSpatialKernels = kSpatialKernels;

}  // namespace usmpx
