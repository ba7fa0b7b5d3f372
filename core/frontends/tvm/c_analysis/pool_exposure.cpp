#include "frontends/tvm/c_analysis/pool_exposure.h"

#include <deque>
#include <set>
#include <vector>

namespace usmpx {
namespace {

constexpr int kMaxVisitsPerFunction = 16;  // the carried sets only grow; this bounds hostile input
constexpr int kMaxExpressionDepth = 256;

bool is_assignment(const std::string& op) {
  return op == "=" || op == "+=" || op == "-=" || op == "|=" || op == "^=" || op == "&=";
}

class ExposureScan {
 public:
  ExposureScan(const CProgram& program, const TvmCode& code) : p_(program), c_(code) {}

  std::map<std::string, PoolExposure> run() {
    if (c_.entry < 0) return {};
    for (size_t f = 0; f < p_.functions.size(); ++f) {
      if (p_.functions[f].is_definition) definition_.emplace(p_.functions[f].name, static_cast<int>(f));
    }
    for (const PoolParam& pp : c_.pool_params) {
      const CFunction& fn = p_.functions[static_cast<size_t>(pp.function)];
      if (!fn.is_definition) continue;
      pools_of(pp.function, pp.variable).insert(pp.pool);
      pool_param_.insert({pp.function, pp.variable});
    }
    const auto entry = definition_.find(p_.functions[static_cast<size_t>(c_.entry)].name);
    if (entry == definition_.end()) return {};
    enqueue(entry->second);
    while (!queue_.empty()) {
      const int f = queue_.front();
      queue_.pop_front();
      queued_.erase(f);
      if (++visits_[f] > kMaxVisitsPerFunction) continue;
      scan(f);
    }
    return std::move(out_);
  }

 private:
  using Pools = std::set<std::string>;

  Pools& pools_of(int f, int var) {
    auto& per_var = carried_[f];
    const size_t n = p_.functions[static_cast<size_t>(f)].variables.size();
    if (per_var.size() < n) per_var.resize(n);
    return per_var[static_cast<size_t>(var)];
  }

  void enqueue(int f) {
    if (queued_.insert(f).second) queue_.push_back(f);
  }

  bool is_let(int f, int var) const { return c_.let_of.count({f, var}) > 0; }

  // The pools whose pointers an expression's value may hold. A call's value is its callee's
  // result, not its arguments (the call itself is looked at by visit_calls).
  void collect(int f, const CExpr& e, Pools& out, int depth) {
    if (depth > kMaxExpressionDepth) return;
    if (e.kind == CExprKind::kCall) return;
    if (e.kind == CExprKind::kName && e.decl >= 0) {
      const auto it = carried_.find(f);
      if (it != carried_.end() && static_cast<size_t>(e.decl) < it->second.size()) {
        const Pools& pools = it->second[static_cast<size_t>(e.decl)];
        out.insert(pools.begin(), pools.end());
      }
      return;
    }
    for (const CExpr& a : e.args)
      collect(f, a, out, depth + 1);
  }

  Pools pools_in(int f, const CExpr& e) {
    Pools out;
    collect(f, e, out, 0);
    return out;
  }

  // The variable an assignment stores into: `x`, `x[i]`, `x.m`, `*x`.
  static int stored_variable(const CExpr& lhs) {
    const CExpr* e = &strip_casts(lhs);
    for (int guard = 0; guard < kMaxExpressionDepth; ++guard) {
      if (e->kind == CExprKind::kName) return e->decl;
      if ((e->kind == CExprKind::kSubscript || e->kind == CExprKind::kMember ||
           (e->kind == CExprKind::kUnary && e->text == "*")) &&
          !e->args.empty()) {
        e = &strip_casts(e->args[0]);
        continue;
      }
      return -1;
    }
    return -1;
  }

  bool add(int f, int var, const Pools& pools) {
    if (var < 0 || pools.empty() || is_let(f, var)) return false;
    Pools& into = pools_of(f, var);
    const size_t before = into.size();
    into.insert(pools.begin(), pools.end());
    return into.size() != before;
  }

  void scan(int f) {
    const CFunction& fn = p_.functions[static_cast<size_t>(f)];
    // Stores into locals first, to a fixed point (a pointer may pass through several).
    for (int pass = 0; pass < kMaxVisitsPerFunction; ++pass) {
      bool changed = false;
      for (size_t v = 0; v < fn.variables.size(); ++v) {
        const CVariable& var = fn.variables[v];
        if (var.init) changed = add(f, static_cast<int>(v), pools_in(f, *var.init)) || changed;
      }
      changed = visit_stmt(f, fn.body, false) || changed;
      if (!changed) break;
    }
    visit_stmt(f, fn.body, true);
    for (const CVariable& var : fn.variables) {
      if (var.init) visit_expr(f, *var.init, true, 0);
    }
  }

  bool visit_stmt(int f, const CStmt& s, bool calls) {
    bool changed = false;
    for (const CExpr& e : s.exprs)
      changed = visit_expr(f, e, calls, 0) || changed;
    for (const CStmt& b : s.body)
      changed = visit_stmt(f, b, calls) || changed;
    return changed;
  }

  bool visit_expr(int f, const CExpr& e, bool calls, int depth) {
    if (depth > kMaxExpressionDepth) return false;
    bool changed = false;
    if (!calls && e.kind == CExprKind::kBinary && e.args.size() == 2 && is_assignment(e.text))
      changed = add(f, stored_variable(e.args[0]), pools_in(f, e.args[1]));
    if (calls && e.kind == CExprKind::kCall) visit_call(f, e);
    for (const CExpr& a : e.args)
      changed = visit_expr(f, a, calls, depth + 1) || changed;
    return changed;
  }

  void visit_call(int f, const CExpr& call) {
    const auto callee = definition_.find(call.text);
    for (size_t i = 0; i < call.args.size(); ++i) {
      const Pools pools = pools_in(f, call.args[i]);
      if (pools.empty()) continue;
      if (callee == definition_.end()) {
        const std::string name = call.text.empty() ? "a call through a function pointer" : call.text;
        for (const std::string& pool : pools)
          out_.emplace(pool, PoolExposure{name, p_.functions[static_cast<size_t>(f)].name});
        continue;
      }
      const int g = callee->second;
      const CFunction& target = p_.functions[static_cast<size_t>(g)];
      if (i >= target.params.size()) continue;
      const int param = target.params[i];
      if (pool_param_.count({g, param})) {
        enqueue_once(g);
        continue;
      }
      if (add(g, param, pools)) enqueue(g);
    }
    if (callee != definition_.end()) enqueue_once(callee->second);
  }

  // A module function is scanned at least once, whatever it is passed.
  void enqueue_once(int g) {
    if (!visits_.count(g)) enqueue(g);
  }

  const CProgram& p_;
  const TvmCode& c_;
  std::map<std::string, int> definition_;
  std::set<std::pair<int, int>> pool_param_;
  std::map<int, std::vector<Pools>> carried_;
  std::deque<int> queue_;
  std::set<int> queued_;
  std::map<int, int> visits_;
  std::map<std::string, PoolExposure> out_;
};

}  // namespace

std::map<std::string, PoolExposure> pools_exposed_to_unreadable_code(const CProgram& program, const TvmCode& code) {
  return ExposureScan(program, code).run();
}

}  // namespace usmpx
