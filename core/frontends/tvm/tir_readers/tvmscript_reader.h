#pragma once

#include <string>
#include <string_view>

#include "frontends/tvm/tir/node.h"

namespace usmpx {

// Reads a TVMScript dump (the v0.12+ printer's output and hand-written test modules): an
// @I.ir_module / @tvm.script.ir_module class of @T.prim_func definitions, or bare
// @T.prim_func definitions. Throws InputError with file:line:column on malformed input.
tir::Module read_tvmscript(std::string_view text, const std::string& file);

// Whether the text looks like TVMScript (a module or prim_func decorator).
bool looks_like_tvmscript(std::string_view text);

}  // namespace usmpx
