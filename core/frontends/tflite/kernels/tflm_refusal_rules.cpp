#include "frontends/tflite/kernels/tflm_refusal_rules.h"

#include <algorithm>

#include "frontends/tflite/tflite_schema.h"

namespace usmpx {

namespace sc = tflite_schema;

bool is_integer_weight(int type) {
  return type == sc::kInt8 || type == kTypeUInt8 || type == sc::kInt4 || type == sc::kInt16;
}

std::string hybrid(std::string_view name, int input, int weights) {
  const bool quoted = name == "CONV_2D" || name == "DEPTHWISE_CONV_2D";
  return "hybrid model (" + sc::type_name(input) + " input, " + sc::type_name(weights) +
         " weights), and TFLM has no hybrid kernels" +
         (quoted ? " (\"Hybrid models are not supported on TFLite Micro.\")" : "");
}

TflmRefusal unsupported_input(std::string_view name, int input, const std::string& takes) {
  const std::string kernel(name);
  if (input == kTypeUInt8)
    return {"", "legacy uint8 quantization (UINT8 input); its " + kernel + " kernel takes " + takes};
  return {"", "its " + kernel + " kernel takes " + takes + ", not " + sc::type_name(input)};
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

std::optional<TflmRefusal> type_check(const TflmOp& op, std::string_view name, const std::vector<int>& takes,
                                      bool in_eval, std::string_view message) {
  const int in = op.input_type(0);
  if (in < 0 || in_set(in, takes)) return std::nullopt;
  std::string text(message);
  const size_t at = text.find("%s");
  if (at != std::string::npos) text.replace(at, 2, sc::type_name(in));
  const size_t number = text.find("%d");
  if (number != std::string::npos) text.replace(number, 2, std::to_string(in));
  return TflmRefusal{"",
                     "its " + std::string(name) + " kernel takes " + one_of(takes) + " input, not " +
                         sc::type_name(in) + " (TFLM: \"" + text + "\")",
                     in_eval ? "at Invoke" : "at AllocateTensors"};
}

// conv_common.cc, depthwise_conv_common.cc, fully_connected.cc Prepare.
std::optional<TflmRefusal> weighted_layer_refusal(const TflmOp& op, std::string_view name) {
  const int in = op.input_type(0);
  const int weights = op.input_type(1, TflmKeyPart::kOtherTypes);
  const int out = op.output_type(0);
  if (in < 0 || weights < 0) return std::nullopt;
  const bool depthwise = name == "DEPTHWISE_CONV_2D";
  // DEPTHWISE_CONV_2D's Prepare lets UINT8 pass (its Eval fails later), the others refuse it.
  if (in == kTypeUInt8 && !depthwise) return unsupported_input(name, in, "FLOAT32, INT8 or INT16 input");
  const bool int8_pair = in == sc::kInt8 && (weights == sc::kInt8 || weights == sc::kInt4);
  const bool taken = depthwise ? in == weights || int8_pair
                               : (in == sc::kFloat32 && weights == sc::kFloat32) ||
                                     (in == sc::kInt16 && weights == sc::kInt8) || int8_pair;
  if (!taken && in == sc::kFloat32 && is_integer_weight(weights)) return TflmRefusal{"", hybrid(name, in, weights)};
  const std::string kernel(name);
  if (!taken) {
    return TflmRefusal{"", "its " + kernel + " kernel does not take " + sc::type_name(in) + " input with " +
                               sc::type_name(weights) + " weights"};
  }
  if (!depthwise && out >= 0 && out != in) {
    return TflmRefusal{"", "its " + kernel + " kernel needs the output type equal to the input type (" +
                               sc::type_name(in) + " input, " + sc::type_name(out) + " output)"};
  }
  return std::nullopt;
}

}  // namespace usmpx
