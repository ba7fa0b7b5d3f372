#pragma once

#include <clang-c/Index.h>

#include <string>

#include "frontends/tvm/c_analysis/c_model.h"

namespace usmpx {

// Adds what one translation unit's main file declares to `program` (whose files[file_index] is
// that file, known to clang as `virtual_path`): functions with their statements and
// expressions, file-scope variables, structs and, with `macros`, object-like #defines. Cursors
// from included files are skipped; initialisers of file-scope variables are not converted.
void convert_translation_unit(CXTranslationUnit tu, int file_index, const std::string& virtual_path, bool macros,
                              CProgram& program);

// The text of a CXString, which is disposed.
std::string take_cx_string(CXString s);

}  // namespace usmpx
