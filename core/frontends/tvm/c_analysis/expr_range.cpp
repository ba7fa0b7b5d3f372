#include "frontends/tvm/c_analysis/expr_range.h"

#include <algorithm>

#include "frontends/tvm/c_analysis/tvm_code.h"

namespace usmpx {
namespace {

ValueRange evaluate_binary(const CExpr& e, RangeContext& ranges, const VariableValue& value_of) {
  if (e.args.size() != 2) return ValueRange::unknown();
  const std::string& op = e.text;
  if (op == "<" || op == ">" || op == "<=" || op == ">=" || op == "==" || op == "!=" || op == "&&" || op == "||") {
    return ValueRange::between(0, 1);
  }
  if (op == ",") return evaluate_expr(e.args[1], ranges, value_of);
  const ValueRange a = evaluate_expr(e.args[0], ranges, value_of);
  const ValueRange b = evaluate_expr(e.args[1], ranges, value_of);
  if (op == "+") return ranges.add(a, b);
  if (op == "-") return ranges.sub(a, b);
  if (op == "*") return ranges.mul(a, b);
  if (op == "/") return ranges.div(a, b);
  if (op == "%") return ranges.mod(a, b);
  if (op == "<<") return ranges.shl(a, b);
  if (op == ">>") return ranges.shr(a, b);
  if (op == "&") return ranges.bit_and(a, b);
  return ValueRange::unknown();
}

}  // namespace

ValueRange evaluate_expr(const CExpr& e, RangeContext& ranges, const VariableValue& value_of) {
  switch (e.kind) {
    case CExprKind::kIntLiteral: return ValueRange::exactly(e.value);
    case CExprKind::kName: return e.decl >= 0 ? value_of(e.decl) : ValueRange::unknown();
    case CExprKind::kCast: {
      const bool integral = e.type.find('*') == std::string::npos && e.type.find("float") == std::string::npos &&
                            e.type.find("double") == std::string::npos && e.type != "void";
      return integral && !e.args.empty() ? evaluate_expr(e.args[0], ranges, value_of) : ValueRange::unknown();
    }
    case CExprKind::kUnary:
      if (e.args.empty()) return ValueRange::unknown();
      if (e.text == "-") return ranges.negate(evaluate_expr(e.args[0], ranges, value_of));
      if (e.text == "+") return evaluate_expr(e.args[0], ranges, value_of);
      if (e.text == "!") return ValueRange::between(0, 1);
      return ValueRange::unknown();
    case CExprKind::kConditional:
      return e.args.size() == 3
                 ? ranges.hull(evaluate_expr(e.args[1], ranges, value_of), evaluate_expr(e.args[2], ranges, value_of))
                 : ValueRange::unknown();
    case CExprKind::kBinary: return evaluate_binary(e, ranges, value_of);
    default: return ValueRange::unknown();
  }
}

bool steps_up(const CExpr& inc, int var) {
  const auto is_var = [&](const CExpr& e) {
    return strip_casts(e).kind == CExprKind::kName && strip_casts(e).decl == var;
  };
  if (inc.kind == CExprKind::kUnary && inc.text == "++" && !inc.args.empty()) return is_var(inc.args[0]);
  if (inc.kind == CExprKind::kBinary && inc.args.size() == 2 && is_var(inc.args[0])) {
    const CExpr& step = strip_casts(inc.args[1]);
    if (inc.text == "+=") return step.kind == CExprKind::kIntLiteral && step.value > 0;
    if (inc.text == "=") {
      return step.kind == CExprKind::kBinary && step.text == "+" && step.args.size() == 2 && is_var(step.args[0]) &&
             strip_casts(step.args[1]).kind == CExprKind::kIntLiteral && strip_casts(step.args[1]).value > 0;
    }
  }
  return false;
}

ValueRange loop_range(const CStmt& loop, int var, const ValueRange& start, RangeContext& ranges,
                      const VariableValue& value_of) {
  const CExpr& cond = loop.exprs[0];
  if (var < 0 || !start.known || cond.kind != CExprKind::kBinary || cond.args.size() != 2 ||
      strip_casts(cond.args[0]).kind != CExprKind::kName || strip_casts(cond.args[0]).decl != var ||
      !steps_up(loop.exprs[1], var)) {
    return ValueRange::unknown();
  }
  const ValueRange bound = evaluate_expr(cond.args[1], ranges, value_of);
  if (!bound.known || (cond.text != "<" && cond.text != "<=")) return ValueRange::unknown();
  const int64_t last = cond.text == "<" ? bound.hi - 1 : bound.hi;
  return ranges.symbol(start.lo, std::max(start.lo, last));
}

}  // namespace usmpx
