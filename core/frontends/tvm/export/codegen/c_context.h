#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "frontends/tvm/export/codegen/c_names.h"
#include "frontends/tvm/export/codegen/tir_c_codegen.h"
#include "frontends/tvm/tir/node.h"

// The state the C export shares between module assembly, statement printing and expression
// printing: how every function is called (symbol, kept parameters, pool parameters) and, while
// one function is printed, what each TIR variable is called in C and what it points to.
namespace usmpx::cexport {

// How one PrimFunc appears in C.
struct CFunction {
  const tir::PrimFunc* function = nullptr;
  std::string symbol;
  // Parallel to TirCodegenInput::pools: <pool>_<k>_var, empty when main never calls it.
  std::vector<std::string> pool_vars;
  // The parameters it keeps: all but the pool parameters of a post-USMP dump.
  std::vector<const tir::Var*> params;
  std::vector<std::string> param_types;  // their C types
  bool trailing_handle = false;          // the last kept parameter has no buffer: pools go before it
  // Post-USMP pool parameters and their buffers' data variables -> pool name.
  std::unordered_map<const tir::Var*, std::string> old_pools;
};

// Module-wide state, filled by the assembly and read (params, constants and notes also written)
// while functions are printed.
struct ModuleState {
  const TirCodegenInput* input = nullptr;
  std::vector<CFunction> functions;
  std::unordered_map<const tir::PrimFunc*, size_t> by_function;
  std::unordered_map<std::string, const tir::PrimFunc*> by_name;  // module names and global symbols
  NameSupply globals;  // function symbols, constant arrays, parameter symbols
  // AllocateConst statements (and constant lets of post-USMP dumps) -> module-unique C name.
  std::unordered_map<const tir::Stmt*, std::string> constant_names;
  std::map<std::string, std::string> params;  // lookup_param name -> extern symbol
  std::vector<std::string> constant_blocks;   // file-scope arrays of unplanned constants
  std::vector<TirConstant> pool_constants;
  std::vector<Diagnostic> notes;
  std::set<std::string> extern_functions;  // C functions called through call_extern
  size_t placements_emitted = 0;

  const CFunction* find(const tir::PrimFunc* f) const {
    const auto it = by_function.find(f);
    return it == by_function.end() ? nullptr : &functions[it->second];
  }
  // The module function a call_extern / tvm_call_cpacked / direct call targets, or null.
  const tir::PrimFunc* callee(const tir::Call& call) const;
};

// What a TIR variable is in C.
struct CVar {
  enum class Kind { kScalar, kPointer, kArray };
  std::string name;
  Kind kind = Kind::kScalar;
  std::string element;    // element type of a pointer or array; empty for void*
  bool constant = false;  // a file-scope const array: accessed through a cast, as TVM does
};

// The state of the function being printed.
struct FunctionContext {
  FunctionContext(ModuleState& m, const CFunction& f) : module(m), function(f) {}

  ModuleState& module;
  const CFunction& function;
  NameSupply names;
  std::unordered_map<const tir::Var*, CVar> vars;
  std::unordered_set<const tir::Var*> non_negative;  // loop and let variables known to be >= 0
  std::unordered_set<const tir::Var*> used;          // variables the body refers to (stores into buffers included)
  std::unordered_set<const tir::Var*> read;          // variables whose value or elements the body reads

  // The C form of a variable in scope; ExportError when it has none.
  const CVar& var(const tir::Var& v, const SourceLocation& at) const;
  // This function's parameter for a pool; ExportError when it has none.
  std::string pool_var(const std::string& pool, const SourceLocation& at) const;
  // The pool a post-USMP pool parameter (or its buffer's data) stands for, or null.
  const std::string* old_pool(const tir::Var& v) const {
    const auto it = function.old_pools.find(&v);
    return it == function.old_pools.end() ? nullptr : &it->second;
  }
};

}  // namespace usmpx::cexport
