#include <algorithm>
#include <limits>

#include "frontends/tvm/tir/make.h"
#include "frontends/tvm/tir/node.h"

namespace usmpx::tir {
namespace {

// Product of constant extents times the element size; nullopt when an extent is not a
// non-negative constant or the product does not fit in 62 bits.
std::optional<int64_t> extents_bytes(DataType dtype, const std::vector<ExprRef>& extents) {
  int64_t total = dtype.bytes();
  constexpr int64_t kLimit = std::numeric_limits<int64_t>::max() / 4;
  for (const ExprRef& e : extents) {
    const std::optional<int64_t> v = constant_int(e.get());
    if (!v || *v < 0) return std::nullopt;
    if (*v != 0 && total > kLimit / *v) return std::nullopt;
    total *= *v;
  }
  return total;
}

}  // namespace

const AttrValue* AttrValue::find(std::string_view key) const {
  for (const auto& [k, v] : entries) {
    if (k == key) return &v;
  }
  return nullptr;
}

std::optional<int64_t> AttrValue::as_int() const {
  if (kind == Kind::kInt) return int_value;
  if (kind == Kind::kBool) return bool_value ? 1 : 0;
  if (kind == Kind::kExpr) return constant_int(expr.get());
  return std::nullopt;
}

std::optional<std::string> AttrValue::as_string() const {
  if (kind == Kind::kString) return text;
  if (kind == Kind::kExpr && expr) {
    if (const auto* s = expr->as<StringImm>()) return s->value;
  }
  return std::nullopt;
}

const AttrValue* find_attr(const Attrs& attrs, std::string_view key) {
  for (const auto& [k, v] : attrs) {
    if (k == key) return &v;
  }
  return nullptr;
}

std::optional<int64_t> Buffer::static_size_bytes() const {
  return extents_bytes(dtype, shape);
}
std::optional<int64_t> Allocate::static_size_bytes() const {
  return extents_bytes(dtype, extents);
}
std::optional<int64_t> AllocateConst::static_size_bytes() const {
  return extents_bytes(dtype, extents);
}

std::string_view to_string(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd: return "+";
    case BinaryOp::kSub: return "-";
    case BinaryOp::kMul: return "*";
    case BinaryOp::kDiv: return "/";
    case BinaryOp::kMod: return "%";
    case BinaryOp::kFloorDiv: return "floordiv";
    case BinaryOp::kFloorMod: return "floormod";
    case BinaryOp::kMin: return "min";
    case BinaryOp::kMax: return "max";
    case BinaryOp::kEq: return "==";
    case BinaryOp::kNe: return "!=";
    case BinaryOp::kLt: return "<";
    case BinaryOp::kLe: return "<=";
    case BinaryOp::kGt: return ">";
    case BinaryOp::kGe: return ">=";
    case BinaryOp::kAnd: return "&&";
    case BinaryOp::kOr: return "||";
  }
  return "?";
}

bool is_comparison(BinaryOp op) {
  return op == BinaryOp::kEq || op == BinaryOp::kNe || op == BinaryOp::kLt || op == BinaryOp::kLe ||
         op == BinaryOp::kGt || op == BinaryOp::kGe;
}

std::string_view to_string(ForKind kind) {
  switch (kind) {
    case ForKind::kSerial: return "serial";
    case ForKind::kParallel: return "parallel";
    case ForKind::kVectorized: return "vectorized";
    case ForKind::kUnrolled: return "unroll";
    case ForKind::kThreadBinding: return "thread_binding";
  }
  return "?";
}

BufferRef PrimFunc::buffer_of(const Var* param) const {
  for (const BufferBinding& b : buffer_map) {
    if (b.param.get() == param) return b.buffer;
  }
  return nullptr;
}

std::optional<std::string> PrimFunc::global_symbol() const {
  const AttrValue* v = find_attr(attrs, "global_symbol");
  return v ? v->as_string() : std::nullopt;
}

std::string PrimFunc::target() const {
  const AttrValue* v = find_attr(attrs, "target");
  if (!v) return "";
  if (std::optional<std::string> s = v->as_string()) return *s;
  if (v->kind == AttrValue::Kind::kCall && !v->items.empty()) {
    // T.target("c -keys=cpu") or T.target({"kind": "c", ...})
    const AttrValue& arg = v->items.front();
    if (std::optional<std::string> s = arg.as_string()) return *s;
    if (const AttrValue* kind = arg.find("kind")) {
      if (std::optional<std::string> s = kind->as_string()) return *s;
    }
  }
  if (v->kind == AttrValue::Kind::kRaw) {
    // Legacy printers write a target's debug string: Target(id=..., kind='c', keys={...}, ...).
    const size_t k = v->text.find("kind='");
    if (k != std::string::npos) {
      const size_t begin = k + 6;
      const size_t end = v->text.find('\'', begin);
      if (end != std::string::npos) return v->text.substr(begin, end - begin);
    }
    return v->text;
  }
  return "";
}

