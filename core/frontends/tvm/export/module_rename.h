#pragma once

#include <string>

#include "export/export_bundle.h"

namespace usmpx {

// Whether `name` can be a TVM module name: a C identifier fragment (letters, digits, '_'), as
// `tvmc --module-name` needs it to be for the names it makes from it.
bool valid_module_name(const std::string& name);

// The bundle as TVM would have written it with `--module-name <to>` instead of `<from>`: every
// `tvmgen_<from>_` / `TVMGEN_<FROM>_` name in its C, headers, Makefile and metadata.json, the
// interface header `tvmgen_<from>.h` (file and includes), the sources `<from>_lib<N>.c`, the
// files `<from>.params` and `<from>.relay`, and the module's name in metadata.json ("model_name"
// and the key of "modules"). Names that merely contain the module's name (`serving_default_input`)
// are left alone. Every file it changes or renames is listed in `changed`.
void rename_tvm_module(ExportBundle& bundle, const std::string& from, const std::string& to);

}  // namespace usmpx
