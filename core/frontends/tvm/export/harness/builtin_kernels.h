#pragma once

#include <string_view>
#include <vector>

namespace usmpx {

// A text file carried inside the binary; `path` is relative to the folder it is written into.
struct EmbeddedFile {
  std::string_view path;
  std::string_view text;
};

// The project's own CMSIS-NN-compatible kernels (core/export/harness/kernels/cmsis_nn: Include/
// with arm_nnfunctions.h, arm_nn_types.h, arm_nn_math_types.h, arm_nnsupportfunctions.h, and
// Source/Kernels/*.c), laid out as a CMSIS-NN checkout so the harness builds them with the same
// rule. Written from the API's documented semantics (TFLite's int8/int16 reference arithmetic);
// they prove a re-plan (every output byte written, the whole context buffer filled) and are not a
// bit-exact CMSIS-NN. Embedded at build time by cmake/embed_files.cmake.
const std::vector<EmbeddedFile>& builtin_cmsis_nn_files();

}  // namespace usmpx
