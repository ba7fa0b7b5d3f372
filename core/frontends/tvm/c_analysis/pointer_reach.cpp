#include "frontends/tvm/c_analysis/pointer_reach.h"

#include <algorithm>

#include "frontends/tvm/c_analysis/expr_range.h"
#include "frontends/tvm/c_analysis/tvm_code.h"
#include "model/problem_limits.h"

namespace usmpx {
namespace {

constexpr int kMaxDepth = 8;
constexpr int kMaxPasses = 4;

enum class Use { kRead, kWrite };

bool is_assignment(const std::string& op) {
  return op == "=" || op == "+=" || op == "-=" || op == "*=" || op == "/=" || op == "%=" || op == "<<=" ||
         op == ">>=" || op == "&=" || op == "|=" || op == "^=";
}

bool is_pointer(const CVariable& v) {
  return v.type.find('*') != std::string::npos && v.type.find('[') == std::string::npos;
}

const CExpr* named(const CExpr& e) {
  const CExpr& x = strip_casts(e);
  return x.kind == CExprKind::kName && x.decl >= 0 ? &x : nullptr;
}

// Integer variables written other than by their declaration or their for-loop's header: a single
// pass over the code cannot know their value where they are read.
void collect_rewritten(const CStmt& s, std::vector<char>& rewritten);

void collect_rewritten(const CExpr& e, std::vector<char>& rewritten) {
  const bool writes = (e.kind == CExprKind::kBinary && is_assignment(e.text)) ||
                      (e.kind == CExprKind::kUnary && (e.text == "++" || e.text == "--"));
  if (writes && !e.args.empty()) {
    if (const CExpr* target = named(e.args[0])) rewritten[static_cast<size_t>(target->decl)] = 1;
  }
  for (const CExpr& a : e.args)
    collect_rewritten(a, rewritten);
}

void collect_rewritten(const CStmt& s, std::vector<char>& rewritten) {
  if (s.kind == CStmtKind::kFor) {
    const CStmt& init = s.body[0];
    int var = init.kind == CStmtKind::kDecl && init.decls.size() == 1 ? init.decls[0] : -1;
    const bool assigned_init = init.kind == CStmtKind::kExpr && init.exprs[0].kind == CExprKind::kBinary &&
                               init.exprs[0].text == "=" && named(init.exprs[0].args[0]);
    if (assigned_init) var = named(init.exprs[0].args[0])->decl;
    if (!assigned_init) collect_rewritten(init, rewritten);
    collect_rewritten(s.exprs[0], rewritten);
    if (!steps_up(s.exprs[1], var)) collect_rewritten(s.exprs[1], rewritten);
    collect_rewritten(s.body[1], rewritten);
    return;
  }
  for (const CExpr& e : s.exprs)
    collect_rewritten(e, rewritten);
  for (const CStmt& c : s.body)
    collect_rewritten(c, rewritten);
}

class ReachWalker {
 public:
  ReachWalker(const CProgram& program, int fn, int param, const std::vector<ValueRange>& arguments, int depth)
      : program_(program), f_(program.functions[static_cast<size_t>(fn)]), depth_(depth) {
    const size_t n = f_.variables.size();
    value_.assign(n, ValueRange::unknown());
    rewritten_.assign(n, 0);
    derived_.assign(n, 0);
    offset_.assign(n, ValueRange::unknown());
    collect_rewritten(f_.body, rewritten_);
    for (size_t i = 0; i < f_.params.size() && i < arguments.size(); ++i) {
      if (!rewritten_[static_cast<size_t>(f_.params[i])]) value_[static_cast<size_t>(f_.params[i])] = arguments[i];
    }
    const auto p = static_cast<size_t>(f_.params[static_cast<size_t>(param)]);
    derived_[p] = 1;
    offset_[p] = ValueRange::exactly(0);
  }

  // Passes over the body until the offsets of the pointers derived from the parameter settle (a
  // pointer assigned after the statement that reads it, in a loop's next iteration).
  PointerReach run() {
    for (int pass = 0; pass < kMaxPasses; ++pass) {
      changed_ = false;
      advance_.assign(f_.variables.size(), 0);
      reach_.bytes = 0;
      reach_.written = false;
      visit(f_.body);
      if (!reach_.bounded || !changed_) return reach_;
    }
    fail("its pointers' offsets do not settle", f_.range);
    return reach_;
  }

 private:
  struct Derived {
    bool yes = false;
    ValueRange bytes;  // the offset from the parameter's address
  };

  void fail(const std::string& what, const CRange& at) {
    if (!reach_.bounded || dry_ > 0) return;
    reach_.bounded = false;
    reach_.why = what + (at.valid() ? " (" + program_.where(at) + ")" : "");
  }