const PrimFunc* Module::find(std::string_view name) const {
  for (const PrimFunc& f : functions) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

// ---------------------------------------------------------------------------------------------

std::optional<int64_t> constant_int(const Expr* e) {
  if (e == nullptr) return std::nullopt;
  if (const auto* i = e->as<IntImm>()) return i->value;
  return std::nullopt;
}

template <typename Imm, typename Value>
ExprRef make_imm(Value value, DataType dtype, const SourceLocation& at) {
  auto n = std::make_shared<Imm>();
  n->value = value;
  n->dtype = dtype;
  n->location = at;
  return n;
}

ExprRef make_int(int64_t value, DataType dtype, const SourceLocation& at) {
  return make_imm<IntImm>(value, dtype, at);
}

ExprRef make_float(double value, DataType dtype, const SourceLocation& at) {
  return make_imm<FloatImm>(value, dtype, at);
}

ExprRef make_string(std::string value, const SourceLocation& at) {
  auto n = std::make_shared<StringImm>();
  n->value = std::move(value);
  n->dtype = DataType::handle();
  n->location = at;
  return n;
}

ExprRef make_var_use(const VarRef& var, const SourceLocation& at) {
  auto n = std::make_shared<VarUse>();
  n->var = var;
  n->dtype = var->dtype;
  n->location = at;
  return n;
}

namespace {

bool is_int32_literal(const Expr& e) {
  return e.as<IntImm>() && e.dtype == DataType::int_(32);
}

// The operand type arithmetic on a and b produces.
DataType promote(const Expr& a, const Expr& b) {
  if (a.dtype == b.dtype) return a.dtype;
  if (is_int32_literal(a)) return b.dtype;
  if (is_int32_literal(b)) return a.dtype;
  if (a.dtype.is_float() != b.dtype.is_float()) return a.dtype.is_float() ? a.dtype : b.dtype;
  return a.dtype.bits >= b.dtype.bits ? a.dtype : b.dtype;
}

}  // namespace

ExprRef make_binary(BinaryOp op, ExprRef a, ExprRef b, const SourceLocation& at) {
  auto n = std::make_shared<Binary>();
  const DataType operand = promote(*a, *b);
  n->op = op;
  n->dtype = (is_comparison(op) || op == BinaryOp::kAnd || op == BinaryOp::kOr)
                 ? DataType::boolean().with_lanes(operand.lanes)
                 : operand;
  n->a = std::move(a);
  n->b = std::move(b);
  n->location = at;
  return n;
}

ExprRef make_not(ExprRef a, const SourceLocation& at) {
  auto n = std::make_shared<Not>();
  n->dtype = DataType::boolean();
  n->a = std::move(a);
  n->location = at;
  return n;
}

ExprRef make_cast(DataType dtype, ExprRef value, const SourceLocation& at) {
  auto n = std::make_shared<Cast>();
  n->dtype = dtype;
  n->value = std::move(value);
  n->location = at;
  return n;
}

ExprRef make_call(std::string op, std::vector<ExprRef> args, DataType dtype, const SourceLocation& at, bool global) {
  auto n = std::make_shared<Call>();
  n->op = std::move(op);
  n->global = global;
  n->args = std::move(args);
  n->dtype = dtype;
  n->location = at;
  return n;
}

ExprRef make_load(BufferRef buffer, std::vector<ExprRef> indices, const SourceLocation& at) {
  auto n = std::make_shared<BufferLoad>();
  int lanes = 1;
  for (const ExprRef& i : indices)
    lanes = std::max(lanes, i->dtype.lanes);
  n->dtype = buffer->dtype.with_lanes(buffer->dtype.lanes * lanes);
  n->buffer = std::move(buffer);
  n->indices = std::move(indices);
  n->location = at;
  return n;
}

StmtRef make_seq(std::vector<StmtRef> stmts, const SourceLocation& at) {
  if (stmts.size() == 1) return std::move(stmts.front());
  auto n = std::make_shared<SeqStmt>();
  n->seq = std::move(stmts);
  n->location = at;
  return n;
}

}  // namespace usmpx::tir
