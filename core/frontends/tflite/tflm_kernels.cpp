#include "frontends/tflite/tflm_kernels.h"

#include <algorithm>
#include "frontends/tflite/tflm_version_rules.h"

#include "frontends/tflite/kernels/tflm_kernel_registry.h"
#include "frontends/tflite/tflite_schema.h"

namespace usmpx {
namespace {

namespace sc = tflite_schema;

std::string operator_name(const TfliteModel& model, const TfliteOperator& op) {
  const TfliteOperatorCode& code = model.operator_codes[op.opcode_index];
  return code.builtin_code == sc::kCustom ? code.custom_code : sc::builtin_name(code.builtin_code);
}

// The entry of the operator's kernel; nullptr for builtins TFLM lacks and custom operators it has
// no entry for.
const TflmKernel* kernel_of(const TfliteModel& model, const TfliteOperator& op) {
  const TfliteOperatorCode& code = model.operator_codes[op.opcode_index];
  const bool custom = code.builtin_code == sc::kCustom;
  const TflmKernel* kernel = tflm_kernel(custom ? code.custom_code : sc::builtin_name(code.builtin_code));
  return kernel && kernel->custom == custom ? kernel : nullptr;
}

std::string type_word(const TfliteTensor* t) {
  return t ? sc::type_name(t->type) : "-";
}

}  // namespace

std::string tflm_variant(const TfliteModel& model, const TfliteSubgraph& subgraph, const TfliteOperator& op,
                         const TflmBuild& build) {
  const TflmKernel* kernel = kernel_of(model, op);
  const TflmOp view(model, subgraph, op, build);
  std::string v = operator_name(model, op) + " " + type_word(view.input(kernel ? kernel->data_input : 0)) + ">" +
                  type_word(view.output(0));
  if (kernel && kernel->key_words) {
    const std::string words = kernel->key_words(view);
    if (!words.empty()) v += " " + words;
  }
  return v;
}

TflmKernelRecord tflm_kernel_record(const TfliteModel& model, const TfliteSubgraph& subgraph, const TfliteOperator& op,
                                    const TflmBuild& build, TflmResourceState* resources) {
  TflmKernelRecord r;
  r.variant = tflm_variant(model, subgraph, op, build);
  const TflmKernel* kernel = kernel_of(model, op);
  if (!kernel) {
    const bool custom = model.operator_codes[op.opcode_index].builtin_code == sc::kCustom;
    r.why_unknown = operator_name(model, op) +
                    (custom ? ": a custom operator (its kernel is the firmware's)" : ": TFLM has no kernel for it");
    return r;
  }
  const TflmOp view(model, subgraph, op, build);
  r.options_bytes = view.wide_enums() ? kernel->options.bytes64 : kernel->options.bytes32;
  r.options_align = view.wide_enums() ? kernel->options.align64 : kernel->options.align32;
  const TflmInitBytes& init = kernel->init;
  const int64_t data = kernel->init_for                     ? kernel->init_for(view)
                       : view.cmsis()                       ? init.cmsis32
                       : view.esp_nn() && init.esp_nn32 > 0 ? init.esp_nn32
                                                            : (view.x64() ? init.reference64 : init.reference32);
  if (data > 0) r.init.push_back(data);
  if (kernel->prepare) r.prepare = kernel->prepare(view, resources);
  if (kernel->temp_tensors) r.temp_tensors = kernel->temp_tensors(view);
  r.assumes = kernel->assumes;
  r.known = true;
  apply_tflm_version(r, build, static_cast<int64_t>(op.inputs.size()));
  r.proven = r.known && tflm_variant_proven(r.variant, build);
  return r;
}

ScratchNeed scratch_need(const TfliteModel& model, const TfliteSubgraph& subgraph, const TfliteOperator& op,
                         const TflmBuild& build) {
  const TfliteOperatorCode& code = model.operator_codes[op.opcode_index];
  const TflmKernel* kernel = kernel_of(model, op);
  if (!kernel && code.builtin_code == sc::kCustom) return scratch_unknown("custom operator '" + code.custom_code + "'");
  if (!kernel) return scratch_unknown(sc::builtin_name(code.builtin_code) + ": no TFLM kernel to say what it requests");
  if (!kernel->scratch) return scratch_none("no scratch");
  return kernel->scratch(TflmOp(model, subgraph, op, build));
}

uint32_t tflm_rule_reads_outside_key(const TflmKernel& kernel, const TfliteModel& model, const TfliteSubgraph& subgraph,
                                     const TfliteOperator& op, const TflmBuild& build) {
  const TflmOp rules(model, subgraph, op, build);
  TflmResourceState resources;
  if (kernel.prepare) kernel.prepare(rules, &resources);
  if (kernel.scratch) kernel.scratch(rules);
  const TflmOp key(model, subgraph, op, build);
  if (kernel.key_words) kernel.key_words(key);
  const uint32_t types =
      static_cast<uint32_t>(TflmKeyPart::kInputType) | static_cast<uint32_t>(TflmKeyPart::kOutputType);
  return rules.reads() & ~(key.reads() | types);
}

namespace {

// The prefixes of proven variants: held in one kernel set only, or on the ESP32 layout.
constexpr std::string_view kProvenSets[] = {"reference", "cmsis_nn", "esp32"};
constexpr std::string_view kEsp32Set = "esp32";

// A proven variant's prefix ("cmsis_nn: "), "" when both Arm/host kernel sets hold it.
std::string_view proven_set(std::string_view& variant) {
  for (std::string_view set : kProvenSets) {
    if (variant.size() > set.size() + 1 && variant.substr(0, set.size()) == set &&
        variant.substr(set.size(), 2) == ": ") {
      variant.remove_prefix(set.size() + 2);
      return set;
    }
  }
  return "";
}

// Whether a proven entry of `set` holds for the build: on the ESP32 layout only "esp32: " entries
// (tflm_esp_nn.json holds both its kernel sets); elsewhere unprefixed ones and the kernel set's.
bool held_in(std::string_view set, TflmKernels kernels, bool esp32) {
  if (esp32) return set == kEsp32Set;
  return set.empty() || set == to_string(kernels);
}

bool proven_in(const std::string& variant, TflmKernels kernels, bool esp32) {
  const size_t space = variant.find(' ');
  if (space == std::string::npos) return false;
  const TflmKernel* kernel = tflm_kernel(variant.substr(0, space));
  if (!kernel) return false;
  const std::string_view rest = std::string_view(variant).substr(space + 1);
  for (std::string_view held : kernel->proven) {
    const std::string_view set = proven_set(held);
    if (held == rest && held_in(set, kernels, esp32)) return true;
  }
  return false;
}

std::vector<std::string> proven_variants(TflmKernels kernels, bool esp32) {
  std::vector<std::string> out;
  for (const TflmKernel* kernel : tflm_kernels()) {
    for (std::string_view held : kernel->proven) {
      const std::string_view set = proven_set(held);
      if (held_in(set, kernels, esp32)) out.push_back(std::string(kernel->name) + " " + std::string(held));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

bool tflm_variant_proven(const std::string& variant, TflmKernels kernels) {
  return proven_in(variant, kernels, false);
}

std::vector<std::string> tflm_proven_variants(TflmKernels kernels) {
  return proven_variants(kernels, false);
}

bool tflm_variant_proven(const std::string& variant, const TflmBuild& build) {
  return proven_in(variant, build.kernels, esp32_layout(build.target)) &&
         tflm_version_unverified(variant, build).empty();
}

std::vector<std::string> tflm_proven_variants(const TflmBuild& build) {
  std::vector<std::string> out;
  for (const std::string& v : proven_variants(build.kernels, esp32_layout(build.target)))
    if (tflm_version_unverified(v, build).empty()) out.push_back(v);
  return out;
}

}  // namespace usmpx
