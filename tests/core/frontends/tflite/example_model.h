#pragma once

#include <string>

namespace usmpx::testing {

// The bundled example resources/examples/tiny_classifier.tflite, written here with
// flatbuffers::FlatBufferBuilder from the project's own TFLite field ids: an int8 classifier of
// five operators (FULLY_CONNECTED, FULLY_CONNECTED, ADD with a skip connection, FULLY_CONNECTED,
// SOFTMAX) with deterministic weights.
std::string build_example_tflite();

}  // namespace usmpx::testing
