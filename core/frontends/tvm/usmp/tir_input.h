#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "frontends/frontend.h"
#include "frontends/tvm/usmp/tir_problem.h"

namespace usmpx {

// The TIR dump format of a text, judged by its content: TVMScript when it has an
// @I.ir_module / @tvm.script.ir_module / @T.prim_func decorator, legacy when it has "primfn(".
std::optional<InputFormat> detect_tir_format(std::string_view text);

// Parses a TIR dump and analyses it as USMP would (analyze_tir_module), keeping the module and
// each buffer's statement for the C export.
TirProblem analyze_tir_dump(std::string_view text, const std::string& path, InputFormat format,
                            const LoadOptions& options);

// The input as the commands see it: the analysed dump's problem, the plan it carries (dumps
// written after USMP) and its warnings, each warning pointing at `path`. No exporter.
LoadedInput loaded_tir_dump(const TirProblem& analysed, const std::string& path, InputFormat format);

}  // namespace usmpx