  VariableValue value_of() {
    return [this](int decl) { return value_[static_cast<size_t>(decl)]; };
  }
  ValueRange evaluate(const CExpr& e) { return evaluate_expr(e, ranges_, value_of()); }

  Derived derived(const CExpr& e) {
    const CExpr& x = strip_casts(e);
    if (x.kind == CExprKind::kName && x.decl >= 0 && derived_[static_cast<size_t>(x.decl)]) {
      const auto v = static_cast<size_t>(x.decl);
      if (!offset_[v].known) return {true, ValueRange::unknown()};
      return {true, ValueRange::between(offset_[v].lo, offset_[v].hi + advance_[v])};
    }
    if (x.kind == CExprKind::kBinary && (x.text == "+" || x.text == "-") && x.args.size() == 2) {
      Derived base = derived(x.args[0]);
      const CExpr* index = &x.args[1];
      if (!base.yes && x.text == "+") {
        base = derived(x.args[1]);
        index = &x.args[0];
      }
      if (!base.yes) return {};
      ValueRange k = evaluate(*index);
      if (x.text == "-") k = ranges_.negate(k);
      const int64_t unit = x.pointee_bytes > 0 ? x.pointee_bytes : 1;
      return {true, ranges_.add(base.bytes, ranges_.mul(k, ValueRange::exactly(unit)))};
    }
    if (x.kind == CExprKind::kUnary && x.text == "&" && !x.args.empty()) {
      const CExpr& element = strip_casts(x.args[0]);
      if (element.kind != CExprKind::kSubscript || element.args.size() != 2) return {};
      const Derived base = derived(element.args[0]);
      if (!base.yes) return {};
      const int64_t unit = element.type_bytes > 0 ? element.type_bytes : 1;
      return {true, ranges_.add(base.bytes, ranges_.mul(evaluate(element.args[1]), ValueRange::exactly(unit)))};
    }
    if (x.kind == CExprKind::kUnary && (x.text == "++" || x.text == "--") && !x.args.empty()) return derived(x.args[0]);
    return {};
  }

  void access(const Derived& d, int64_t element_bytes, Use use, const CExpr& at) {
    if (dry_ > 0) return;
    int64_t end = 0;
    if (!d.bytes.known || d.bytes.lo < 0 ||
        __builtin_add_overflow(d.bytes.hi, element_bytes > 0 ? element_bytes : 1, &end) || end > kMaxPlannableBytes) {
      fail(d.bytes.known && d.bytes.lo < 0 ? "an access before the address it receives"
                                           : "an access the analysis cannot bound",
           at.range);
      return;
    }
    reach_.bytes = std::max(reach_.bytes, end);
    if (use == Use::kWrite) reach_.written = true;
  }

  // `p += c`, `p -= c`, `p = p + c`, `++p`, `p--`: the step in elements of p, 0 when `e` is none of these.
  static int64_t self_step(const CExpr& e, int var) {
    const auto is_var = [&](const CExpr& x) { return named(x) && named(x)->decl == var; };
    if (e.kind == CExprKind::kUnary && (e.text == "++" || e.text == "--") && !e.args.empty() && is_var(e.args[0]))
      return e.text == "++" ? 1 : -1;
    if (e.kind != CExprKind::kBinary || e.args.size() != 2 || !is_var(e.args[0])) return 0;
    const CExpr& rhs = strip_casts(e.args[1]);
    if ((e.text == "+=" || e.text == "-=") && rhs.kind == CExprKind::kIntLiteral)
      return e.text == "+=" ? rhs.value : -rhs.value;
    if (e.text == "=" && rhs.kind == CExprKind::kBinary && (rhs.text == "+" || rhs.text == "-") &&
        rhs.args.size() == 2 && is_var(rhs.args[0]) && strip_casts(rhs.args[1]).kind == CExprKind::kIntLiteral) {
      const int64_t c = strip_casts(rhs.args[1]).value;
      return rhs.text == "+" ? c : -c;
    }
    return 0;
  }

  // A derived pointer moved forward (loops multiply the steps of their body, see visit_for).
  void count_step(int var, int64_t elements, const CExpr& at) {
    const CVariable& v = f_.variables[static_cast<size_t>(var)];
    if (elements <= 0) return fail("a pointer stepped backwards", at.range);
    int64_t& total = advance_[static_cast<size_t>(var)];
    if (__builtin_add_overflow(total, elements * (v.element_bytes > 0 ? v.element_bytes : 1), &total) ||
        total > kMaxPlannableBytes) {
      total = kMaxPlannableBytes;
      fail("a pointer stepped further than can be planned", at.range);
    }
  }

