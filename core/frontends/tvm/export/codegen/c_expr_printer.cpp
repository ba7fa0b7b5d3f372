#include "frontends/tvm/export/codegen/c_expr_printer.h"

#include "export/export_error.h"
#include "frontends/tvm/export/codegen/c_call_printer.h"

namespace usmpx::cexport {
namespace {

using tir::BinaryOp;

// C writes TIR's operators as TIR prints them, except those without a C operator (nullptr).
const char* c_operator(BinaryOp op) {
  switch (op) {
    case BinaryOp::kFloorDiv:
    case BinaryOp::kFloorMod:
    case BinaryOp::kMin:
    case BinaryOp::kMax: return nullptr;
    default: return tir::to_string(op).data();  // a string literal
  }
}

void require_scalar(const tir::Expr& e) {
  if (e.dtype.lanes != 1)
    throw ExportError::unsupported(e.location, "a vector expression (" + e.dtype.to_string() + ")");
}

}  // namespace

std::string ExprPrinter::print(const tir::Expr& e) {
  require_scalar(e);
  switch (e.kind) {
    case tir::ExprKind::kIntImm: return int_literal(static_cast<const tir::IntImm&>(e).value, e.dtype);
    case tir::ExprKind::kFloatImm:
      c_type(e.dtype, e.location);  // float16 and friends are refused
      return float_literal(static_cast<const tir::FloatImm&>(e).value, e.dtype);
    case tir::ExprKind::kStringImm: return c_string_literal(static_cast<const tir::StringImm&>(e).value);
    case tir::ExprKind::kVar: {
      const tir::Var& v = *static_cast<const tir::VarUse&>(e).var;
      if (const std::string* pool = ctx_.old_pool(v)) return ctx_.pool_var(*pool, e.location);
      return ctx_.var(v, e.location).name;
    }
    case tir::ExprKind::kBufferLoad: {
      const auto& load = static_cast<const tir::BufferLoad&>(e);
      return element(*load.buffer, load.indices, e.location);
    }
    case tir::ExprKind::kCall: return call(static_cast<const tir::Call&>(e));
    case tir::ExprKind::kBinary: return binary(static_cast<const tir::Binary&>(e));
    case tir::ExprKind::kNot: return "(!" + print(*static_cast<const tir::Not&>(e).a) + ")";
    case tir::ExprKind::kCast:
      return "((" + c_type(e.dtype, e.location) + ")" + print(*static_cast<const tir::Cast&>(e).value) + ")";
    case tir::ExprKind::kSelect: {
      const auto& s = static_cast<const tir::Select&>(e);
      const std::string condition = print(*s.condition);
      return "(" + condition + " ? " + print_conditional(*s.true_value) + " : " + print_conditional(*s.false_value) +
             ")";
    }
    case tir::ExprKind::kRamp: {
      // Only reachable with one lane (require_scalar): the ramp is its base.
      return print(*static_cast<const tir::Ramp&>(e).base);
    }
    case tir::ExprKind::kBroadcast: return print(*static_cast<const tir::Broadcast&>(e).value);
    case tir::ExprKind::kOpaque:
      throw ExportError::unsupported(e.location, "'" + static_cast<const tir::Opaque&>(e).text + "'");
  }
  throw ExportError::unsupported(e.location, "this expression");
}

std::string ExprPrinter::print_conditional(const tir::Expr& e) {
  ++conditional_;
  std::string text = print(e);
  --conditional_;
  return text;
}

std::string ExprPrinter::operand(const tir::Expr& e) {
  std::string text = print(e);
  if (conditional_ > 0 || is_simple_operand(text)) return text;
  const auto known = temps_.find(text);
  if (known != temps_.end()) return known->second;
  std::string name = ctx_.names.fresh("v_");
  hoisted_.push_back(indent_ + c_type(e.dtype, e.location) + " " + name + " = " + strip_outer_parens(text) + ";");
  temps_.emplace(std::move(text), name);
  return name;
}

std::string ExprPrinter::binary(const tir::Binary& b) {
  switch (b.op) {
    case BinaryOp::kMin:
    case BinaryOp::kMax: {
      const std::string x = operand(*b.a);
      const std::string y = operand(*b.b);
      const char* op = b.op == BinaryOp::kMin ? " < " : " > ";
      return "((" + x + ")" + op + "(" + y + ") ? (" + x + ") : (" + y + "))";
    }
    case BinaryOp::kFloorDiv:
    case BinaryOp::kFloorMod: return floor_div_mod(b);
    case BinaryOp::kMod:
      if (b.a->dtype.is_float()) {
        const std::string name = b.a->dtype.bits == 32 ? "fmodf(" : "fmod(";
        return name + print(*b.a) + ", " + print(*b.b) + ")";
      }
      break;
    case BinaryOp::kAnd:
    case BinaryOp::kOr: {
      // The right side is evaluated only when the left does not decide.
      const std::string x = print(*b.a);
      return "(" + x + " " + c_operator(b.op) + " " + print_conditional(*b.b) + ")";
    }
    default: break;
  }
  const std::string x = print(*b.a);
  return "(" + x + " " + c_operator(b.op) + " " + print(*b.b) + ")";
}

// TIR's floordiv/floormod round toward minus infinity, C's / and % toward zero. They agree when
// the dividend is non-negative and the divisor positive (loop indices, the usual case), where
// TVM prints plain / and %; otherwise the quotient is corrected when the remainder is non-zero
// and its sign differs from the divisor's.
std::string ExprPrinter::floor_div_mod(const tir::Binary& b) {
  const bool div = b.op == BinaryOp::kFloorDiv;
  const tir::DataType t = b.a->dtype;
  if (t.is_float()) {
    const std::string x = operand(*b.a);
    const std::string y = operand(*b.b);
    const std::string floor = (t.bits == 32 ? "floorf((" : "floor((") + x + " / " + y + "))";
    return div ? floor : "(" + x + " - (" + floor + " * " + y + "))";
  }
  const std::optional<int64_t> divisor = tir::constant_int(b.b.get());
  if (t.is_uint() || (divisor && *divisor > 0 && non_negative(*b.a))) {
    const std::string x = print(*b.a);
    return "(" + x + (div ? " / " : " % ") + print(*b.b) + ")";
  }
  const std::string x = operand(*b.a);
  const std::string y = operand(*b.b);
  const std::string rem = "(" + x + " % " + y + ")";
  const std::string wrong_sign =
      divisor && *divisor > 0 ? "(" + rem + " < 0)" : "((" + rem + " != 0) && ((" + rem + " < 0) != (" + y + " < 0)))";
  if (div) return "(" + wrong_sign + " ? ((" + x + " / " + y + ") - 1) : (" + x + " / " + y + "))";
  return "(" + wrong_sign + " ? (" + rem + " + " + y + ") : " + rem + ")";
}

bool ExprPrinter::non_negative(const tir::Expr& e) const {
  switch (e.kind) {
    case tir::ExprKind::kIntImm: return static_cast<const tir::IntImm&>(e).value >= 0;
    case tir::ExprKind::kVar: return ctx_.non_negative.count(static_cast<const tir::VarUse&>(e).var.get()) > 0;
    case tir::ExprKind::kBufferLoad: return e.dtype.is_uint();
    case tir::ExprKind::kCast: {
      const tir::Expr& v = *static_cast<const tir::Cast&>(e).value;
      if (!e.dtype.is_int() && !e.dtype.is_uint()) return false;
      if (v.dtype.is_bool()) return true;
      const bool widening = v.dtype.is_int() ? v.dtype.bits <= e.dtype.bits : v.dtype.bits < e.dtype.bits;
      return (v.dtype.is_int() || v.dtype.is_uint()) && widening && non_negative(v);
    }
    case tir::ExprKind::kBinary: {
      const auto& b = static_cast<const tir::Binary&>(e);
      if (tir::is_comparison(b.op) || b.op == BinaryOp::kAnd || b.op == BinaryOp::kOr) return true;
      if (b.a->dtype.is_float()) return false;
      switch (b.op) {
        case BinaryOp::kAdd:
        case BinaryOp::kMul:
        case BinaryOp::kDiv:
        case BinaryOp::kMod:
        case BinaryOp::kFloorDiv:
        case BinaryOp::kFloorMod:
        case BinaryOp::kMin: return non_negative(*b.a) && non_negative(*b.b);
        case BinaryOp::kMax: return non_negative(*b.a) || non_negative(*b.b);
        default: return false;
      }
    }
    case tir::ExprKind::kSelect: {
      const auto& s = static_cast<const tir::Select&>(e);
      return non_negative(*s.true_value) && non_negative(*s.false_value);
    }
    default: return false;
  }
}

std::string ExprPrinter::flat_index(const tir::Buffer& buffer, const std::vector<tir::ExprRef>& indices,
                                    const SourceLocation& at) {
  std::string index;
  if (indices.size() == 1) {
    index = print(*indices.front());
  } else if (indices.size() == buffer.shape.size() && !indices.empty()) {
    if (buffer.strides.size() == indices.size()) {
      for (size_t k = 0; k < indices.size(); ++k) {
        const std::string i = print(*indices[k]);
        const std::string term = binary_text(i, "*", print(*buffer.strides[k]));
        index = index.empty() ? term : binary_text(index, "+", term);
      }
    } else {
      // Row-major: ((i0 * n1) + i1) * n2 + i2 ...
      index = print(*indices.front());
      for (size_t k = 1; k < indices.size(); ++k) {
        const std::string i = print(*indices[k]);
        index = index == "0" ? i : binary_text(binary_text(index, "*", print(*buffer.shape[k])), "+", i);
      }
    }
  } else {
    throw ExportError(at, "buffer '" + buffer.name + "' has " + std::to_string(buffer.shape.size()) +
                              " dimensions but is indexed with " + std::to_string(indices.size()));
  }
  if (buffer.elem_offset) index = "(" + print(*buffer.elem_offset) + " + " + index + ")";
  return index;
}

std::string ExprPrinter::element(const tir::Buffer& buffer, const std::vector<tir::ExprRef>& indices,
                                 const SourceLocation& at) {
  const std::string type = c_type(buffer.dtype, at);
  const std::string index = flat_index(buffer, indices, at);
  if (const std::string* pool = ctx_.old_pool(*buffer.data)) {
    const std::string base = ctx_.pool_var(*pool, at);
    return type == "uint8_t" ? base + "[" + index + "]" : "((" + type + "*)" + base + ")[" + index + "]";
  }
  const CVar& v = ctx_.var(*buffer.data, at);
  if (v.kind == CVar::Kind::kScalar) {
    throw ExportError(
        at, "buffer '" + buffer.name + "' is declared on '" + buffer.data->name + "', which is not a pointer");
  }
  if (!v.constant && v.element == type) return v.name + "[" + index + "]";
  return "((" + type + "*)" + v.name + ")[" + index + "]";
}

std::string ExprPrinter::call(const tir::Call& c) {
  return CallPrinter(*this, ctx_).print(c);
}

// The C pointer type of an argument when it is known: "int8_t*", "const float*", "void*"; else "".
std::string ExprPrinter::pointer_type(const tir::Expr& e) const {
  if (const auto* use = e.as<tir::VarUse>()) {
    if (ctx_.old_pool(*use->var)) return "uint8_t*";
    const auto it = ctx_.vars.find(use->var.get());
    if (it == ctx_.vars.end() || it->second.kind == CVar::Kind::kScalar) return "";
    const CVar& v = it->second;
    if (v.element.empty()) return "void*";
    return (v.constant ? "const " : "") + v.element + "*";
  }
  const auto* call = e.as<tir::Call>();
  if (call && call->op == "address_of" && call->args.size() == 1) {
    if (const auto* load = call->args[0]->as<tir::BufferLoad>()) {
      if (const std::optional<std::string> t = c_type_name(load->buffer->dtype)) return *t + "*";
    }
  }
  return "";
}

}  // namespace usmpx::cexport
