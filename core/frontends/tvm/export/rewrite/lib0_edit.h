#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "frontends/tvm/c_analysis/c_model.h"
#include "frontends/tvm/export/emit/lib0_source.h"
#include "frontends/tvm/export/rewrite/text_edits.h"

namespace usmpx {

// What edit_lib0_source changes in the input's `<mod>_lib0.c`.
struct Lib0Edit {
  const CProgram* program = nullptr;  // the input's parse; `file` indexes its lib0.c
  int file = -1;
  const Lib0Spec* spec = nullptr;            // lib0.c as the plan wants it (pools, constants, I/O maps, TVM style)
  std::vector<std::string> internal_before;  // the pools the input defines (TVM's internal pools)
  // The file holds TVM 0.8's packed `<prefix>run(args, type_codes, num_args, ...)` (interface
  // API "packed", no header), or the C runtime's static `__tvm_main__` of the same signature: the
  // wrapper keeps its signature. The entry it calls may be defined in this file or another.
  bool packed_run = false;
  std::string packed_wrapper;  // the wrapper's name; "" = "tvmgen_<mod>_run"
};

struct Lib0EditResult {
  std::string text;
  std::vector<std::string> notes;  // what the user's own code must now do (a pool it provides grew)
  TextEdits edits;                 // the same change as edits of the input's text
};

// The pools the input's lib0.c hands to the AoT entry, in order (from the pool parameters of the
// entry's declaration there); empty when the file declares no such entry.
std::vector<std::string> lib0_pool_order(const CProgram& program, int file, const std::string& entry);

// The input's lib0.c changed only where the plan changes it: the size of each internal workspace
// pool array (and its section when the user chose one), the members of each internal constant
// pool struct (order, the "aligned offset" comment, padding members where a planned offset lies
// beyond where C would put a member) with their initialisers in the same order, the struct's
// "total size" comment, and the pool and offset of each I/O map entry. When the plan passes other
// pools than the file does, definitions of new internal pools are inserted before the interface
// header's #include, those of pools no longer internal are removed, and the entry's parameter
// list and the run wrapper's parameters and call are rewritten. Every other byte (attributes,
// comments, the user's own code) stays; a workspace pool the user's code provides (not an array
// of the file) is left to it with a note. With `packed_run`, new pools go before the packed
// wrapper and only its call of the entry changes: the pool arguments after the I/O ones (the
// entry's own parameters, in whichever file defines it, are the host rewrite's). Throws
// ExportError when a constant's member or initialiser is not in the file, or a planned offset
// lies below where C must place the member.
Lib0EditResult edit_lib0_source(const Lib0Edit& edit);

}  // namespace usmpx
