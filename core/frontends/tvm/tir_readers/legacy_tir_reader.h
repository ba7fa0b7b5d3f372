#pragma once

#include <string>
#include <string_view>

#include "frontends/tvm/tir/node.h"

namespace usmpx {

// Reads a dump in the legacy TIR text format (TVM <= 0.11's `primfn` printer, as found in
// Model Library Format src/tir-*.txt files and in the USMP RFCs): functions written
// `[@name =] primfn(params) -> () attr = {...} buffers = {...} buffer_map = {...} { body }`,
// including the printer's quirks (the extra ')' after allocate annotations, `name: handle: buf`
// in buffer maps, buffers declared inline at first use, dotted names, dtype-suffixed literals).
// Throws InputError with file:line:column on malformed input.
tir::Module read_legacy_tir(std::string_view text, const std::string& file);

// Whether the text looks like the legacy format (contains "primfn(").
bool looks_like_legacy_tir(std::string_view text);

}  // namespace usmpx
