#pragma once

// What the proof harness needs to know of an MLF model or firmware tree (its I/O tensors, sizes,
// files, how the entry is called), and the small path helpers the MLF export shares with it.

#include <cstdint>
#include <string>
#include <vector>

#include "frontends/tvm/export/export_pools.h"
#include "frontends/tvm/export/harness/harness.h"
#include "frontends/tvm/mlf/mlf_model.h"

namespace usmpx {

// The module's metadata.json entry; an empty one for inputs without metadata.json.
const MlfModuleMetadata& module_metadata(const MlfModel& m);

std::string joined(const std::string& folder, const std::string& name);

// The folder holding a module's generated C: "codegen/host" for codegen/host/src/x.c, the
// firmware project's model folder for src/x.c, the file's own folder for a flat layout.
std::string sources_root(const std::string& source_path);

// The model's I/O names: the interface header's structs, else metadata.json's tensors, else the
// entry's parameters.
std::vector<std::string> io_names(const MlfModel& m, bool inputs);

// TVM 0.8's run wrapper for the packed interface API (`<prefix>run`, or the C runtime's static
// `__tvm_main__` when no `<prefix>run` is defined), or null.
const CFunction* packed_run_wrapper(const MlfModel& m);

// The `tvm_model_t` descriptor TVM 0.8 defines beside its C runtime wrapper
// (`tvmgen_<mod>_network`), or "".
std::string crt_model_descriptor(const MlfModel& m);

// TVMBackendAllocWorkspace calls whose size is not a constant: USMP cannot plan them.
bool has_dynamic_workspace(const MlfModel& m);

// The harness description of the model: its files, I/O tensors (sizes from the header,
// metadata.json, the Relay text or the code's accesses), pools the application passes.
HarnessSpec mlf_harness_spec(const MlfModel& m, std::vector<ExportPool> external_pools, bool use_workspace_io,
                             uint32_t seed);

}  // namespace usmpx
