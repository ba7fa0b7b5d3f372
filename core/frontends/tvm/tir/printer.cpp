#include "frontends/tvm/tir/printer.h"

#include <cstdio>
#include <unordered_map>

#include "frontends/tvm/tir/walk.h"

namespace usmpx::tir {
namespace {

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string format_double(double v) {
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

// Concatenates in order: the elements of a braced list are evaluated left to right, unlike the
// operands of operator+, so variables are numbered the same way by every compiler.
std::string cat(std::initializer_list<std::string> parts) {
  std::string out;
  for (const std::string& p : parts)
    out += p;
  return out;
}

class Printer {
 public:
  explicit Printer(const PrintOptions& options) : options_(options) {}

  std::string function(const PrimFunc& f) {
    vars_.clear();
    buffers_.clear();
    std::string out = "func " + f.name + "(";
    for (size_t i = 0; i < f.params.size(); ++i)
      out += (i ? ", " : "") + var_decl(*f.params[i]);
    out += ") -> " + f.ret_type.to_string() + "\n";
    for (const auto& [key, value] : f.attrs)
      out += "  attr " + quote(key) + " = " + attr(value) + "\n";
    for (const BufferBinding& b : f.buffer_map)
      out += cat({"  bind ", var(*b.param), " -> ", buffer_decl(*b.buffer), "\n"});
    if (f.body) stmt(*f.body, 1, out);
    return out;
  }

  std::string expr(const Expr& e) {
    switch (e.kind) {
      case ExprKind::kIntImm: {
        const auto& n = static_cast<const IntImm&>(e);
        return e.dtype == DataType::int_(32) ? std::to_string(n.value)
                                             : std::to_string(n.value) + ":" + e.dtype.to_string();
      }
      case ExprKind::kFloatImm: return format_double(static_cast<const FloatImm&>(e).value) + ":" + e.dtype.to_string();
      case ExprKind::kStringImm: return quote(static_cast<const StringImm&>(e).value);
      case ExprKind::kVar: return var(*static_cast<const VarUse&>(e).var);
      case ExprKind::kBufferLoad: {
        const auto& n = static_cast<const BufferLoad&>(e);
        return cat({buffer(*n.buffer), "[", list(n.indices), "]"});
      }
      case ExprKind::kCall: {
        const auto& n = static_cast<const Call&>(e);
        return (n.global ? "@" : "") + n.op + "(" + list(n.args) + "):" + e.dtype.to_string();
      }
      case ExprKind::kBinary: {
        const auto& n = static_cast<const Binary&>(e);
        const std::string op(to_string(n.op));
        if (n.op == BinaryOp::kMin || n.op == BinaryOp::kMax || n.op == BinaryOp::kFloorDiv ||
            n.op == BinaryOp::kFloorMod) {
          return cat({op, "(", expr(*n.a), ", ", expr(*n.b), ")"});
        }
        return cat({"(", expr(*n.a), " ", op, " ", expr(*n.b), ")"});
      }
      case ExprKind::kNot: return "!" + expr(*static_cast<const Not&>(e).a);
      case ExprKind::kCast:
        return "cast(" + e.dtype.to_string() + ", " + expr(*static_cast<const Cast&>(e).value) + ")";
      case ExprKind::kSelect: {
        const auto& n = static_cast<const Select&>(e);
        return cat({"select(", expr(*n.condition), ", ", expr(*n.true_value), ", ", expr(*n.false_value), ")"});
      }
      case ExprKind::kRamp: {
        const auto& n = static_cast<const Ramp&>(e);
        return cat({"ramp(", expr(*n.base), ", ", expr(*n.stride), ", ", std::to_string(n.lanes), ")"});
      }
      case ExprKind::kBroadcast: {
        const auto& n = static_cast<const Broadcast&>(e);
        return "broadcast(" + expr(*n.value) + ", " + std::to_string(n.lanes) + ")";
      }
      case ExprKind::kOpaque: return "opaque(" + quote(static_cast<const Opaque&>(e).text) + ")";
    }
    return "?";
  }

 private:
  std::string list(const std::vector<ExprRef>& items) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i)
      out += (i ? ", " : "") + expr(*items[i]);
    return out;
  }

