#include "frontends/tflite/tflm_version_rules.h"

#include <algorithm>
#include <array>
#include <numeric>

#include "frontends/tflite/kernels/tflm_kernel_registry.h"
#include "frontends/tflite/tflm_kernels.h"

namespace usmpx {
namespace {

using C = TflmChange;
using V = TflmVersion;

// The differences live in the kernel entries (TflmKernel::versions, kernels/*.cpp): the operators
// the versions lack, MEAN/SUM's single scratch buffer, op data and options struct sizes,
// FULLY_CONNECTED's per-channel arrays, CONCATENATION's int8 arrays, the int16 paths refused.

bool holds(const TflmVersionChange& c, V version) {
  return version >= c.first && version <= c.last;
}

const TflmVersionChange* find(V version, std::string_view kernel, C change) {
  const TflmKernel* entry = tflm_kernel(kernel);
  if (!entry) return nullptr;
  for (const TflmVersionChange& c : entry->versions)
    if (c.change == change && holds(c, version)) return &c;
  return nullptr;
}

std::string_view kernel_of(const std::string& variant) {
  return std::string_view(variant).substr(0, variant.find(' '));
}

// `text` matches `pattern`, where '*' stands for any run of characters.
bool glob(std::string_view pattern, std::string_view text) {
  const size_t star = pattern.find('*');
  if (star == std::string_view::npos) return pattern == text;
  if (text.substr(0, star) != pattern.substr(0, star)) return false;
  const std::string_view rest = pattern.substr(star + 1);
  for (size_t k = star; k <= text.size(); ++k)
    if (glob(rest, text.substr(k))) return true;
  return false;
}

// The kernel entry's change of that kind whose variant pattern matches `variant`, for the version.
const TflmVersionChange* matching_change(const std::string& variant, V version, C change) {
  const TflmKernel* entry = tflm_kernel(kernel_of(variant));
  if (!entry) return nullptr;
  for (const TflmVersionChange& c : entry->versions) {
    if (c.change == change && holds(c, version) && !c.variant.empty() && glob(c.variant, variant)) return &c;
  }
  return nullptr;
}

// Whether the version's ground truth was measured for the build's target (x86-64 only).
bool measured_target(const TflmBuild& build) {
  return build.target == TflmTarget::kX86_64;
}

// Whether the version's rule for the kernel has a struct size of its own (options, op data):
// those depend on the target's layout, which only x86-64's figures show.
bool layout_differs(V version, std::string_view kernel) {
  return find(version, kernel, C::kOptions) || find(version, kernel, C::kInitOpData);
}

}  // namespace

bool tflm_version_has(TflmVersion version, std::string_view kernel, TflmChange change) {
  return find(version, kernel, change) != nullptr;
}

bool tflm_version_registers(TflmVersion version, std::string_view kernel) {
  return !find(version, kernel, C::kUnregistered);
}

std::optional<TflmVersionRefusal> tflm_version_refusal(const std::string& variant, TflmVersion version) {
  for (const C change : {C::kRefusedAtAllocate, C::kRefusedAtInvoke}) {
    if (const TflmVersionChange* c = matching_change(variant, version, change))
      return TflmVersionRefusal{std::string(c->message), change == C::kRefusedAtInvoke};
  }
  return std::nullopt;
}

namespace {

void apply_known_version(TflmKernelRecord& r, const TflmBuild& build, int64_t input_count) {
  const V version = build.version;
  if (version == V::k90b983c || !r.known) return;
  const std::string kernel(kernel_of(r.variant));
  const std::string who = "TFLM " + std::string(to_string(version));
  if (!tflm_version_registers(version, kernel)) {
    r = TflmKernelRecord{false, false, r.variant, kernel + ": " + who + " has no kernel for it"};
    return;
  }
  if (const auto refused = tflm_version_refusal(r.variant, version); refused && !refused->at_invoke) {
    r = TflmKernelRecord{false, false, r.variant, kernel + ": " + who + " refuses it at AllocateTensors"};
    return;
  }
  // Options structs follow the enums' width: four bytes on x86-64 and the ESP32 layout.
  const bool wide = build.target == TflmTarget::kX86_64 || esp32_layout(build.target);
  // On a target the version was not measured on, a struct of another size takes the larger one.
  auto size = [&](int64_t version_bytes, int64_t current) {
    return measured_target(build) ? version_bytes : std::max(version_bytes, current);
  };
  if (const TflmVersionChange* c = find(version, kernel, C::kOptions)) {
    r.options_bytes = size(wide ? c->options.bytes64 : c->options.bytes32, r.options_bytes);
    r.options_align = wide ? c->options.align64 : c->options.align32;
  }
  if (const TflmVersionChange* c = find(version, kernel, C::kInitOpData);
      c && build.kernels == TflmKernels::kReference) {
    if (!r.init.empty()) r.init.front() = size(c->bytes, r.init.front());
  }
  if (find(version, kernel, C::kNoPerChannelArrays)) r.prepare.clear();
  if (find(version, kernel, C::kInt8InputArrays) && r.variant.find(" INT8>") != std::string::npos)
    r.prepare.insert(r.prepare.end(), {4 * input_count, 4 * input_count});
}

int64_t sum(const std::vector<int64_t>& bytes) {
  return std::accumulate(bytes.begin(), bytes.end(), int64_t{0});
}

// The safe side of two versions' records: a kernel one of them runs (its allocations counted), each
// struct the larger, the Prepare allocations that take more.
TflmKernelRecord larger(TflmKernelRecord a, const TflmKernelRecord& b) {
  if (!a.known) return b;
  if (!b.known) return a;
  a.options_bytes = std::max(a.options_bytes, b.options_bytes);
  a.options_align = std::max(a.options_align, b.options_align);
  if (a.init.size() == b.init.size()) {
    for (size_t k = 0; k < a.init.size(); ++k)
      a.init[k] = std::max(a.init[k], b.init[k]);
  } else if (sum(b.init) > sum(a.init)) {
    a.init = b.init;
  }
  if (sum(b.prepare) > sum(a.prepare)) a.prepare = b.prepare;
  return a;
}

TflmBuild at_version(TflmBuild build, V version) {
  build.version = version;
  build.newer.reset();
  build.date.clear();
  return build;
}

// Whether the two versions' rules for the kernel's variant are the same differences from 90b983c.
bool versions_agree(std::string_view kernel, const std::string& variant, V older, V newer) {
  if (tflm_version_registers(older, kernel) != tflm_version_registers(newer, kernel)) return false;
  if (tflm_version_refusal(variant, older).has_value() != tflm_version_refusal(variant, newer).has_value())
    return false;
  for (C change : {C::kOptions, C::kInitOpData, C::kNoPerChannelArrays, C::kInt8InputArrays, C::kReduceTempSumOnly})
    if (find(older, kernel, change) != find(newer, kernel, change)) return false;
  return true;
}

}  // namespace

void apply_tflm_version(TflmKernelRecord& r, const TflmBuild& build, int64_t input_count) {
  if (!build.newer) {
    apply_known_version(r, build, input_count);
    return;
  }
  TflmKernelRecord older = r;
  apply_known_version(older, at_version(build, build.version), input_count);
  apply_known_version(r, at_version(build, *build.newer), input_count);
  r = larger(std::move(older), r);
}

bool tflm_build_has(const TflmBuild& build, std::string_view kernel, TflmChange change) {
  return tflm_version_has(build.version, kernel, change) &&
         (!build.newer || tflm_version_has(*build.newer, kernel, change));
}

std::string tflm_version_unverified(const std::string& variant, const TflmBuild& build) {
  const V version = build.version;
  if (build.newer) {
    if (!versions_agree(kernel_of(variant), variant, version, *build.newer)) {
      return "may differ between TFLM " + std::string(to_string(version)) + " and " +
             std::string(to_string(*build.newer)) + " (the larger rule taken)";
    }
    return tflm_version_unverified(variant, at_version(build, version));
  }
  if (version == V::k90b983c) return "";
  const std::string_view kernel = kernel_of(variant);
  const std::string v(to_string(version));
  if (!tflm_version_registers(version, kernel)) return "TFLM " + v + " has no " + std::string(kernel) + " kernel";
  if (tflm_version_refusal(variant, version)) return "TFLM " + v + " refuses it";
  if (matching_change(variant, version, C::kNotMeasured)) return "not measured on TFLM " + v;
  if (esp32_layout(build.target)) return "the ESP32 build measured on TFLM 90b983c only";
  // The kernels CMSIS-NN replaces (TflmKernel::cmsis_nn): their rules are measured for 90b983c's
  // CMSIS-NN only.
  const TflmKernel* entry = tflm_kernel(kernel);
  if (build.kernels == TflmKernels::kCmsisNn && entry && entry->cmsis_nn)
    return "CMSIS-NN measured on TFLM 90b983c only";
  if (!measured_target(build) && layout_differs(version, kernel))
    return "its structs on TFLM " + v + " measured on x86-64 only";
  return "";
}

}  // namespace usmpx
