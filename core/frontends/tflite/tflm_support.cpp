#include "frontends/tflite/tflm_support.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <string>

#include "frontends/tflite/tflite_schema.h"
#include "frontends/tflite/tflm_kernel_table.h"
#include "frontends/tflite/tflm_kernels.h"
#include "frontends/tflite/tflm_version_rules.h"

namespace usmpx {
namespace {

namespace sc = tflite_schema;

// TensorType values the rules name, beside those in tflite_schema.h.
constexpr int kFloat16 = 1, kUInt8 = 3;

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

constexpr std::string_view kEthosU = "ethos-u";

std::string kernels_name(TflmKernels kernels) {
  return kernels == TflmKernels::kCmsisNn ? "CMSIS-NN kernels" : "reference kernels";
}

// Why one operator is refused: `unless` is what the firmware can do about it (empty when
// nothing), `why` the reason.
struct Refusal {
  std::string unless;
  std::string why;
  std::string when = "at AllocateTensors";  // or "at Invoke" for a type check in Eval
};

// The type of the operator's `k`-th input (or output), -1 when absent.
int tensor_type(const TfliteSubgraph& g, const std::vector<int32_t>& indices, size_t k) {
  if (k >= indices.size() || indices[k] < 0 || static_cast<size_t>(indices[k]) >= g.tensors.size()) return -1;
  return g.tensors[static_cast<size_t>(indices[k])].type;
}

bool is_integer_weight(int type) {
  return type == sc::kInt8 || type == kUInt8 || type == sc::kInt4 || type == sc::kInt16;
}

std::string hybrid(const std::string& name, int input, int weights) {
  const bool quoted = name == "CONV_2D" || name == "DEPTHWISE_CONV_2D";
  return "hybrid model (" + sc::type_name(input) + " input, " + sc::type_name(weights) +
         " weights), and TFLM has no hybrid kernels" +
         (quoted ? " (\"Hybrid models are not supported on TFLite Micro.\")" : "");
}

// An input type a kernel's Prepare rejects; `takes` says what it takes. UINT8 is named as what it
// almost always is: a model quantized the legacy way.
Refusal unsupported_input(const std::string& name, int input, const std::string& takes) {
  if (input == kUInt8) return {"", "legacy uint8 quantization (UINT8 input); its " + name + " kernel takes " + takes};
  return {"", "its " + name + " kernel takes " + takes + ", not " + sc::type_name(input)};
}

// The convolutions and the fully connected layer (conv_common.cc, depthwise_conv_common.cc,
// fully_connected.cc Prepare): the input/weights type pairs they take.
std::optional<Refusal> weighted_layer(const std::string& name, const TfliteSubgraph& g, const TfliteOperator& op) {
  const int in = tensor_type(g, op.inputs, 0);
  const int weights = tensor_type(g, op.inputs, 1);
  const int out = tensor_type(g, op.outputs, 0);
  if (in < 0 || weights < 0) return std::nullopt;
  // DEPTHWISE_CONV_2D's Prepare lets UINT8 pass (its Eval fails later), the others refuse it.
  if (in == kUInt8 && name != "DEPTHWISE_CONV_2D") return unsupported_input(name, in, "FLOAT32, INT8 or INT16 input");
  const bool int8_pair = in == sc::kInt8 && (weights == sc::kInt8 || weights == sc::kInt4);
  bool taken = false;
  if (name == "DEPTHWISE_CONV_2D") {
    taken = in == weights || int8_pair;
  } else {
    taken = (in == sc::kFloat32 && weights == sc::kFloat32) || (in == sc::kInt16 && weights == sc::kInt8) || int8_pair;
  }
  if (!taken && in == sc::kFloat32 && is_integer_weight(weights)) return Refusal{"", hybrid(name, in, weights)};
  if (!taken) {
    return Refusal{"", "its " + name + " kernel does not take " + sc::type_name(in) + " input with " +
                           sc::type_name(weights) + " weights"};
  }
  if (name != "DEPTHWISE_CONV_2D" && out >= 0 && out != in) {
    return Refusal{"", "its " + name + " kernel needs the output type equal to the input type (" + sc::type_name(in) +
                           " input, " + sc::type_name(out) + " output)"};
  }
  return std::nullopt;
}

// Float activations with integer weights in a recurrent layer (svdf.cc, unidirectional sequence
// LSTM): TFLM has no hybrid path. `weights` is the input index of a weight tensor always present.
std::optional<Refusal> recurrent_hybrid(const std::string& name, const TfliteSubgraph& g, const TfliteOperator& op,
                                        size_t weights) {
  const int in = tensor_type(g, op.inputs, 0);
  const int w = tensor_type(g, op.inputs, weights);
  if (in == sc::kFloat32 && is_integer_weight(w)) return Refusal{"", hybrid(name, in, w)};
  return std::nullopt;
}

// SVDF (svdf_common.cc PrepareSvdf): FLOAT32 or INT8 input; float input wants float weights.
std::optional<Refusal> svdf(const TfliteSubgraph& g, const TfliteOperator& op) {
  const int in = tensor_type(g, op.inputs, 0);
  if (in >= 0 && in != sc::kFloat32 && in != sc::kInt8) return unsupported_input("SVDF", in, "FLOAT32 or INT8 input");
  return recurrent_hybrid("SVDF", g, op, 1);  // weights_feature
}

std::string one_of(const std::vector<int>& types) {
  std::string out;
  for (size_t k = 0; k < types.size(); ++k)
    out += (k == 0 ? "" : k + 1 == types.size() ? " or " : ", ") + sc::type_name(types[k]);
  return out;
}

bool in_set(int type, const std::vector<int>& types) {
  return std::find(types.begin(), types.end(), type) != types.end();
}

// QUANTIZE and DEQUANTIZE (quantize_common.cc, dequantize_common.cc Prepare).
std::optional<Refusal> conversion(const std::string& name, const TfliteSubgraph& g, const TfliteOperator& op) {
  const int in = tensor_type(g, op.inputs, 0);
  const int out = tensor_type(g, op.outputs, 0);
  const bool quantize = name == "QUANTIZE";
  const std::vector<int> inputs = quantize ? std::vector<int>{sc::kFloat32, sc::kInt32, sc::kInt16, sc::kInt8, kUInt8}
                                           : std::vector<int>{sc::kInt8, sc::kInt16};
  const std::vector<int> outputs =
      quantize ? std::vector<int>{sc::kInt8, sc::kInt16, sc::kInt32, kUInt8} : std::vector<int>{sc::kFloat32};
  if (in >= 0 && !in_set(in, inputs)) {
    return Refusal{"", "its " + name + " kernel takes " + one_of(inputs) + " input, not " + sc::type_name(in)};
  }
  if (out >= 0 && !in_set(out, outputs)) {
    return Refusal{"", "its " + name + " kernel gives " + one_of(outputs) + " output, not " + sc::type_name(out)};
  }
  return std::nullopt;
}

// Pooling (pooling_common.cc PoolingPrepare, which CMSIS-NN's pooling calls too).
std::optional<Refusal> pooling(const std::string& name, const TfliteSubgraph& g, const TfliteOperator& op) {
  const int in = tensor_type(g, op.inputs, 0);
  if (in < 0 || in_set(in, {sc::kFloat32, sc::kInt8, sc::kInt16})) return std::nullopt;
  return unsupported_input(name, in, "FLOAT32, INT8 or INT16 input");
}

// SOFTMAX (softmax_common.cc, cmsis_nn/softmax.cc Prepare): the input -> output pairs it takes.
std::optional<Refusal> softmax(const TfliteSubgraph& g, const TfliteOperator& op) {
  const int in = tensor_type(g, op.inputs, 0);
  const int out = tensor_type(g, op.outputs, 0);
  if (in < 0 || out < 0) return std::nullopt;
  const bool taken = (in == sc::kFloat32 && out == sc::kFloat32) || (in == sc::kInt8 && out == sc::kInt8) ||
                     (in == sc::kInt8 && out == sc::kInt16) || (in == sc::kInt16 && out == sc::kInt16);
  if (taken) return std::nullopt;
  const std::string takes = "FLOAT32 to FLOAT32, INT8 to INT8, INT8 to INT16 or INT16 to INT16";
  if (in == kUInt8) return unsupported_input("SOFTMAX", in, takes);
  return Refusal{"", "its SOFTMAX kernel takes " + takes + ", not " + sc::type_name(in) + " to " + sc::type_name(out)};
}

// Type checks of kernels whose Prepare or Eval rejects an input type, with TFLM's own message:
// ADD_N (add_n.cc), EXP (exp.cc), GATHER / GATHER_ND (their params), NEG, FLOOR_DIV, FLOOR_MOD.
struct TypeCheck {
  std::string_view name;
  std::vector<int> takes;    // the input types the kernel takes
  bool in_eval;              // the check is in Eval: AllocateTensors passes, Invoke fails
  std::string_view message;  // TFLM's message, "%s" standing for the type's name
};

const std::vector<TypeCheck>& type_checks() {
  static const std::vector<TypeCheck> checks = {
      {"ADD_N", {sc::kFloat32, sc::kInt8}, false, "ADD_N only supports FLOAT32 and INT8, got %s."},
      {"EXP",
       {sc::kFloat32},
       false,
       "tensorflow/lite/micro/kernels/exp.cc:41 input->type != kTfLiteFloat32 (%s != FLOAT32)"},
      {"GATHER", {sc::kFloat32, sc::kInt8, sc::kInt16}, false, "Type '%s' is not supported by gather."},
      {"GATHER_ND",
       {sc::kFloat32, sc::kInt8, sc::kInt16},
       false,
       "Params of type '%s' are not supported by gather_nd."},
      {"NEG", {sc::kFloat32}, true, "Type %s (%d) not supported."},
      {"FLOOR_DIV", {sc::kFloat32}, true, "Type '%s' is not supported by FLOOR_DIV."},
      {"FLOOR_MOD", {sc::kFloat32}, true, "Type '%s' is not supported by FLOOR_MOD."},
  };
  return checks;
}

std::optional<Refusal> type_check(const std::string& name, const TfliteSubgraph& g, const TfliteOperator& op) {
  for (const TypeCheck& c : type_checks()) {
    if (c.name != name) continue;
    const int in = tensor_type(g, op.inputs, 0);
    if (in < 0 || std::find(c.takes.begin(), c.takes.end(), in) != c.takes.end()) return std::nullopt;
    std::string message(c.message);
    const size_t at = message.find("%s");
    if (at != std::string::npos) message.replace(at, 2, sc::type_name(in));
    const size_t number = message.find("%d");
    if (number != std::string::npos) message.replace(number, 2, std::to_string(in));
    return Refusal{"",
                   "its " + name + " kernel takes " + one_of(c.takes) + " input, not " + sc::type_name(in) +
                       " (TFLM: \"" + message + "\")",
                   c.in_eval ? "at Invoke" : "at AllocateTensors"};
  }
  return std::nullopt;
}

std::optional<Refusal> custom_refusal(const std::string& code) {
  if (code == kEthosU) {
    return Refusal{
        "it is built with the Ethos-U driver kernel (CO_PROCESSOR=ethos_u, MicroMutableOpResolver::AddEthosU)",
        "this operator runs a command stream Vela compiled for an Arm Ethos-U NPU; Vela's plan and the NPU "
        "scratch are the model's own (inside its scratch tensors), which this tool cannot see into"};
  }
  if (tflm_has_custom_kernel(code)) return std::nullopt;
  if (code.rfind("Flex", 0) == 0) {
    return Refusal{"", code +
                           " is a TensorFlow operator the converter kept (Select TF ops), and TFLM has no Flex "
                           "kernels"};
  }
  if (code.rfind("TensorList", 0) == 0) {
    return Refusal{"", code + " is a TensorList operator (dynamic lists), and TFLM has no TensorList kernels"};
  }
  return Refusal{"the firmware registers a kernel for it (MicroMutableOpResolver::AddCustom)",
                 "TFLM has no kernel for the custom operator " + code};
}

// What an older TFLM lacks or refuses that 90b983c runs, with that version's message.
std::optional<Refusal> version_refusal(const TfliteModel& model, const TfliteSubgraph& g, const TfliteOperator& op,
                                       const std::string& name, TflmVersion version) {
  if (!tflm_version_registers(version, name)) {
    return Refusal{"", "it has no " + name + " kernel (TFLM: \"Didn't find op for builtin opcode '" + name + "'\")"};
  }
  const std::string variant = tflm_variant(model, g, op);
  const auto refused = tflm_version_refusal(variant, version);
  if (!refused) return std::nullopt;
  return Refusal{"",
                 "its " + name + " kernel does not take " + variant.substr(name.size() + 1) + " (TFLM: \"" +
                     refused->message + "\")",
                 refused->at_invoke ? "at Invoke" : "at AllocateTensors"};
}

std::optional<Refusal> operator_refusal(const TfliteModel& model, const TfliteSubgraph& g, const TfliteOperator& op,
                                        const TflmBuild& build) {
  if (op.opcode_index >= model.operator_codes.size()) return std::nullopt;  // the reader refuses these
  const TfliteOperatorCode& code = model.operator_codes[op.opcode_index];
  if (code.builtin_code == sc::kCustom) return custom_refusal(code.custom_code);
  const std::string name = sc::builtin_name(code.builtin_code);
  if (!tflm_has_builtin_kernel(code.builtin_code, build.kernels)) return Refusal{"", "it has no " + name + " kernel"};
  if (auto refused = version_refusal(model, g, op, name, build.version)) return refused;
  if (name == "CONV_2D" || name == "DEPTHWISE_CONV_2D" || name == "FULLY_CONNECTED") return weighted_layer(name, g, op);
  if (name == "SVDF") return svdf(g, op);
  if (name == "UNIDIRECTIONAL_SEQUENCE_LSTM") return recurrent_hybrid(name, g, op, 2);  // input_to_forget
  if (name == "QUANTIZE" || name == "DEQUANTIZE") return conversion(name, g, op);
  if (name == "AVERAGE_POOL_2D" || name == "MAX_POOL_2D") return pooling(name, g, op);
  if (name == "SOFTMAX") return softmax(g, op);
  if (auto refused = type_check(name, g, op)) return refused;
  if (name == "VAR_HANDLE") {
    return Refusal{"the application creates a MicroResourceVariables store and passes it to the MicroInterpreter",
                   "the model keeps resource variables (VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE) (TFLM without "
                   "one: \"VAR_HANDLE requires resource variables. Please create ResourceVariables and pass it to "
                   "the interpreter.\")"};
  }
  return std::nullopt;
}

}  // namespace

bool tflm_has_builtin_kernel(int32_t builtin, TflmKernels /*kernels: both sets register the same builtins*/) {
  if (builtin == sc::kCustom) return false;
  const std::string name = sc::builtin_name(builtin);
  return !name.empty() && tflm_kernel_entry(name) != nullptr;
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
  const std::string who = "TFLM (" + tflm_version_name(build.version) + ", " + kernels_name(build.kernels) + ")";
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