  std::string var(const Var& v) {
    if (!options_.canonical_names) return v.name;
    auto [it, added] = vars_.emplace(&v, "v" + std::to_string(vars_.size()));
    return it->second;
  }

  std::string var_type(const Var& v) {
    if (!v.dtype.is_handle() || (!v.pointee && v.storage_scope.empty())) return v.dtype.to_string();
    std::string out = "handle(" + (v.pointee ? v.pointee->to_string() : std::string("?"));
    if (!v.storage_scope.empty()) out += ", " + v.storage_scope;
    return out + ")";
  }

  std::string var_decl(const Var& v) { return cat({var(v), ": ", var_type(v)}); }

  std::string buffer(const Buffer& b) {
    if (!options_.canonical_names) return b.name;
    auto [it, added] = buffers_.emplace(&b, "b" + std::to_string(buffers_.size()));
    return it->second;
  }

  std::string buffer_decl(const Buffer& b) {
    std::string out = cat({buffer(b), ": ", b.dtype.to_string(), "[", list(b.shape), "] data=", var_decl(*b.data)});
    if (!b.strides.empty()) out += " strides=[" + list(b.strides) + "]";
    if (b.elem_offset) out += " elem_offset=" + expr(*b.elem_offset);
    if (b.scope != "global") out += " scope=" + b.scope;
    return out;
  }

  std::string attr(const AttrValue& v) {
    switch (v.kind) {
      case AttrValue::Kind::kNone: return "None";
      case AttrValue::Kind::kBool: return v.bool_value ? "True" : "False";
      case AttrValue::Kind::kInt: return std::to_string(v.int_value);
      case AttrValue::Kind::kFloat: return format_double(v.float_value);
      case AttrValue::Kind::kString: return quote(v.text);
      case AttrValue::Kind::kRaw: return "raw(" + quote(v.text) + ")";
      case AttrValue::Kind::kExpr: return expr(*v.expr);
      case AttrValue::Kind::kList:
      case AttrValue::Kind::kCall: {
        std::string out = v.kind == AttrValue::Kind::kCall ? v.text + "(" : "[";
        for (size_t i = 0; i < v.items.size(); ++i)
          out += (i ? ", " : "") + attr(v.items[i]);
        for (size_t i = 0; i < v.entries.size(); ++i) {
          out += (i || !v.items.empty() ? ", " : "") + v.entries[i].first + "=" + attr(v.entries[i].second);
        }
        return out + (v.kind == AttrValue::Kind::kCall ? ")" : "]");
      }
      case AttrValue::Kind::kDict: {
        std::string out = "{";
        for (size_t i = 0; i < v.entries.size(); ++i) {
          out += (i ? ", " : "") + quote(v.entries[i].first) + ": " + attr(v.entries[i].second);
        }
        return out + "}";
      }
    }
    return "?";
  }

  std::string annotations(const Attrs& attrs) {
    if (attrs.empty()) return "";
    std::string out = " annotations={";
    for (size_t i = 0; i < attrs.size(); ++i)
      out += (i ? ", " : "") + quote(attrs[i].first) + ": " + attr(attrs[i].second);
    return out + "}";
  }

  void line(int depth, const std::string& text, std::string& out) {
    out.append(static_cast<size_t>(depth) * 2, ' ');
    out += text;
    out += '\n';
  }

  void body(const StmtRef& s, int depth, std::string& out) {
    if (s) stmt(*s, depth, out);
  }

  // Statements that enclose the rest of their block are followed in a loop, each one level deeper.
  void stmt(const Stmt& first, int depth, std::string& out) {
    for (const Stmt* s = &first; s; ++depth) {
      header_or_leaf(*s, depth, out);
      const StmtRef* body = enclosed_body(*s);
      s = body ? body->get() : nullptr;
    }
  }

