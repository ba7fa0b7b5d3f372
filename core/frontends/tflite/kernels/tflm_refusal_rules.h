#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frontends/tflite/kernels/tflm_kernel.h"

namespace usmpx {

// Pieces the kernels' refusal rules share.

// TensorType values the rules name, beside those in tflite_schema.h.
inline constexpr int kTypeFloat16 = 1, kTypeUInt8 = 3, kTypeInt64 = 4;

// INT8, UINT8, INT4 or INT16: weights a float kernel cannot take (a hybrid model).
bool is_integer_weight(int type);

// "hybrid model (FLOAT32 input, INT8 weights), and TFLM has no hybrid kernels", quoting TFLM's
// message where its kernel prints one (the convolutions).
std::string hybrid(std::string_view name, int input, int weights);

// An input type a kernel's Prepare rejects; `takes` says what it takes. UINT8 is named as what it
// almost always is: a model quantized the legacy way.
TflmRefusal unsupported_input(std::string_view name, int input, const std::string& takes);

// "FLOAT32, INT8 or INT16"
std::string one_of(const std::vector<int>& types);
bool in_set(int type, const std::vector<int>& types);

// A kernel whose Prepare (or Eval, `in_eval`) rejects its first input's type with `message`
// (TFLM's, "%s" standing for the type's name and "%d" for its number).
std::optional<TflmRefusal> type_check(const TflmOp& op, std::string_view name, const std::vector<int>& takes,
                                      bool in_eval, std::string_view message);

// The convolutions and the fully connected layer (conv_common.cc, depthwise_conv_common.cc,
// fully_connected.cc Prepare): the input/weights type pairs they take.
std::optional<TflmRefusal> weighted_layer_refusal(const TflmOp& op, std::string_view name);

}  // namespace usmpx
