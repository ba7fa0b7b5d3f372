// ethos-u, the custom operator Vela compiles a model's NPU part into (kernels/ethos_u/ethosu.cc at
// kTflmVersion, registered by MicroMutableOpResolver::AddEthosU in a build with
// CO_PROCESSOR=ethos_u). The NPU driver runs only in Eval; Init and Prepare are TFLM's own.
#include "frontends/tflite/kernels/tflm_kernel_families.h"

namespace usmpx {
namespace {

// Prepare: a base-address array of n uint64 and a size array of n size_t, n = the operator's
// inputs + outputs.
ScratchNeed ethos_u_scratch(const TflmOp& op) {
  const auto n = static_cast<int64_t>(op.op.inputs.size() + op.op.outputs.size());
  return {true, {n * 8, n * op.pointer_bytes()}, "ethos-u: n x 8 and n x sizeof(size_t), n = inputs + outputs"};
}

// Prepare reads only the command stream (input 0) through a temporary tensor.
std::vector<const TfliteTensor*> ethos_u_temps(const TflmOp& op) {
  if (!op.input(0)) return {};
  return {op.input(0)};
}

// Held by the reference-kernel builds of tflm_ethos_u.json (TflmEthosU.*).
constexpr std::string_view kEthosUProven[] = {"reference: UINT8>INT8"};

// The Ethos-U kernel was measured on 90b983c only (tflm_ethos_u.json).
constexpr TflmVersionChange kEthosUVersions[] = {not_measured_before_90b983c("ethos-u *")};

}  // namespace

const TflmKernel kEthosUKernels[] = {
    {.name = "ethos-u",      // no options struct: a custom operator's options stay in the flatbuffer
     .init = same_init(12),  // the kernel's OpData, 12 bytes on every target (tflm_ethos_u.json)
     .scratch = ethos_u_scratch,
     .proven = kEthosUProven,
     .temp_tensors = ethos_u_temps,
     .custom = true,
     .assumes = "the firmware registers the Ethos-U kernel (MicroMutableOpResolver::AddEthosU, a TFLM build with "
                "CO_PROCESSOR=ethos_u)",
     .versions = kEthosUVersions},
};
constinit const std::span<const TflmKernel> kTflmEthosUKernels = kEthosUKernels;

}  // namespace usmpx
