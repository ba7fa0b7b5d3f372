// IF, WHILE, CALL_ONCE (if.cc, while.cc, call_once.cc at kTflmVersion): the subgraphs they call are
// planned by the lifetimes (tflite_problem.cpp), their kernels keep only their op data.
#include "frontends/tflite/kernels/tflm_kernel_families.h"

namespace usmpx {
namespace {

constexpr std::string_view kCallOnceProven[] = {"->-"};
constexpr std::string_view kIfProven[] = {"BOOL>FLOAT32"};
constexpr std::string_view kWhileProven[] = {"INT32>INT32"};

// The versions' driver created no MicroResourceVariables store, so their recordings refused CALL_ONCE (it runs
// VAR_HANDLE): no figure of it.
constexpr TflmVersionChange kCallOnceVersions[] = {not_measured_before_90b983c("CALL_ONCE *")};

}  // namespace

const TflmKernel kControlFlowKernels[] = {
    {.name = "CALL_ONCE",
     .options = kOneIntOptions,
     .init = same_init(8),
     .proven = kCallOnceProven,
     .versions = kCallOnceVersions},
    {.name = "IF", .options = kTwoIntsOptions, .init = same_init(8), .proven = kIfProven},
    {.name = "WHILE", .options = kTwoIntsOptions, .init = same_init(8), .proven = kWhileProven},
};
constinit const std::span<const TflmKernel> kTflmControlFlowKernels = kControlFlowKernels;

}  // namespace usmpx
