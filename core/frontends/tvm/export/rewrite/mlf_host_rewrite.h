#pragma once

#include <map>
#include <string>
#include <vector>

#include "frontends/tvm/export/export_pools.h"
#include "frontends/tvm/export/rewrite/text_edits.h"
#include "frontends/tvm/mlf/mlf_model.h"

namespace usmpx {

// The generated C of an MLF module rewritten for a new plan.
struct HostRewrite {
  std::map<int, std::string> files;    // CProgram file index -> new text, for changed files only
  std::vector<std::string> functions;  // the functions given pool parameters, in USMP's order
};

// Rewrites the sources (all but `skip_file`, the metadata module that is regenerated whole) the
// way ConvertPoolAllocationsToOffsets would have written them for `plan`, touching nothing else:
// - the entry and every operator it calls get one `uint8_t* <pool>_<k>_var` parameter per pool
//   (k counted over the functions in first-call order), replacing the pool parameters they had;
//   declarations too; call sites pass the entry's pool parameters;
// - USMP-on lets `void* x_let = (&(<pool>_<k>_var[<off>]));` point at the new pool and offset;
// - USMP-off `TVMBackendAllocWorkspace` calls become `(&(<pool>_<k>_var[<off>]))` and their
//   NULL checks and `TVMBackendFreeWorkspace` statements go;
// - with --use-workspace-io, the entry's I/O parameters leave its signature and become locals
//   pointing into their pools.
// `problem` is the model's problem, possibly with edited pools and pins (same buffers, same
// order). `also` adds edits of other parts of the files (CProgram file index -> edits of its
// original text), applied together with these. Throws ExportError for code it cannot rewrite.
HostRewrite rewrite_host_sources(const MlfModel& model, const Problem& problem, const Plan& plan,
                                 const std::vector<ExportPool>& pools, int skip_file,
                                 const std::map<int, TextEdits>& also = {});

}  // namespace usmpx
