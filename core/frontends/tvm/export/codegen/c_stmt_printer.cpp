#include "frontends/tvm/export/codegen/c_stmt_printer.h"

#include "export/export_error.h"
#include "frontends/tvm/export/codegen/c_constants.h"
#include "frontends/tvm/export/codegen/c_expr_printer.h"
#include "frontends/tvm/tir/walk.h"

namespace usmpx::cexport {
namespace {

// TVM's LowerTVMBuiltin keeps constant-size allocations below this many bytes on the stack.
constexpr int64_t kMaxStackAlloca = 1024;

// DLPack type codes, the dtype hint of TVMBackendAllocWorkspace.
int dl_type_code(tir::DataType t) {
  if (t.code == tir::DataType::Code::kBFloat) return 4;
  return t.is_float() ? 2 : t.is_uint() ? 1 : 0;
}

std::string indent_text(int indent) {
  return std::string(static_cast<size_t>(indent), ' ');
}

// The element type and count of the largest static buffer viewing `var` inside `body` (for the
// constant lets of post-USMP dumps, whose type and length only their views tell).
std::pair<tir::DataType, int64_t> largest_view(const tir::Var& var, const tir::Stmt& body, tir::DataType fallback) {
  tir::DataType dtype = fallback;
  int64_t best = -1;
  const auto consider = [&](const tir::Buffer& b) {
    const std::optional<int64_t> size = b.static_size_bytes();
    if (b.data.get() == &var && size && *size > best) {
      best = *size;
      dtype = b.dtype;
    }
  };
  std::vector<const tir::Stmt*> stmts{&body};
  std::vector<const tir::Expr*> exprs;
  const auto on_expr = [&](const tir::Expr& e) { exprs.push_back(&e); };
  while (!stmts.empty() || !exprs.empty()) {
    if (!exprs.empty()) {
      const tir::Expr* e = exprs.back();
      exprs.pop_back();
      if (const auto* l = e->as<tir::BufferLoad>()) consider(*l->buffer);
      tir::for_each_child(*e, on_expr);
      continue;
    }
    const tir::Stmt* s = stmts.back();
    stmts.pop_back();
    if (const auto* d = s->as<tir::DeclBuffer>()) consider(*d->buffer);
    if (const auto* st = s->as<tir::BufferStore>()) consider(*st->buffer);
    tir::for_each_child(
        *s, [&](const tir::Stmt& c) { stmts.push_back(&c); }, on_expr);
  }
  return {dtype, best < 0 ? 0 : best / dtype.bytes()};
}

}  // namespace

bool StmtPrinter::points_into_old_pool(const tir::LetStmt& l) const {
  const auto* call = l.value->as<tir::Call>();
  if (!call || call->global || call->op != "address_of" || call->args.size() != 1) return false;
  const auto* load = call->args[0]->as<tir::BufferLoad>();
  return load && ctx_.old_pool(*load->buffer->data);
}

void StmtPrinter::emit_hoisted(std::vector<std::string>& hoisted) {
  lines_.insert(lines_.end(), hoisted.begin(), hoisted.end());
  hoisted.clear();
}

void StmtPrinter::void_if_unused(const tir::Var& var, const std::string& name, int indent, bool array) {
  if ((array ? ctx_.read : ctx_.used).count(&var) == 0) emit(indent, "(void)" + name + ";");
}

void StmtPrinter::pool_let(const tir::Var& var, const std::string& name, const TirPlacement& placement, int indent,
                           const SourceLocation& at) {
  const std::string pool = ctx_.pool_var(placement.pool, at);
  emit(indent, "void* " + name + " = (&(" + pool + "[" + std::to_string(placement.offset) + "]));");
  ctx_.vars[&var] = CVar{name, CVar::Kind::kPointer, "", false};
  ++ctx_.module.placements_emitted;
  void_if_unused(var, name, indent);
}

void StmtPrinter::print(const tir::Stmt& first, int indent) {
  // Lines to emit once the chain's innermost body is printed (workspace frees), innermost last.
  std::vector<std::vector<std::string>> after;
  const tir::Stmt* s = &first;
  while (s) {
    switch (s->kind) {
      case tir::StmtKind::kAllocate: s = allocate(static_cast<const tir::Allocate&>(*s), indent, after); break;
      case tir::StmtKind::kAllocateConst: s = allocate_const(static_cast<const tir::AllocateConst&>(*s), indent); break;
      case tir::StmtKind::kLet: s = let(static_cast<const tir::LetStmt&>(*s), indent); break;
      case tir::StmtKind::kAssert: s = assert_stmt(static_cast<const tir::AssertStmt&>(*s), indent); break;
      case tir::StmtKind::kDeclBuffer: s = static_cast<const tir::DeclBuffer&>(*s).body.get(); break;
      case tir::StmtKind::kAttr: s = static_cast<const tir::AttrStmt&>(*s).body.get(); break;
      default: leaf(*s, indent); s = nullptr;
    }
  }
  // Innermost scope first (no std::ranges: clang 14 cannot compile libstdc++ 12's views).
  for (auto it = after.rbegin(); it != after.rend(); ++it)
    lines_.insert(lines_.end(), it->begin(), it->end());
}

const tir::Stmt* StmtPrinter::allocate(const tir::Allocate& a, int indent,
                                       std::vector<std::vector<std::string>>& after) {
  const auto placed = ctx_.module.input->placements.find(&a);
  if (placed != ctx_.module.input->placements.end()) {
    pool_let(*a.var, ctx_.names.fresh(sanitize_identifier(a.var->name), "_let"), placed->second, indent, a.location);
    return a.body.get();
  }
  if (a.condition) throw ExportError::unsupported(a.location, "a conditional allocation");
  const std::string type = c_type(a.dtype, a.location);
  const std::string name = ctx_.names.fresh(sanitize_identifier(a.var->name));
  const std::optional<int64_t> size = a.static_size_bytes();
  if (size && *size < kMaxStackAlloca) {
    const int64_t elements = *size / a.dtype.bytes();
    emit(indent, type + " " + name + "[" + std::to_string(elements > 0 ? elements : 1) + "];");
    ctx_.vars[a.var.get()] = CVar{name, CVar::Kind::kArray, type, false};
    void_if_unused(*a.var, name, indent, true);
    return a.body.get();
  }
  std::string bytes;
  if (size) {
    bytes = "(uint64_t)" + std::to_string(*size);
  } else {
    std::vector<std::string> hoisted;
    ExprPrinter p(ctx_, hoisted, indent_text(indent));
    std::string product = std::to_string(a.dtype.bytes());
    for (const tir::ExprRef& e : a.extents)
      product = binary_text(product, "*", p.print(*e));
    emit_hoisted(hoisted);
    bytes = "((uint64_t)" + product + ")";
  }
  emit(indent, "void* " + name + " = TVMBackendAllocWorkspace(1, 0, " + bytes + ", " +
                   std::to_string(dl_type_code(a.dtype)) + ", " + std::to_string(a.dtype.bits) + ");");
  emit(indent, "if (" + name + " == NULL) {");
  emit(indent + 2, "return -1;");
  emit(indent, "}");
  ctx_.vars[a.var.get()] = CVar{name, CVar::Kind::kPointer, "", false};
  const std::string pad = indent_text(indent);
  after.push_back({pad + "if (TVMBackendFreeWorkspace(1, 0, " + name + ") != 0) {", pad + "  return -1;", pad + "}"});
  return a.body.get();
}

const tir::Stmt* StmtPrinter::allocate_const(const tir::AllocateConst& a, int indent) {
  ModuleState& module = ctx_.module;
  const std::string& name = module.constant_names.at(&a);
  const ConstantData data = constant_data(a);
  note_truncated(module, name, data, a.location);
  const auto placed = module.input->placements.find(&a);
  if (placed != module.input->placements.end()) {
    pool_let(*a.var, name, placed->second, indent, a.location);
    module.pool_constants.push_back(pool_constant(name, data, placed->second));
  } else {
    module.constant_blocks.push_back(constant_array_block(name, data, ctx_.used.count(a.var.get()) > 0));
    ctx_.vars[a.var.get()] = CVar{name, CVar::Kind::kArray, data.c_type, true};
  }
  return a.body.get();
}

const tir::Stmt* StmtPrinter::let(const tir::LetStmt& l, int indent) {
  const auto placed = ctx_.module.input->placements.find(&l);
  if (placed != ctx_.module.input->placements.end()) {
    const auto constant = ctx_.module.constant_names.find(&l);
    const std::string name = constant != ctx_.module.constant_names.end()
                                 ? constant->second
                                 : ctx_.names.fresh(sanitize_identifier(l.var->name));
    pool_let(*l.var, name, placed->second, indent, l.location);
    if (placed->second.constant && l.body) {
      const auto [dtype, elements] = largest_view(*l.var, *l.body, l.var->pointee.value_or(tir::DataType::uint(8)));
      const ConstantData data = zero_constant_data(dtype, elements, l.location);
      note_truncated(ctx_.module, name, data, l.location);
      ctx_.module.pool_constants.push_back(pool_constant(name, data, placed->second));
    }
    return l.body.get();
  }
  if (points_into_old_pool(l)) {
    // A let of a post-USMP dump that the problem left out (no buffer tells its size): unused, it
    // can go; used, it would keep its old offset, which the new plan may give to other buffers.
    if (ctx_.used.count(l.var.get()) == 0) return l.body.get();
    throw ExportError(l.location,
                      "'" + l.var->name + "' points into a pool but has no placement, so it cannot be moved");
  }
  std::vector<std::string> hoisted;
  ExprPrinter p(ctx_, hoisted, indent_text(indent));
  std::string value = p.print(*l.value);
  emit_hoisted(hoisted);
  const tir::Var& v = *l.var;
  const std::string name = ctx_.names.fresh(sanitize_identifier(v.name));
  CVar cv{name, CVar::Kind::kScalar, "", false};
  std::string type;
  if (v.dtype.is_handle()) {
    cv.kind = CVar::Kind::kPointer;
    if (v.pointee) cv.element = c_type(*v.pointee, l.location);
    type = cv.element.empty() ? "void*" : cv.element + "*";
    // A pointer of another element type (or to constants) needs a cast to initialise this one.
    const std::string have = p.pointer_type(*l.value);
    if (type != "void*" && !have.empty() && have != "void*" && have != type) value = "((" + type + ")" + value + ")";
  } else {
    type = c_type(v.dtype, l.location);
    if (p.non_negative(*l.value)) ctx_.non_negative.insert(&v);
  }
  emit(indent, type + " " + name + " = " + value + ";");
  ctx_.vars[&v] = cv;
  void_if_unused(v, name, indent);
  return l.body.get();
}

const tir::Stmt* StmtPrinter::assert_stmt(const tir::AssertStmt& a, int indent) {
  std::vector<std::string> hoisted;
  ExprPrinter p(ctx_, hoisted, indent_text(indent));
  const std::string condition = p.print(*a.condition);
  const std::string message = a.message ? p.print(*a.message) : "\"assertion failed\"";
  emit_hoisted(hoisted);
  emit(indent, "if (!(" + condition + ")) {");
  emit(indent + 2, "TVMAPISetLastError(" + message + ");");
  emit(indent + 2, "return -1;");
  emit(indent, "}");
  return a.body.get();
}

void StmtPrinter::leaf(const tir::Stmt& s, int indent) {
  switch (s.kind) {
    case tir::StmtKind::kSeq:
      for (const tir::StmtRef& c : static_cast<const tir::SeqStmt&>(s).seq)
        print(*c, indent);
      return;
    case tir::StmtKind::kFor: loop(static_cast<const tir::For&>(s), indent); return;
    case tir::StmtKind::kIfThenElse: {
      const auto& n = static_cast<const tir::IfThenElse&>(s);
      std::vector<std::string> hoisted;
      ExprPrinter p(ctx_, hoisted, indent_text(indent));
      const std::string condition = p.print(*n.condition);
      emit_hoisted(hoisted);
      // TVM does not double the parentheses of a condition that has its own.
      const bool wrapped = strip_outer_parens(condition) != condition;
      emit(indent, "if " + (wrapped ? condition : "(" + condition + ")") + " {");
      if (n.then_case) print(*n.then_case, indent + 2);
      if (n.else_case) {
        emit(indent, "} else {");
        print(*n.else_case, indent + 2);
      }
      emit(indent, "}");
      return;
    }
    case tir::StmtKind::kEvaluate: evaluate(static_cast<const tir::Evaluate&>(s), indent); return;
    case tir::StmtKind::kBufferStore: {
      const auto& n = static_cast<const tir::BufferStore&>(s);
      std::vector<std::string> hoisted;
      ExprPrinter p(ctx_, hoisted, indent_text(indent));
      const std::string target = p.element(*n.buffer, n.indices, n.location);
      const std::string value = p.print(*n.value);
      emit_hoisted(hoisted);
      emit(indent, target + " = " + value + ";");
      return;
    }
    default: throw ExportError::unsupported(s.location, "this statement");
  }
}

void StmtPrinter::loop(const tir::For& f, int indent) {
  if (f.loop_kind == tir::ForKind::kThreadBinding) {
    throw ExportError::unsupported(f.location, "a thread-bound loop");
  }
  // Parallel, vectorized and unrolled loops run as plain loops: the same result on one core.
  std::vector<std::string> hoisted;
  ExprPrinter p(ctx_, hoisted, indent_text(indent));
  const std::string min = p.print(*f.min);
  const std::string extent = p.print(*f.extent);
  emit_hoisted(hoisted);
  const std::optional<int64_t> min_value = tir::constant_int(f.min.get());
  const std::optional<int64_t> extent_value = tir::constant_int(f.extent.get());
  std::string end;
  if (min_value == 0) {
    end = extent;
  } else if (min_value && extent_value && f.min->dtype == f.extent->dtype) {
    end = int_literal(*min_value + *extent_value, f.extent->dtype);
  } else {
    end = "(" + min + " + " + extent + ")";
  }
  const tir::Var& v = *f.loop_var;
  const std::string name = ctx_.names.fresh(sanitize_identifier(v.name));
  if (p.non_negative(*f.min)) ctx_.non_negative.insert(&v);
  ctx_.vars[&v] = CVar{name, CVar::Kind::kScalar, "", false};
  emit(indent, "for (" + c_type(v.dtype, f.location) + " " + name + " = " + min + "; " + name + " < " + end + "; ++" +
                   name + ") {");
  if (f.body) print(*f.body, indent + 2);
  emit(indent, "}");
}

void StmtPrinter::evaluate(const tir::Evaluate& e, int indent) {
  if (e.value->as<tir::IntImm>()) return;  // T.evaluate(0): nothing to do
  std::vector<std::string> hoisted;
  ExprPrinter p(ctx_, hoisted, indent_text(indent));
  const auto* call = e.value->as<tir::Call>();
  std::string line;
  if (call && !call->global && call->op == "assume") return;  // a hint to the simplifier only
  if (call && !call->global && call->op == "ret") {
    // T.ret(v) / `return v`: the function returns v.
    if (call->args.size() != 1) throw ExportError(call->location, "ret takes 1 argument");
    line = "return " + p.print(*call->args[0]) + ";";
  } else if (call && !call->global && call->op == "tvm_check_return") {
    // tvm_check_return(expected, error, call): return `error` unless the call returns `expected`.
    if (call->args.size() != 3) throw ExportError(call->location, "tvm_check_return takes 3 arguments");
    const std::string expected = p.print(*call->args[0]);
    const std::string error = p.print(*call->args[1]);
    line = "if (" + p.print(*call->args[2]) + " != " + expected + " ) return " + error + ";";
  } else if (call) {
    line = p.print(*call) + ";";
  } else {
    line = "(void)" + p.print(*e.value) + ";";
  }
  emit_hoisted(hoisted);
  emit(indent, line);
}

}  // namespace usmpx::cexport
