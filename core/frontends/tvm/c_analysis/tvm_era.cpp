#include "frontends/tvm/c_analysis/tvm_era.h"

#include <algorithm>

namespace usmpx {
namespace {

bool has_pointer_cast(const CExpr& e) {
  if (e.kind == CExprKind::kCast && e.type.find('*') != std::string::npos) return true;
  return std::any_of(e.args.begin(), e.args.end(), has_pointer_cast);
}

// Does the run wrapper pass its pools through `((uint8_t*)&pool)` casts?
bool run_wrapper_casts_pools(const CProgram& program, const TvmCode& code) {
  const CFunction* run = program.find_function(code.prefix + "run");
  if (!run || !run->is_definition || code.internal_pools.empty()) return false;
  bool cast = false;
  std::vector<const CStmt*> stack{&run->body};
  while (!stack.empty()) {
    const CStmt* s = stack.back();
    stack.pop_back();
    for (const CExpr& e : s->exprs) {
      std::vector<const CExpr*> exprs{&e};
      while (!exprs.empty()) {
        const CExpr* x = exprs.back();
        exprs.pop_back();
        if (x->kind == CExprKind::kCall && x->text.ends_with("___tvm_main__")) {
          for (const CExpr& a : x->args)
            cast = cast || (a.kind == CExprKind::kCast && has_pointer_cast(a) && !a.args.empty() &&
                            strip_casts(a).kind == CExprKind::kUnary && strip_casts(a).text == "&");
        }
        for (const CExpr& a : x->args)
          exprs.push_back(&a);
      }
    }
    for (const CStmt& c : s->body)
      stack.push_back(&c);
  }
  return cast;
}

}  // namespace

std::string tvm_era_of_code(const CProgram& program, const TvmCode& code) {
  if (code.entry >= 0 && program.functions[static_cast<size_t>(code.entry)].name.ends_with("_run_model")) {
    return "before 0.9";
  }
  for (const InternalPool& p : code.internal_pools) {
    const CGlobal* g = program.find_global(p.name);
    if (p.constant && g && g->is_const) return "0.17 or later";
  }
  if (run_wrapper_casts_pools(program, code)) return "0.15 to 0.16";
  if (!code.io_sizes.empty()) return "0.11 to 0.14";
  if (code.usmp() && !code.internal_pools.empty()) return "0.9 to 0.10";
  return "";
}

}  // namespace usmpx
