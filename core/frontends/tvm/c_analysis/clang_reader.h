#pragma once

#include <string>
#include <vector>

#include "frontends/tvm/c_analysis/c_model.h"

namespace usmpx {

// What to parse. All texts stay owned by the caller and must outlive the returned CProgram.
struct CParseInput {
  std::vector<CSourceFile> sources;        // translation units: the generated .c files
  std::vector<CSourceFile> macro_headers;  // headers parsed on their own, for #defines and structs
  std::vector<CSourceFile> include_files;  // headers the sources may include, relative to the archive root
  std::vector<std::string> include_dirs;   // archive folders searched by #include, e.g. "codegen/host/include"
  bool standin_runtime = true;             // supply our tvm/runtime stand-ins (the archive has no runtime/)
  std::string display_root;                // prefix of file names in diagnostics, e.g. "model.tar"
  bool skip_constant_data = true;          // hide literal weight data from clang (blank_constant_data)
  std::string target_triple;               // lay structs out for this target (clang -target); "" = this machine
};

// Parses the files with libclang from memory: no file is written, the C library and (unless the
// archive brings its own) the TVM runtime headers are our stand-ins, and clang runs with
// -nostdinc so that nothing of this machine is read. Parse errors become warnings in
// CProgram::diagnostics ("<display_root>/<file>:line:column: ..."); the parse never throws for
// bad C. Initialisers of file-scope variables (the large constant arrays) are not converted, and
// with skip_constant_data clang does not even see their literal data (parsing 2 MB of weights
// goes from about 300 ms to about 15 ms); every range still points into the original text.
CProgram parse_c_program(const CParseInput& input);

}  // namespace usmpx