  void header_or_leaf(const Stmt& s, int depth, std::string& out) {
    switch (s.kind) {
      case StmtKind::kAllocate: {
        const auto& n = static_cast<const Allocate&>(s);
        line(depth,
             cat({"allocate ", var_decl(*n.var), " = ", n.dtype.to_string(), "[", list(n.extents), "] scope=", n.scope,
                  annotations(n.annotations), n.condition ? " if " + expr(*n.condition) : ""}),
             out);
        return;  // the body follows in stmt()
      }
      case StmtKind::kAllocateConst: {
        const auto& n = static_cast<const AllocateConst&>(s);
        line(depth,
             cat({"allocate_const ", var_decl(*n.var), " = ", n.dtype.to_string(), "[", list(n.extents), "] data=[",
                  list(n.data), "]", annotations(n.annotations)}),
             out);
        return;  // the body follows in stmt()
      }
      case StmtKind::kDeclBuffer: {
        const auto& n = static_cast<const DeclBuffer&>(s);
        line(depth, "decl_buffer " + buffer_decl(*n.buffer), out);
        return;  // the body follows in stmt()
      }
      case StmtKind::kLet: {
        const auto& n = static_cast<const LetStmt&>(s);
        line(depth, cat({"let ", var_decl(*n.var), " = ", expr(*n.value)}), out);
        return;  // the body follows in stmt()
      }
      case StmtKind::kAttr: {
        const auto& n = static_cast<const AttrStmt&>(s);
        line(depth, cat({"attr ", attr(n.node), " ", quote(n.key), " = ", expr(*n.value)}), out);
        return;  // the body follows in stmt()
      }
      case StmtKind::kAssert: {
        const auto& n = static_cast<const AssertStmt&>(s);
        line(depth, cat({"assert ", expr(*n.condition), ", ", expr(*n.message)}), out);
        return;  // the body follows in stmt()
      }
      case StmtKind::kFor: {
        const auto& n = static_cast<const For&>(s);
        std::string head = cat({"for ", var_decl(*n.loop_var), " in ", std::string(to_string(n.loop_kind)), "(",
                                expr(*n.min), ", ", expr(*n.extent), ")"});
        if (!n.thread_tag.empty()) head += " thread=" + quote(n.thread_tag);
        line(depth, head + annotations(n.annotations), out);
        body(n.body, depth + 1, out);
        return;
      }
      case StmtKind::kIfThenElse: {
        const auto& n = static_cast<const IfThenElse&>(s);
        line(depth, "if " + expr(*n.condition), out);
        body(n.then_case, depth + 1, out);
        if (n.else_case) {
          line(depth, "else", out);
          body(n.else_case, depth + 1, out);
        }
        return;
      }
      case StmtKind::kSeq: {
        const auto& n = static_cast<const SeqStmt&>(s);
        line(depth, "seq", out);
        for (const StmtRef& c : n.seq)
          body(c, depth + 1, out);
        return;
      }
      case StmtKind::kEvaluate: line(depth, "evaluate " + expr(*static_cast<const Evaluate&>(s).value), out); return;
      case StmtKind::kBufferStore: {
        const auto& n = static_cast<const BufferStore&>(s);
        line(depth, cat({buffer(*n.buffer), "[", list(n.indices), "] = ", expr(*n.value)}), out);
        return;
      }
    }
  }

  PrintOptions options_;
  std::unordered_map<const Var*, std::string> vars_;
  std::unordered_map<const Buffer*, std::string> buffers_;
};

}  // namespace

std::string print_function(const PrimFunc& function, const PrintOptions& options) {
  return Printer(options).function(function);
}

std::string print_module(const Module& module, const PrintOptions& options) {
  std::string out;
  Printer printer(options);
  for (const auto& [key, value] : module.attrs) {
    (void)value;
    out += "module attr " + quote(key) + "\n";
  }
  for (const PrimFunc& f : module.functions)
    out += printer.function(f);
  return out;
}

std::string print_expr(const Expr& expr) {
  return Printer(PrintOptions{}).expr(expr);
}

bool structurally_equal(const Module& a, const Module& b) {
  const PrintOptions canonical{true};
  return print_module(a, canonical) == print_module(b, canonical);
}

}  // namespace usmpx::tir
