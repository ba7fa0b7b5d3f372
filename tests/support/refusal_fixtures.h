#pragma once

#include <string>

namespace usmpx::testing {

// Small models TFLite Micro refuses at AllocateTensors, one reason each (tflm_support.h), written
// with write_fixture_tflite. Each has one subgraph; the refused operator is operator 0 unless said.
std::string hybrid_conv_tflite();                           // CONV_2D: FLOAT32 input, INT8 filter
std::string float16_dequantize_tflite();                    // DEQUANTIZE of FLOAT16 weights, then ADD (operator 1)
std::string reduce_prod_tflite();                           // REDUCE_PROD: no TFLM kernel
std::string flex_add_tflite();                              // custom FlexAddV2
std::string var_handle_tflite();                            // VAR_HANDLE, then READ_VARIABLE (operator 1)
std::string uint8_fully_connected_tflite();                 // FULLY_CONNECTED with UINT8 activations
std::string custom_tflite(const std::string& custom_code);  // one custom operator of two float inputs
std::string fill_dynamic_dims_tflite();                     // FILL whose dims are a model input
std::string arg_max_int64_tflite();                         // ARG_MAX with an INT64 output (fails at Invoke)

}  // namespace usmpx::testing
