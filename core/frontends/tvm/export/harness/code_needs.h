#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "export/export_bundle.h"
#include "frontends/tvm/c_analysis/clang_reader.h"

namespace usmpx {

// What the C a harness builds (the model's sources and harness/main.c) needs from outside the
// bundle, read from its text before anything is compiled: which functions it calls that nothing
// defines, which headers it includes that nothing provides, and which Arm-only code it holds.
struct CodeNeeds {
  // Arm intrinsics called: ACLE (`__ssub8`, `__sel`, ...) and CMSIS-Core (`__SMLAD`, ...).
  std::vector<std::string> arm_intrinsics;
  std::vector<std::string> arm_headers;         // arm_acle.h, arm_math.h, cmsis_compiler.h, ... included
  std::string arm_file;                         // the first source needing the Arm code
  bool host_covers_arm = true;                  // the host's arm_acle.h stand-in defines every intrinsic called
  std::string cmsis_nn_file;                    // the first source calling CMSIS-NN kernels, "" = none
  std::vector<std::string> cmsis_nn_functions;  // the CMSIS-NN functions called
  // Functions called and defined nowhere: per source, in order of first call.
  std::vector<std::pair<std::string, std::vector<std::string>>> undefined_calls;
  std::vector<std::pair<std::string, std::string>> missing_headers;  // source, header
  std::vector<std::pair<std::string, std::string>> sdk_heap_calls;   // source, "heap_caps_malloc (ESP-IDF)"
};

// Where definitions and headers may come from besides the bundle.
struct CodeProviders {
  bool builtin_cmsis_nn = false;  // the project's own CMSIS-NN-compatible kernels will be built
  std::string cmsis_nn_dir;       // a CMSIS-NN checkout (DIR/Include, DIR/Source)
  std::string kernels_dir;        // --kernels DIR: *.c in DIR, headers in DIR and DIR/include
};

CodeNeeds analyse_code_needs(const ExportBundle& bundle, const CodeProviders& providers);

// The C sources a bundle's harness compiles: MODEL_SRCS of harness/Makefile (relative to the
// bundle root), else codegen/host/src/*.c.
std::vector<std::string> harness_model_sources(const ExportBundle& bundle);

// Gives the C reader the bundle's headers (those under `skipped` left out: harness headers the
// reader's stand-ins replace) with their folders, after `dirs`, as include paths; names the
// files "(harness)" in messages.
void add_bundle_headers(CParseInput& in, const ExportBundle& bundle, std::string_view skipped,
                        std::set<std::string> dirs = {});

}  // namespace usmpx
