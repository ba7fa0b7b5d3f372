#pragma once

#include <string>

#include "export/export_bundle.h"
#include "frontends/tvm/export/mlf_export.h"
#include "frontends/tvm/usmp/tir_problem.h"

namespace usmpx {

// A TIR dump planned, written as a Model Library Format module of its own (version 7, AoT,
// interface-api c): the host module `<mod>_lib1.c` generated from the TIR with the plan applied
// (emit_tir_host_module), `<mod>_lib0.c` and `tvmgen_<mod>.h` in TVM's text, a metadata.json,
// the dump itself under src/, and codegen/host/usmpx_plan.json and usmpx_pools.ld. `analysed` is
// the analysis of the dump (TirProblem::module and ::statements), `problem` its problem possibly
// with edited pools and pins, `plan` a complete and valid plan of it. The module is named after
// main's global symbol (tvmgen_<mod>___tvm_main__), else "default". Throws ExportError.
ExportBundle export_tir(const TirProblem& analysed, const std::string& dump_path, const std::string& dump_text,
                        const Problem& problem, const Plan& plan, const ExportOptions& options = {});

}  // namespace usmpx
