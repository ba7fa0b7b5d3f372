#pragma once

// Each input family's frontend, one entry point per folder of frontends/. The input table
// (inputs/input_kinds.cpp) lists them beside the kinds they read; nothing else needs to name them.
#include "frontends/frontend.h"

namespace usmpx {

const Frontend& tvm_frontend();            // frontends/tvm: MLF, firmware trees, TIR dumps
const Frontend& tflite_frontend();         // frontends/tflite: TFLite Micro models
const Frontend& et_frontend();             // frontends/executorch: ExecuTorch programs
const Frontend& problem_files_frontend();  // frontends/problem_files: usmpx-problem JSON, MiniMalloc CSV

}  // namespace usmpx
