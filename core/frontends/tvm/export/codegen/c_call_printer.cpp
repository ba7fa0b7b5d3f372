#include "frontends/tvm/export/codegen/c_call_printer.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "base/text_join.h"
#include "export/export_error.h"

namespace usmpx::cexport {
namespace {

const std::string& string_arg(const tir::Call& c, size_t i, std::string_view what) {
  const auto* s = i < c.args.size() ? c.args[i]->as<tir::StringImm>() : nullptr;
  if (!s) throw ExportError(c.location, std::string(what) + " needs a string as argument " + std::to_string(i + 1));
  return s->value;
}

void require_args(const tir::Call& c, size_t n) {
  if (c.args.size() != n) {
    throw ExportError(c.location,
                      "'" + c.op + "' takes " + std::to_string(n) + " arguments, not " + std::to_string(c.args.size()));
  }
}

struct MathFunction {
  std::string_view name;
  size_t arity;
};

// TIR math intrinsics that are C library functions of the same name (the float32 version with
// an 'f' suffix).
constexpr std::array<MathFunction, 28> kMath = {{
    {"exp", 1},   {"exp2", 1}, {"expm1", 1}, {"log", 1},  {"log2", 1},  {"log10", 1}, {"log1p", 1},
    {"sqrt", 1},  {"cbrt", 1}, {"tanh", 1},  {"sinh", 1}, {"cosh", 1},  {"sin", 1},   {"cos", 1},
    {"tan", 1},   {"asin", 1}, {"acos", 1},  {"atan", 1}, {"atan2", 2}, {"erf", 1},   {"round", 1},
    {"floor", 1}, {"ceil", 1}, {"trunc", 1}, {"fabs", 1}, {"pow", 2},   {"fmod", 2},  {"nearbyint", 1},
}};

}  // namespace

std::string CallPrinter::print(const tir::Call& c) {
  if (const tir::PrimFunc* callee = ctx_.module.callee(c)) return module_call(c, *callee);
  if (c.global) throw ExportError(c.location, "call of '" + c.op + "', which is not a function of the module");
  const std::string& op = c.op;
  if (op == "call_extern" || op == "call_pure_extern") return extern_call(c);
  if (op == "tvm_call_cpacked" || op == "tvm_call_packed") {
    throw ExportError::unsupported(
        c.location, "the packed call of '" + string_arg(c, 0, op) + "', which is not a function of the module,");
  }
  if (op == "address_of") {
    require_args(c, 1);
    const auto* load = c.args[0]->as<tir::BufferLoad>();
    if (!load) throw ExportError::unsupported(c.location, "address_of of something other than a buffer element");
    return "(&(" + exprs_.element(*load->buffer, load->indices, load->location) + "))";
  }
  if (op == "if_then_else") {
    require_args(c, 3);
    const std::string condition = exprs_.print(*c.args[0]);
    return "(" + condition + " ? " + exprs_.print_conditional(*c.args[1]) + " : " +
           exprs_.print_conditional(*c.args[2]) + ")";
  }
  if (op == "likely") {
    require_args(c, 1);
    return exprs_.print(*c.args[0]);
  }
  if (op == "q_multiply_shift") return q_multiply_shift(c);
  if (op == "lookup_param") {
    const std::string& name = string_arg(c, 0, op);
    auto [it, added] = ctx_.module.params.emplace(name, "");
    if (added) it->second = ctx_.module.globals.fresh("__tvm_param__" + sanitize_identifier(name));
    return "((void*)" + it->second + ")";
  }
  if (op == "shift_left" || op == "shift_right" || op == "bitwise_and" || op == "bitwise_or" || op == "bitwise_xor") {
    require_args(c, 2);
    const char* symbol = op == "shift_left"    ? " << "
                         : op == "shift_right" ? " >> "
                         : op == "bitwise_and" ? " & "
                         : op == "bitwise_or"  ? " | "
                                               : " ^ ";
    const std::string x = exprs_.print(*c.args[0]);
    return "(" + x + symbol + exprs_.print(*c.args[1]) + ")";
  }
  if (op == "bitwise_not") {
    require_args(c, 1);
    return "(~" + exprs_.print(*c.args[0]) + ")";
  }
  if (op == "tvm_check_return") {
    throw ExportError::unsupported(c.location, "tvm_check_return other than as a statement");
  }
  return math(c);
}

std::string CallPrinter::math(const tir::Call& c) {
  const std::string& op = c.op;
  const tir::DataType t = c.dtype;
  const bool single = t.code == tir::DataType::Code::kFloat && t.bits == 32;
  const bool is_double = t.code == tir::DataType::Code::kFloat && t.bits == 64;
  if (op == "abs") {
    require_args(c, 1);
    if (single || is_double) return std::string(single ? "fabsf(" : "fabs(") + exprs_.print(*c.args[0]) + ")";
    const std::string x = exprs_.operand(*c.args[0]);
    return "((" + x + ") < 0 ? (-(" + x + ")) : (" + x + "))";
  }
  const bool known = op == "sigmoid" || op == "rsqrt" || op == "isnan" ||
                     std::any_of(kMath.begin(), kMath.end(), [&](const MathFunction& m) { return m.name == op; });
  if (!known) throw ExportError::unsupported(c.location, "the intrinsic '" + op + "'");
  if (op == "isnan") {
    require_args(c, 1);
    return "(isnan(" + exprs_.print(*c.args[0]) + ") != 0)";
  }
  if (!single && !is_double) throw ExportError::unsupported(c.location, "'" + op + "' on " + t.to_string());
  const std::string suffix = single ? "f" : "";
  const std::string one = float_literal(1.0, t);
  if (op == "sigmoid") {
    require_args(c, 1);
    return "(" + one + " / (" + one + " + exp" + suffix + "((" + float_literal(0.0, t) + " - " +
           exprs_.print(*c.args[0]) + "))))";
  }
  if (op == "rsqrt") {
    require_args(c, 1);
    return "(" + one + " / sqrt" + suffix + "(" + exprs_.print(*c.args[0]) + "))";
  }
  const auto m = std::find_if(kMath.begin(), kMath.end(), [&](const MathFunction& f) { return f.name == op; });
  require_args(c, m->arity);
  std::vector<std::string> args;
  for (const tir::ExprRef& a : c.args)
    args.push_back(exprs_.print(*a));
  return op + suffix + "(" + join(args, ", ") + ")";
}

std::string CallPrinter::extern_call(const tir::Call& c) {
  const std::string& name = string_arg(c, 0, c.op);
  if (sanitize_identifier(name) != name) throw ExportError(c.location, "'" + name + "' is not a C function name");
  ctx_.module.extern_functions.insert(name);
  std::vector<std::string> args;
  for (size_t i = 1; i < c.args.size(); ++i)
    args.push_back(exprs_.print(*c.args[i]));
  return name + "(" + join(args, ", ") + ")";
}

std::string CallPrinter::module_call(const tir::Call& c, const tir::PrimFunc& callee) {
  const CFunction& target = *ctx_.module.find(&callee);
  // The arguments without the pool arguments a post-USMP dump passes (they are added anew).
  std::vector<const tir::Expr*> args;
  for (size_t i = c.global ? 0 : 1; i < c.args.size(); ++i) {
    const auto* use = c.args[i]->as<tir::VarUse>();
    if (use && ctx_.old_pool(*use->var)) continue;
    args.push_back(c.args[i].get());
  }
  if (args.size() != target.params.size()) {
    throw ExportError(c.location, "the call of '" + target.symbol + "' passes " + std::to_string(args.size()) +
                                      " arguments to its " + std::to_string(target.params.size()) + " parameters");
  }
  std::vector<std::string> texts;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string text = exprs_.print(*args[i]);
    // Pass pointers of another element type (or constant arrays) with a cast, as C wants.
    const std::string& wanted = target.param_types[i];
    const std::string have = exprs_.pointer_type(*args[i]);
    if (wanted.ends_with("*") && wanted != "void*" && !have.empty() && have != "void*" && have != wanted) {
      text = cast_text(wanted, text);
    }
    texts.push_back(std::move(text));
  }
  if (!target.pool_vars.empty()) {
    if (ctx_.function.pool_vars.empty()) {
      throw ExportError(c.location, "'" + ctx_.function.symbol + "' calls '" + target.symbol +
                                        "' but is not called from main, so it has no pools to pass on");
    }
    const auto at = texts.begin() + static_cast<std::ptrdiff_t>(texts.size() - (target.trailing_handle ? 1 : 0));
    texts.insert(at, ctx_.function.pool_vars.begin(), ctx_.function.pool_vars.end());
  }
  return target.symbol + "(" + join(texts, ", ") + ")";
}

