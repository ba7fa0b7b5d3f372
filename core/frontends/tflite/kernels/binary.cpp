// Elementwise functions of two inputs (add.cc, sub.cc, mul.cc, div.cc, maximum_minimum.cc,
// floor_div.cc, floor_mod.cc, squared_difference.cc, comparisons.cc, logical.cc, select.cc and
// cmsis_nn/ add and mul at kTflmVersion).
#include "frontends/tflite/kernels/tflm_kernel_families.h"
#include "frontends/tflite/kernels/tflm_refusal_rules.h"
#include "frontends/tflite/tflite_schema.h"

namespace usmpx {
namespace {

namespace sc = tflite_schema;

std::optional<TflmRefusal> floor_div_refusal(const TflmOp& op) {
  return type_check(op, "FLOOR_DIV", {sc::kFloat32}, true, "Type '%s' is not supported by FLOOR_DIV.");
}

std::optional<TflmRefusal> floor_mod_refusal(const TflmOp& op) {
  return type_check(op, "FLOOR_MOD", {sc::kFloat32}, true, "Type '%s' is not supported by FLOOR_MOD.");
}

constexpr std::string_view kAddProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT32>INT32", "INT8>INT8",
                                           "esp32: INT8>INT8"};
constexpr std::string_view kDivProven[] = {"FLOAT32>FLOAT32", "INT8>INT8"};
constexpr std::string_view kEqualProven[] = {"FLOAT32>BOOL", "INT32>BOOL", "INT8>BOOL"};
constexpr std::string_view kFloorDivProven[] = {"FLOAT32>FLOAT32", "INT32>INT32"};
constexpr std::string_view kFloorModProven[] = {"FLOAT32>FLOAT32", "INT32>INT32"};
constexpr std::string_view kGreaterProven[] = {"FLOAT32>BOOL", "INT32>BOOL", "INT8>BOOL"};
constexpr std::string_view kGreaterEqualProven[] = {"FLOAT32>BOOL", "INT32>BOOL", "INT8>BOOL"};
constexpr std::string_view kLessProven[] = {"FLOAT32>BOOL", "INT32>BOOL", "INT8>BOOL"};
constexpr std::string_view kLessEqualProven[] = {"FLOAT32>BOOL", "INT32>BOOL", "INT8>BOOL"};
constexpr std::string_view kLogicalAndProven[] = {"BOOL>BOOL"};
constexpr std::string_view kLogicalOrProven[] = {"BOOL>BOOL"};
constexpr std::string_view kMaximumProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT8>INT8"};
constexpr std::string_view kMinimumProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT8>INT8"};
constexpr std::string_view kMulProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT8>INT8"};
constexpr std::string_view kNotEqualProven[] = {"FLOAT32>BOOL", "INT32>BOOL", "INT8>BOOL"};
constexpr std::string_view kSelectV2Proven[] = {"BOOL>FLOAT32", "BOOL>INT8"};
constexpr std::string_view kSquaredDifferenceProven[] = {"FLOAT32>FLOAT32", "INT8>INT8"};
constexpr std::string_view kSubProven[] = {"FLOAT32>FLOAT32", "INT16>INT16", "INT8>INT8"};

// MAXIMUM in the older TFLM versions: differences from the rules above (tflm_version_rules.h).
constexpr TflmVersionChange kMaximumVersions[] = {
    refused_at_invoke(TflmVersion::k2023_06_30, TflmVersion::k2024_05_29, "MAXIMUM INT16>*",
                      "Type INT16 (7) is not supported by Maximum/Minimum."),
};

// MINIMUM in the older TFLM versions: differences from the rules above (tflm_version_rules.h).
constexpr TflmVersionChange kMinimumVersions[] = {
    refused_at_invoke(TflmVersion::k2023_06_30, TflmVersion::k2024_05_29, "MINIMUM INT16>*",
                      "Type INT16 (7) is not supported by Maximum/Minimum."),
};

// Every version fails FLOOR_DIV INT32 at Invoke; the recordings, which invoke, kept no figure of it.
constexpr TflmVersionChange kFloorDivVersions[] = {not_measured_before_90b983c("FLOOR_DIV INT32>*")};

// Every version fails FLOOR_MOD INT32 at Invoke; the recordings, which invoke, kept no figure of it.
constexpr TflmVersionChange kFloorModVersions[] = {not_measured_before_90b983c("FLOOR_MOD INT32>*")};

}  // namespace

const TflmKernel kBinaryKernels[] = {
    {.name = "ADD", .options = kActivationPotOptions, .init = same_init(60), .proven = kAddProven},
    {.name = "DIV", .options = kActivationOptions, .init = same_init(28), .proven = kDivProven},
    {.name = "EQUAL", .init = same_init(32), .proven = kEqualProven},  // comparisons' OpData
    {.name = "FLOOR_DIV", .refusal = floor_div_refusal, .proven = kFloorDivProven, .versions = kFloorDivVersions},
    {.name = "FLOOR_MOD", .refusal = floor_mod_refusal, .proven = kFloorModProven, .versions = kFloorModVersions},
    {.name = "GREATER", .init = same_init(32), .proven = kGreaterProven},
    {.name = "GREATER_EQUAL", .init = same_init(32), .proven = kGreaterEqualProven},
    {.name = "LESS", .init = same_init(32), .proven = kLessProven},
    {.name = "LESS_EQUAL", .init = same_init(32), .proven = kLessEqualProven},
    {.name = "LOGICAL_AND", .proven = kLogicalAndProven},
    {.name = "LOGICAL_OR", .proven = kLogicalOrProven},
    {.name = "MAXIMUM", .proven = kMaximumProven, .versions = kMaximumVersions},
    {.name = "MINIMUM", .proven = kMinimumProven, .versions = kMinimumVersions},
    {.name = "MUL", .options = kActivationOptions, .init = same_init(36), .proven = kMulProven},
    {.name = "NOT_EQUAL", .init = same_init(32), .proven = kNotEqualProven},
    {.name = "SELECT_V2", .init = same_init(1), .proven = kSelectV2Proven},
    {.name = "SQUARED_DIFFERENCE", .init = same_init(112), .proven = kSquaredDifferenceProven},
    {.name = "SUB", .options = kActivationPotOptions, .init = same_init(52), .proven = kSubProven},
};
constinit const std::span<const TflmKernel> kTflmBinaryKernels = kBinaryKernels;

}  // namespace usmpx
