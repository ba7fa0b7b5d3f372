#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "frontends/tvm/c_analysis/c_model.h"
#include "model/diagnostic.h"

namespace usmpx {

// How the AoT entry calls an operator.
enum class EntryCallForm {
  kChecked,  // if (f(...) != 0 ) return -1;
  kVoid,     // (void)f(...);
  kPlain,    // f(...);
  kNested,   // any other statement holding the call
};

// One call of an operator by the entry, in order.
struct EntryCall {
  std::string callee;
  EntryCallForm form = EntryCallForm::kPlain;
  CRange statement;
  CRange call;
  std::vector<CRange> args;
};

// A call from one function of the module to another inside an operator (an "iteratee" that the
// operator calls, holding planned buffers of its own), in source order.
struct InnerCall {
  int caller = -1;  // index into CProgram::functions
  EntryCall call;
};

// `void* X = TVMBackendAllocWorkspace(device_type, device_id, nbytes, dtype_code, dtype_bits);`
// (USMP off), with the statements the lowering added around it.
struct WorkspaceAlloc {
  int function = -1;    // index into CProgram::functions
  int variable = -1;    // index into that function's variables
  int64_t nbytes = -1;  // -1 when the size is not a constant
  int64_t device_type = 0;
  int64_t device_id = 0;
  int64_t dtype_code = 0;
  int64_t dtype_bits = 0;
  CRange statement;   // the declaration or assignment
  CRange call;        // the TVMBackendAllocWorkspace(...) call, for rewriting
  CRange null_check;  // if (X == NULL) { return -1; }
  CRange free;        // if (TVMBackendFreeWorkspace(..., X) != 0) { return -1; }
};

// `void* X_let = (&(<pool>_<k>_var[offset]));` (USMP on): where USMP placed a buffer.
struct PoolLet {
  int function = -1;
  int variable = -1;
  std::string pool;        // the pool's name, from the parameter name
  std::string pool_param;  // e.g. "global_workspace_1_var"
  int64_t offset = 0;
  CRange statement;
  CRange offset_range;  // the offset literal, for rewriting
};

// A parameter `uint8_t* <pool>_<k>_var` that USMP added to a function.
struct PoolParam {
  int function = -1;
  int variable = -1;
  std::string pool;
  int64_t k = 0;
};

// A pool the generated code defines itself (TVM's internal pools, in <mod>_lib0.c).
struct InternalPool {
  std::string name;
  bool constant = false;          // a const struct of constants rather than a byte array
  int64_t size_bytes = 0;         // bytes array length, or the end of the last constant
  int64_t alignment = 0;          // of the definition, 0 when not stated
  std::vector<CField> constants;  // constant pools: one member per constant, "<name>_let"
  CRange range;
};

// What the generated C of one module says in TVM's terms.
struct TvmCode {
  std::string module;
  std::string prefix;  // "tvmgen_<module>_"
  int entry = -1;      // index into CProgram::functions, -1 when none was found
  std::vector<EntryCall> calls;
  std::vector<InnerCall> inner_calls;  // calls between the module's functions below the entry
  std::set<std::string> operators;     // functions of the module, walked inline at their call sites
  std::vector<WorkspaceAlloc> allocs;
  std::vector<PoolLet> lets;
  std::vector<PoolParam> pool_params;
  std::vector<InternalPool> internal_pools;
  std::map<std::string, int64_t> external_pool_sizes;  // pool name -> bytes, from the header
  int64_t header_workspace_size = -1;                  // TVMGEN_<MOD>_WORKSPACE_SIZE, -1 when absent
  std::string header_workspace_macro;                  // that macro's name
  std::set<std::string> external_constant_pools;
  std::vector<std::string> inputs;                  // names of the tvmgen_<mod>_inputs fields, in order
  std::vector<std::string> outputs;                 // names of the tvmgen_<mod>_outputs fields
  std::map<std::string, int64_t> io_sizes;          // sanitized I/O name -> bytes, from the header
  std::map<std::string, std::string> file_targets;  // source path -> "// tvm target: " line
  int64_t static_constant_count = 0;                // constant arrays left in the operators' code
  int64_t static_constant_bytes = 0;
  std::set<std::pair<int, uint32_t>> skipped_statements;  // (file, begin) of null checks and frees
  std::map<std::pair<int, int>, int> alloc_of;            // (function, variable) -> index into allocs
  std::map<std::pair<int, int>, int> let_of;              // (function, variable) -> index into lets
  std::vector<Diagnostic> warnings;

  bool usmp() const { return !pool_params.empty() || !lets.empty(); }
  bool skipped(const CRange& r) const { return skipped_statements.count({r.file, r.begin}) > 0; }
};

// Finds the entry (tvmgen_<mod>___tvm_main__, or tvmgen_<mod>_run_model before TVM 0.9), its
// calls, the operators, TVMBackendAllocWorkspace allocations, pool parameters and let lines,
// the internal pools and, in the interface header, I/O names and external pool sizes.
TvmCode recognise_tvm_code(const CProgram& program, const std::string& module, const std::string& display_root);

// The expression with casts removed.
const CExpr& strip_casts(const CExpr& e);

}  // namespace usmpx
