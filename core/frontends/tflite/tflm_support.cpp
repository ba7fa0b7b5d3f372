#include "frontends/tflite/tflm_support.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <string>
#include "frontends/tflite/tflm_kernels.h"
#include "frontends/tflite/tflm_version_rules.h"

#include "frontends/tflite/kernels/tflm_kernel_registry.h"
#include "frontends/tflite/tflite_schema.h"

namespace usmpx {
namespace {

namespace sc = tflite_schema;

// The custom codes TFLM registers itself (MicroMutableOpResolver::AddCustom calls), sorted.
constexpr std::string_view kCustomKernels[] = {
    "CIRCULAR_BUFFER",
    "SignalDelay",
    "SignalEnergy",
    "SignalFftAutoScale",
    "SignalFilterBank",
    "SignalFilterBankLog",
    "SignalFilterBankSpectralSubtraction",
    "SignalFilterBankSquareRoot",
    "SignalFramer",
    "SignalIrfft",
    "SignalOverlapAdd",
    "SignalPCAN",
    "SignalRfft",
    "SignalStacker",
    "SignalWindow",
    "TFLM_DECODE",
    "TFLite_Detection_PostProcess",
};

static_assert(std::is_sorted(std::begin(kCustomKernels), std::end(kCustomKernels)));

std::string kernels_name(TflmKernels kernels) {
  if (kernels == TflmKernels::kEspNn) return "ESP-NN kernels";
  return kernels == TflmKernels::kCmsisNn ? "CMSIS-NN kernels" : "reference kernels";
}

std::optional<TflmRefusal> custom_refusal(const std::string& code) {
  if (tflm_has_custom_kernel(code)) return std::nullopt;
  if (code.rfind("Flex", 0) == 0) {
    return TflmRefusal{"", code +
                               " is a TensorFlow operator the converter kept (Select TF ops), and TFLM has no Flex "
                               "kernels"};
  }
  if (code.rfind("TensorList", 0) == 0) {
    return TflmRefusal{"", code + " is a TensorList operator (dynamic lists), and TFLM has no TensorList kernels"};
  }
  return TflmRefusal{"the firmware registers a kernel for it (MicroMutableOpResolver::AddCustom)",
                     "TFLM has no kernel for the custom operator " + code};
}

// What an older TFLM lacks or refuses that 90b983c runs, with that version's message.
std::optional<TflmRefusal> known_version_refusal(const TfliteModel& model, const TfliteSubgraph& g,
                                                 const TfliteOperator& op, const std::string& name,
                                                 const TflmBuild& build) {
  if (!tflm_version_registers(build.version, name)) {
    return TflmRefusal{"",
                       "it has no " + name + " kernel (TFLM: \"Didn't find op for builtin opcode '" + name + "'\")"};
  }
  const std::string variant = tflm_variant(model, g, op, build);
  const auto refused = tflm_version_refusal(variant, build.version);
  if (!refused) return std::nullopt;
  return TflmRefusal{"",
                     "its " + name + " kernel does not take " + variant.substr(name.size() + 1) + " (TFLM: \"" +
                         refused->message + "\")",
                     refused->at_invoke ? "at Invoke" : "at AllocateTensors"};
}

// For a date between two known versions: refused when both refuse; where only one does, the
// firmware may refuse it, which the warning says (not a certain refusal: the figure stays).
std::optional<TflmRefusal> version_refusal(const TfliteModel& model, const TfliteSubgraph& g, const TfliteOperator& op,
                                           const std::string& name, const TflmBuild& build) {
  if (!build.newer) return known_version_refusal(model, g, op, name, build);
  TflmBuild older = build, newer = build;
  older.newer.reset();
  newer.version = *build.newer;
  newer.newer.reset();
  const auto by_older = known_version_refusal(model, g, op, name, older);
  const auto by_newer = known_version_refusal(model, g, op, name, newer);
  if (by_older && by_newer) return by_newer;
  if (!by_older && !by_newer) return std::nullopt;
  const TflmBuild& refuses = by_older ? older : newer;
  const TflmRefusal& r = by_older ? *by_older : *by_newer;
  return TflmRefusal{"", r.why + ", which TFLM " + std::string(to_string((by_older ? newer : older).version)) + " runs",
                     "perhaps (TFLM " + std::string(to_string(refuses.version)) + " refuses it " + r.when + ")"};
}

std::optional<TflmRefusal> operator_refusal(const TfliteModel& model, const TfliteSubgraph& g, const TfliteOperator& op,
                                            const TflmBuild& build) {
  if (op.opcode_index >= model.operator_codes.size()) return std::nullopt;  // the reader refuses these
  const TfliteOperatorCode& code = model.operator_codes[op.opcode_index];
  if (code.builtin_code == sc::kCustom) {
    // A custom kernel with an entry (ethos-u) runs when the firmware registers it; the figure says so.
    const TflmKernel* custom = tflm_kernel(code.custom_code);
    if (custom && custom->custom) return std::nullopt;
    return custom_refusal(code.custom_code);
  }
  const TflmKernel* kernel = tflm_kernel(sc::builtin_name(code.builtin_code));
  if (!kernel) return TflmRefusal{"", "it has no " + sc::builtin_name(code.builtin_code) + " kernel"};
  if (auto refused = version_refusal(model, g, op, sc::builtin_name(code.builtin_code), build)) return refused;
  if (!kernel->refusal) return std::nullopt;
  return kernel->refusal(TflmOp(model, g, op, build));
}

}  // namespace

bool tflm_has_builtin_kernel(int32_t builtin, TflmKernels /*kernels: both sets register the same builtins*/) {
  if (builtin == sc::kCustom) return false;
  const std::string name = sc::builtin_name(builtin);
  return !name.empty() && tflm_kernel(name) != nullptr;
}

bool tflm_has_custom_kernel(std::string_view custom_code) {
  return std::binary_search(std::begin(kCustomKernels), std::end(kCustomKernels), custom_code);
}

std::vector<std::string> tflm_certain_refusals(const std::vector<Diagnostic>& refusals) {
  // The format tflm_refusals writes: "... (LABEL) at AllocateTensors: why".
  std::vector<std::string> out;
  for (const Diagnostic& d : refusals) {
    const size_t at = d.message.find(") at AllocateTensors: ");
    if (d.code != "tflm-refuses" || at == std::string::npos) continue;
    const size_t open = d.message.rfind(" (", at);
    if (open != std::string::npos) out.push_back(d.message.substr(open + 2, at - open - 2));
  }
  return out;
}

std::vector<Diagnostic> tflm_refusals(const TfliteModel& model, const TflmBuild& build) {
  std::vector<Diagnostic> out;
  const std::string who = "TFLM (" + tflm_version_name(build) + ", " + kernels_name(build.kernels) + ")";
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    const TfliteSubgraph& g = model.subgraphs[s];
    for (size_t o = 0; o < g.operators.size(); ++o) {
      const TfliteOperator& op = g.operators[o];
      const auto refusal = operator_refusal(model, g, op, build);
      if (!refusal) continue;
      const TfliteOperatorCode& code = model.operator_codes[op.opcode_index];
      const std::string label =
          code.builtin_code == sc::kCustom ? "custom " + code.custom_code : sc::builtin_name(code.builtin_code);
      out.push_back(input_warning("tflm-refuses", who + " refuses operator " + std::to_string(o) + " of subgraph " +
                                                      std::to_string(s) + " (" + label + ") " + refusal->when +
                                                      (refusal->unless.empty() ? "" : " unless " + refusal->unless) +
                                                      ": " + refusal->why));
    }
  }
  return out;
}

}  // namespace usmpx