  // A pointer variable (re)assigned from a derived address: its offsets widen to cover it.
  void derive(int var, const Derived& d) {
    const auto v = static_cast<size_t>(var);
    const ValueRange widened = derived_[v] ? ranges_.hull(offset_[v], d.bytes) : d.bytes;
    if (!derived_[v] || widened.known != offset_[v].known || widened.lo != offset_[v].lo || widened.hi != offset_[v].hi)
      changed_ = true;
    derived_[v] = 1;
    offset_[v] = ValueRange::between(widened.lo, widened.hi);
    offset_[v].known = widened.known;
  }

  void visit(const CStmt& s) {
    switch (s.kind) {
      case CStmtKind::kDecl:
        for (int v : s.decls)
          declare(v);
        return;
      case CStmtKind::kFor: return visit_for(s);
      case CStmtKind::kWhile:
      case CStmtKind::kDo: return iterate(s, ValueRange::unknown());
      case CStmtKind::kReturn:
        if (!s.exprs.empty() && derived(s.exprs[0]).yes) fail("the address is returned", s.range);
        break;
      default: break;
    }
    for (const CExpr& e : s.exprs)
      visit(e, Use::kRead);
    for (const CStmt& c : s.body)
      visit(c);
  }

  void declare(int v) {
    const CVariable& var = f_.variables[static_cast<size_t>(v)];
    if (!var.init) return;
    visit(*var.init, Use::kRead);
    if (is_pointer(var)) {
      if (const Derived d = derived(*var.init); d.yes) derive(v, d);
    } else if (!rewritten_[static_cast<size_t>(v)]) {
      value_[static_cast<size_t>(v)] = evaluate(*var.init);
    }
  }

  void visit_for(const CStmt& s) {
    const CStmt& init = s.body[0];
    int var = -1;
    ValueRange start;
    visit(init);
    if (init.kind == CStmtKind::kDecl && init.decls.size() == 1) {
      var = init.decls[0];
      const CVariable& v = f_.variables[static_cast<size_t>(var)];
      if (v.init) start = evaluate(*v.init);
    } else if (init.kind == CStmtKind::kExpr && init.exprs[0].kind == CExprKind::kBinary && init.exprs[0].text == "=" &&
               named(init.exprs[0].args[0])) {
      var = named(init.exprs[0].args[0])->decl;
      start = evaluate(init.exprs[0].args[1]);
    }
    const ValueRange range = loop_range(s, var, start, ranges_, value_of());
    if (var >= 0 && !rewritten_[static_cast<size_t>(var)]) value_[static_cast<size_t>(var)] = range;
    iterate(s, range);
  }

  // A loop's body run `range` times (unknown: a while loop, a for loop of another shape): a dry
  // run measures how far one iteration moves each derived pointer, then the body is read once
  // with the pointers where the last iteration starts.
  void iterate(const CStmt& loop, const ValueRange& range) {
    const std::vector<int64_t> before = advance_;
    ++dry_;
    visit_loop_body(loop);
    --dry_;
    const int64_t trips = range.known ? range.hi - range.lo + 1 : -1;
    for (size_t v = 0; v < advance_.size(); ++v) {
      const int64_t step = advance_[v] - before[v];
      int64_t moved = 0;
      if (step > 0 &&
          (trips < 0 || __builtin_mul_overflow(step, trips - 1, &moved) || before[v] + moved > kMaxPlannableBytes)) {
        advance_ = before;
        return fail("a pointer stepped in a loop whose count the analysis cannot bound", loop.range);
      }
      advance_[v] = before[v] + moved;
    }
    visit_loop_body(loop);
  }

  void visit_loop_body(const CStmt& loop) {
    for (const CExpr& e : loop.exprs)
      visit(e, Use::kRead);
    visit(loop.kind == CStmtKind::kFor ? loop.body[1] : loop.body[0]);
  }

  void visit(const CExpr& e, Use use) {
    switch (e.kind) {
      case CExprKind::kUnary:
        if (e.args.empty()) break;
        if (e.text == "*") {
          if (const Derived d = derived(e.args[0]); d.yes) access(d, e.type_bytes, use, e);
          return visit(e.args[0], Use::kRead);
        }
        if (e.text == "++" || e.text == "--") {
          if (const CExpr* n = named(e.args[0]); n && derived_[static_cast<size_t>(n->decl)])
            return count_step(n->decl, self_step(e, n->decl), e);
        }
        if (e.text == "&" && strip_casts(e.args[0]).kind == CExprKind::kSubscript) {
          for (const CExpr& a : strip_casts(e.args[0]).args)
            visit(a, Use::kRead);
          return;
        }
        break;
      case CExprKind::kSubscript:
        if (e.args.size() == 2) {
          if (const Derived base = derived(e.args[0]); base.yes) {
            const int64_t unit = e.type_bytes > 0 ? e.type_bytes : 1;
            access({true, ranges_.add(base.bytes, ranges_.mul(evaluate(e.args[1]), ValueRange::exactly(unit)))}, unit,
                   use, e);
          }
        }
        for (const CExpr& a : e.args)
          visit(a, Use::kRead);
        return;
      case CExprKind::kBinary:
        if (e.args.size() == 2 && is_assignment(e.text)) return visit_assignment(e);
        break;
      case CExprKind::kCall: return visit_call(e);
      case CExprKind::kCast:
        for (const CExpr& a : e.args)
          visit(a, use);
        return;
      default: break;
    }
    for (const CExpr& a : e.args)
      visit(a, Use::kRead);
  }

