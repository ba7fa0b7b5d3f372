#include "frontends/tvm/export/codegen/c_context.h"

#include <algorithm>

#include "export/export_error.h"

namespace usmpx::cexport {

const tir::PrimFunc* ModuleState::callee(const tir::Call& call) const {
  std::string name;
  if (call.global) {
    name = call.op;
  } else if ((call.op == "call_extern" || call.op == "call_pure_extern" || call.op == "tvm_call_cpacked") &&
             !call.args.empty()) {
    const auto* s = call.args.front()->as<tir::StringImm>();
    if (!s) return nullptr;
    name = s->value;
  } else {
    return nullptr;
  }
  const auto it = by_name.find(name);
  return it == by_name.end() ? nullptr : it->second;
}

const CVar& FunctionContext::var(const tir::Var& v, const SourceLocation& at) const {
  const auto it = vars.find(&v);
  if (it == vars.end()) {
    throw ExportError(at, "variable '" + v.name + "' is used where it is not defined (in '" + function.symbol + "')");
  }
  return it->second;
}

std::string FunctionContext::pool_var(const std::string& pool, const SourceLocation& at) const {
  const std::vector<std::string>& pools = module.input->pools;
  const auto it = std::find(pools.begin(), pools.end(), pool);
  if (it == pools.end()) throw ExportError(at, "pool '" + pool + "' is not among the pools with placements");
  if (function.pool_vars.empty()) {
    throw ExportError(
        at, "'" + function.symbol + "' is not called from main, so it has no parameter for pool '" + pool + "'");
  }
  return function.pool_vars[static_cast<size_t>(it - pools.begin())];
}

}  // namespace usmpx::cexport
