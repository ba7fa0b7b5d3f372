#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/pool_options.h"
#include "frontends/tvm/c_analysis/c_model.h"
#include "frontends/tvm/c_analysis/clang_reader.h"
#include "frontends/tvm/c_analysis/liveness_walk.h"
#include "frontends/tvm/c_analysis/tvm_code.h"
#include "frontends/tvm/mlf/mlf_package.h"
#include "model/plan.h"
#include "model/problem.h"

namespace usmpx {

struct MlfLoadOptions {
  PoolOptions pools;   // used to assign pools to USMP-off models; applied on top of USMP-on pools
  std::string module;  // empty: the first module
};

// Wall time of the three stages of loading, in milliseconds.
struct MlfTimings {
  double archive_ms = 0;   // reading the archive into memory and metadata.json
  double parse_ms = 0;     // libclang
  double analysis_ms = 0;  // TVM constructs, liveness, sizes, pools, sweep
};

// One module of an MLF archive, analysed as USMP would: its buffers with sizes, alignments and
// conflicts, the pools, and (for USMP-on code) the plan TVM made.
//
// USMP off (TVMBackendAllocWorkspace): every constant-size workspace allocation, in the entry
// (the sids) and inside operators, is a buffer; stack arrays stay on the stack; constants are
// static arrays in the operators and are not planned; pools come from the pool options like
// TVM's AssignPoolInfo (default: an internal global_workspace). USMP on: every
// `void* X_let = (&(pool_var[off]));` is a buffer placed at `off` in `pool`: the as-built plan.
// Model inputs and outputs are planned only with PoolOptions::use_workspace_io.
struct MlfModel {
  std::shared_ptr<const MlfPackage> package;  // owns the texts `program` points into
  std::string module;
  Problem problem;
  std::optional<Plan> as_built;
  std::vector<Diagnostic> warnings;  // what could not be used, with file:line where known
  CProgram program;
  TvmCode code;
  // walk.buffers[i] is problem.buffers[i]; after them, problem.buffers holds the `reserved` buffers
  // (bytes of TVM's pools that code the tool cannot read may use; see reserved_bytes.h).
  WalkResult walk;
  MlfTimings timings;
};

// What to hand to parse_c_program for a module: its sources, the interface header (parsed on its
// own for macros and structs), and the archive's runtime headers when it has a runtime/ folder.
CParseInput mlf_parse_input(const MlfPackage& package, const MlfModule& module);

// Builds the model from an already parsed program (stage three of load_mlf_model).
MlfModel analyse_mlf(std::shared_ptr<const MlfPackage> package, const MlfModule& module, CProgram program,
                     const MlfLoadOptions& options);

// Reads, parses and analyses. Throws InputError for unreadable archives and metadata, for a
// module nothing can be planned from (check_plannable, or no entry function defined in its C),
// and ConfigError for pool options that do not fit the model; other problems in the C become warnings.
MlfModel load_mlf_model(const std::string& path, const MlfLoadOptions& options = {});

}  // namespace usmpx