  void visit_assignment(const CExpr& e) {
    const CExpr* target = named(e.args[0]);
    const bool pointer_target = target && is_pointer(f_.variables[static_cast<size_t>(target->decl)]);
    if (pointer_target && derived_[static_cast<size_t>(target->decl)]) {
      if (const int64_t step = self_step(e, target->decl); step != 0) {
        count_step(target->decl, step, e);
        return visit(e.args[1], Use::kRead);
      }
    }
    visit(e.args[0], Use::kWrite);
    visit(e.args[1], Use::kRead);
    const Derived value = derived(e.args[1]);
    if (!value.yes) return;
    if (pointer_target && e.text == "=")
      derive(target->decl, value);
    else
      fail("the address is stored where the analysis does not follow it", e.range);
  }

  void visit_call(const CExpr& call) {
    for (size_t i = 0; i < call.args.size(); ++i) {
      const Derived d = derived(call.args[i]);
      if (!d.yes) continue;
      if (!d.bytes.known || d.bytes.lo < 0) {
        fail("an address the analysis cannot bound is passed to '" + call.text + "'", call.args[i].range);
        continue;
      }
      passed_on(call, i, d);
    }
    for (const CExpr& a : call.args)
      visit(a, Use::kRead);
  }

  // The derived address `d` handed to a call as argument `i`.
  void passed_on(const CExpr& call, size_t i, const Derived& d) {
    const std::string& name = call.text;
    const bool copy =
        name == "memcpy" || name == "memmove" || name == "__builtin_memcpy" || name == "__builtin_memmove";
    const bool fill = (name == "memset" || name == "__builtin_memset") && i == 0;
    if ((copy || fill) && call.args.size() == 3) {
      const ValueRange n = evaluate(call.args[2]);
      if (!n.known || n.lo < 0) return fail("a copy whose size the analysis cannot bound", call.range);
      if (n.hi > 0)
        access({true, ranges_.add(d.bytes, ValueRange::exactly(n.hi - 1))}, 1,
               copy && i == 1 ? Use::kRead : Use::kWrite, call);
      return;
    }
    const CFunction* callee = program_.find_function(name);
    if (!callee || !callee->is_definition || i >= callee->params.size())
      return fail("passed to '" + name + "', whose code is not here", call.range);
    if (depth_ >= kMaxDepth) return fail("calls nested too deep to follow", call.range);
    std::vector<ValueRange> values;
    for (const CExpr& a : call.args)
      values.push_back(evaluate(a));
    const int index = static_cast<int>(callee - program_.functions.data());
    const PointerReach inner = ReachWalker(program_, index, static_cast<int>(i), values, depth_ + 1).run();
    if (!inner.bounded) return fail("in '" + name + "': " + inner.why, call.range);
    if (inner.bytes > 0)
      access({true, ranges_.add(d.bytes, ValueRange::exactly(inner.bytes - 1))}, 1,
             inner.written ? Use::kWrite : Use::kRead, call);
  }

  const CProgram& program_;
  const CFunction& f_;
  const int depth_;
  RangeContext ranges_;
  std::vector<ValueRange> value_;  // integer variables
  std::vector<char> rewritten_;
  std::vector<char> derived_;       // pointer variables holding an address derived from the parameter
  std::vector<ValueRange> offset_;  // their offsets from the parameter's address when derived
  std::vector<int64_t> advance_;    // how far each has moved forward at this point, at most
  int dry_ = 0;                     // inside a dry run of a loop's body: nothing is recorded
  bool changed_ = false;
  PointerReach reach_;
};

}  // namespace

PointerReach parameter_reach(const CProgram& program, int fn, int param, const std::vector<ValueRange>& arguments) {
  const CFunction& f = program.functions[static_cast<size_t>(fn)];
  if (!f.is_definition || param < 0 || static_cast<size_t>(param) >= f.params.size()) {
    PointerReach unknown;
    unknown.bounded = false;
    unknown.why = "'" + f.name + "' has no code here";
    return unknown;
  }
  return ReachWalker(program, fn, param, arguments, 0).run();
}

}  // namespace usmpx
