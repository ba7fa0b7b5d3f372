// IF, WHILE, CALL_ONCE (if.cc, while.cc, call_once.cc at kTflmVersion): the subgraphs they call are
// planned by the lifetimes (tflite_problem.cpp), their kernels keep only their op data.
#include "frontends/tflite/kernels/tflm_kernel_families.h"

namespace usmpx {
namespace {

constexpr std::string_view kCallOnceProven[] = {"->-"};
constexpr std::string_view kIfProven[] = {"BOOL>FLOAT32"};
constexpr std::string_view kWhileProven[] = {"INT32>INT32"};

const TflmKernel kControlFlowKernels[] = {
    {.name = "CALL_ONCE", .options = kOneIntOptions, .init = same_init(8), .proven = kCallOnceProven},
    {.name = "IF", .options = kTwoIntsOptions, .init = same_init(8), .proven = kIfProven},
    {.name = "WHILE", .options = kTwoIntsOptions, .init = same_init(8), .proven = kWhileProven},
};

}  // namespace

std::span<const TflmKernel> tflm_control_flow_kernels() {
  return kControlFlowKernels;
}

}  // namespace usmpx
