#include "frontends/tflite/kernels/tflm_kernel_registry.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "frontends/tflite/kernels/tflm_kernel_families.h"

namespace usmpx {
namespace {

// The families, as MicroMutableOpResolver's Add<Op>() calls gather TFLM's registrations.
const std::span<const TflmKernel>* const kFamilies[] = {
    &kTflmActivationKernels, &kTflmBinaryKernels,         &kTflmControlFlowKernels, &kTflmConvKernels,
    &kTflmEthosUKernels,     &kTflmFullyConnectedKernels, &kTflmIndexingKernels,    &kTflmPoolingKernels,
    &kTflmQuantizeKernels,   &kTflmRecurrentKernels,      &kTflmReduceKernels,      &kTflmResourceKernels,
    &kTflmShapeKernels,      &kTflmSpatialKernels,        &kTflmUnaryKernels,
};

std::vector<const TflmKernel*> sorted_table() {
  std::vector<const TflmKernel*> table;
  for (const auto* family : kFamilies)
    for (const TflmKernel& k : *family)
      table.push_back(&k);
  std::sort(table.begin(), table.end(), [](const TflmKernel* a, const TflmKernel* b) { return a->name < b->name; });
  const auto twice = std::adjacent_find(table.begin(), table.end(),
                                        [](const TflmKernel* a, const TflmKernel* b) { return a->name == b->name; });
  if (twice != table.end()) throw std::logic_error("TFLM kernel " + std::string((*twice)->name) + " registered twice");
  return table;
}

const std::vector<const TflmKernel*>& table() {
  static const std::vector<const TflmKernel*> sorted = sorted_table();
  return sorted;
}

}  // namespace

const TflmKernel* tflm_kernel(std::string_view name) {
  const auto& t = table();
  const auto it =
      std::lower_bound(t.begin(), t.end(), name, [](const TflmKernel* e, std::string_view n) { return e->name < n; });
  return it != t.end() && (*it)->name == name ? *it : nullptr;
}

std::span<const TflmKernel* const> tflm_kernels() {
  return table();
}

}  // namespace usmpx
