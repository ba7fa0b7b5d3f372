#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "config/pool_options.h"
#include "frontends/tvm/tir/node.h"
#include "model/diagnostic.h"
#include "model/plan.h"
#include "model/problem.h"

namespace usmpx {

// The planning problem of a TIR module, as USMP would see it, and the plan a post-USMP dump
// already carries.
struct TirProblem {
  Problem problem;
  std::optional<Plan> as_built;
  std::vector<Diagnostic> warnings;
  // The module the buffers were found in (after CreateAllocatesForIO when use_workspace_io),
  // kept alive for the C export, and parallel to problem.buffers the statement each buffer comes
  // from: an Allocate or AllocateConst, or in a post-USMP dump the LetStmt that replaced it.
  std::shared_ptr<const tir::Module> module;
  std::vector<const tir::Stmt*> statements;
};

// The AOT entry function: "__tvm_main__", else the one function marked "runner_function": True,
// else the only function of the module (with a warning). Throws InputError otherwise.
const tir::PrimFunc& find_main_function(const tir::Module& module, std::vector<Diagnostic>* warnings = nullptr);

// Runs USMP's analysis on a module:
// - before USMP (allocates): optional CreateAllocatesForIO (options.use_workspace_io), pools and
//   candidates as AssignPoolInfo (assign_pools over the functions' targets; a function without a
//   "target" attribute counts as target "c"), then ExtractBufferInfo;
// - after USMP (address_of lets into <pool>_<k>_var parameters): the same walk over the lets,
//   with the dump's pools (unless pool options name them), and the as-built plan (pool and
//   offset of every let).
// Alignments come from "workspace-byte-alignment" / "constant-byte-alignment" anywhere in the
// module's or main's attributes, else 16. Throws InputError or ConfigError.
TirProblem analyze_tir_module(const tir::Module& module, const PoolOptions& options);

}  // namespace usmpx