// TVM's lowering of q_multiply_shift(x, m, q, s) for C (out = round(x * m * 2^(s - q)), rounding
// half up), printed as TVM prints it: with the shift s split into a left shift max(s, 0) and a
// right shift max(-s, 0), 64-bit arithmetic, and x printed twice.
std::string CallPrinter::q_multiply_shift(const tir::Call& c) {
  require_args(c, 4);
  if (c.args[0]->dtype != tir::DataType::int_(32)) {
    throw ExportError::unsupported(c.location, "q_multiply_shift on " + c.args[0]->dtype.to_string());
  }
  const std::string x = "((int64_t)" + exprs_.print(*c.args[0]) + ")";
  const std::optional<int64_t> m_value = tir::constant_int(c.args[1].get());
  const std::string m =
      m_value ? int_literal(*m_value, tir::DataType::int_(64)) : "((int64_t)" + exprs_.print(*c.args[1]) + ")";
  const std::string q = exprs_.print(*c.args[2]);
  std::string left;
  std::string right;
  if (const std::optional<int64_t> s = tir::constant_int(c.args[3].get())) {
    left = std::to_string(*s > 0 ? *s : 0);
    right = std::to_string(*s > 0 ? 0 : -*s);
  } else {
    const std::string s_text = exprs_.operand(*c.args[3]);
    left = "((" + s_text + " > 0) ? " + s_text + " : 0)";
    right = "((" + s_text + " > 0) ? 0 : (0 - " + s_text + "))";
  }
  const std::string total = "(" + right + " + " + q + ")";
  const std::string shifted = "((" + left + " != 0) ? (" + x + " << ((int64_t)" + left + ")) : " + x + ")";
  const std::string product = "(" + shifted + " * " + m + ")";
  const std::string rounding = "((int64_t)1 << ((int64_t)(" + total + " - 1)))";
  return "((int32_t)((" + product + " + " + rounding + ") >> ((int64_t)" + total + ")))";
}

}  // namespace usmpx::cexport
