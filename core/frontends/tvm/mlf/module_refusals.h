#pragma once

#include "frontends/tvm/mlf/mlf_model.h"
#include "frontends/tvm/mlf/mlf_package.h"

namespace usmpx {

// Refuses, with the reason, a module nothing can be planned from before its C is parsed: one
// built for the graph executor (it has no static memory plan) or one without C sources.
// Throws InputError.
void check_plannable(const MlfPackage& package, const MlfModule& module);

// Refuses a module whose C defines no entry function: the files looked at, and the first parse
// error when the C did not parse cleanly. Never reports an empty model instead.
[[noreturn]] void refuse_without_entry(const MlfModel& model, const MlfModule& module);

// Refuses C sources (a firmware tree without metadata.json and without an AOT entry) that hold
// TVM graph-executor output: operators registered in a CRT system library (TVMSystemLibEntryPoint,
// TVMFuncRegistry) or parameters linked in and looked up by _lookup_linked_param. Its tensors are
// allocated at run time, so there is no static plan. Returns normally for other sources.
void refuse_graph_executor_sources(const std::string& path, const std::vector<ArchiveFile>& c_files);

}  // namespace usmpx
