#pragma once

#include <string>

#include "export/export_bundle.h"
#include "frontends/tvm/mlf/mlf_model.h"

namespace usmpx {

// An MLF module re-planned: every member of the input archive, with the module's generated C
// rewritten for `plan` (see rewrite_host_sources), `<mod>_lib0.c` and `tvmgen_<mod>.h`
// regenerated in the input's TVM style, metadata.json's memory figures updated, and beside the
// sources `codegen/host/usmpx_plan.json` (the plan) and `codegen/host/usmpx_pools.ld` (a GNU ld
// fragment for the pools' sections). `problem` is the model's problem, possibly with edited
// pools and pins; `plan` must be complete and valid. Throws ExportError.
ExportBundle export_mlf(const MlfModel& model, const Problem& problem, const Plan& plan,
                        const ExportOptions& options = {});

// The input as it is, with the same harness (when options.harness) as export_mlf adds: what an
// export is compared against. A model without a run wrapper (TVM before 0.9) is called through
// its entry directly.
ExportBundle mlf_original_bundle(const MlfModel& model, const ExportOptions& options = {});

}  // namespace usmpx
