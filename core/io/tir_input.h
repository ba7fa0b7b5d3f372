#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "analysis/tir_problem.h"
#include "io/input_file.h"

namespace usmpx {

// The TIR dump format of a text, judged by its content: TVMScript when it has an
// @I.ir_module / @tvm.script.ir_module / @T.prim_func decorator, legacy when it has "primfn(".
std::optional<InputFormat> detect_tir_format(std::string_view text);

// Parses a TIR dump and analyses it as USMP would (analyze_tir_module), keeping the module and
// each buffer's statement for the C export.
TirProblem analyze_tir_dump(std::string_view text, const std::string& path, InputFormat format,
                            const LoadOptions& options);

// Parses a TIR dump and analyses it as USMP would (analyze_tir_module), applying the pool
// options through pool assignment. Fills LoadedInput::as_built for dumps written after USMP.
LoadedInput load_tir_dump(std::string_view text, const std::string& path, InputFormat format,
                          const LoadOptions& options);

}  // namespace usmpx
