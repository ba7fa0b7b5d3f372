#include "frontends/tvm/usmp/buffer_info_extractor.h"

#include <algorithm>
#include <unordered_set>

#include "base/config_error.h"
#include "base/input_error.h"
#include "frontends/tvm/tir/depth.h"
#include "frontends/tvm/tir/walk.h"
#include "frontends/tvm/usmp/liveness_sweep.h"
#include "model/live_ranges.h"

namespace usmpx {
namespace {

using tir::Call;
using tir::PrimFunc;

// What ExtractBufferInfo keeps per variable that refers to a recorded allocation: the
// allocation, the function it is in and the call of that function it was last met in.
struct Record {
  int buffer = -1;
  const PrimFunc* function = nullptr;
  const Call* call = nullptr;
};

// The visitor's scope: pushed for every loop and every function entered.
struct Scope {
  const Call* call = nullptr;
  const PrimFunc* function = nullptr;
  const tir::For* loop = nullptr;
  std::unordered_set<int> accessed;   // allocations accessed in this loop nest (not constants)
  std::optional<int64_t> nest_start;  // tick of the outermost loop of the nest
};

class Extractor {
 public:
  Extractor(const tir::Module& module, const PoolAssignment& pools, const ExtractionOptions& options)
      : module_(module), pools_(pools), options_(options) {
    scopes_.emplace_back();
  }

  BufferInfoAnalysis run(const PrimFunc& main) {
    visit_function(main, nullptr, main.location);
    std::vector<AccessInterval> intervals;
    for (size_t b = 0; b < result_.buffers.size(); ++b) {
      for (const Call* call : call_order_) {
        const auto starts = start_.find(call);
        if (starts == start_.end()) continue;
        const auto s = starts->second.find(static_cast<int>(b));
        if (s == starts->second.end()) continue;
        intervals.push_back({static_cast<int>(b), s->second, end_[call][static_cast<int>(b)]});
      }
    }
    std::vector<int64_t> sizes;
    for (const Buffer& b : result_.buffers)
      sizes.push_back(b.size_bytes);
    if (options_.io_live_throughout)
      keep_io_live(intervals, io_buffers(BufferKind::kInput), io_buffers(BufferKind::kOutput), last_tick(intervals));
    const LivenessResult liveness = sweep_liveness(sizes, constant_, intervals);
    for (size_t b = 0; b < result_.buffers.size(); ++b)
      result_.buffers[b].conflicts = liveness.conflicts[b];
    // The lifetime spans a buffer's intervals; separate ones (a function called twice) are kept.
    std::vector<std::vector<Lifetime>> ranges(result_.buffers.size());
    for (const AccessInterval& i : intervals)
      ranges[static_cast<size_t>(i.buffer)].push_back(Lifetime::closed(i.first, i.last));
    for (size_t b = 0; b < result_.buffers.size(); ++b)
      set_live_ranges(result_.buffers[b], std::move(ranges[b]));
    result_.memory_pressure = liveness.memory_pressure;
    return std::move(result_);
  }

 private:
  std::vector<int> io_buffers(BufferKind kind) const {
    std::vector<int> out;
    for (size_t b = 0; b < result_.buffers.size(); ++b) {
      if (result_.buffers[b].kind == kind) out.push_back(static_cast<int>(b));
    }
    return out;
  }

  static int64_t last_tick(const std::vector<AccessInterval>& intervals) {
    int64_t last = 0;
    for (const AccessInterval& i : intervals)
      last = std::max(last, i.last);
    return last;
  }

  std::string target_of(const PrimFunc& f) const {
    const std::string t = f.target();
    return t.empty() ? options_.default_target : t;
  }

  std::string unique_name(const std::string& name) {
    const int count = ++name_counts_[name];
    return count == 1 ? name : name + std::to_string(count);
  }

  void visit_function(const PrimFunc& f, const Call* call, const SourceLocation& at) {
    if (std::find(call_stack_.begin(), call_stack_.end(), &f) != call_stack_.end()) {
      throw InputError(at, "recursive call to '" + f.name + "'");
    }
    Scope scope = scopes_.back();
    scope.call = call;
    scope.function = &f;
    if (seen_calls_.insert(call).second) call_order_.push_back(call);
    scopes_.push_back(std::move(scope));
    call_stack_.push_back(&f);
    const int64_t call_tick = tick_;
    if (f.body) visit_stmt(*f.body);
    call_stack_.pop_back();
    scopes_.pop_back();
    if (call && call_stack_.size() == 1) result_.timeline.push_back({call_tick, tick_, f.name});
  }

  void visit_stmt(const tir::Stmt& s) {
    ++tick_;
    dispatch(s);
  }

  // Visits a statement whose tick was counted. Statements that enclose the rest of their block
  // are followed in a loop: their bodies are the long chains of a main function's allocations.
  void dispatch(const tir::Stmt& first) {
    const tir::WalkDepthGuard guard(depth_, first.location);
    struct Closing {
      size_t scope;
      const tir::Var* var;
    };
    std::vector<Closing> closing;  // allocations whose scope ends after the chain, innermost last
    const tir::Stmt* s = &first;
    while (s) {
      const tir::StmtRef* body = tir::enclosed_body(*s);
      if (!body) {
        visit_leaf(*s);
        break;
      }
      bool tick = true;  // bodies are visited with a tick, except those of Allocate and AllocateConst
      if (const auto* n = s->as<tir::Allocate>()) {
        const size_t top = scopes_.size() - 1;
        const tir::For* loop = scopes_[top].loop;
        if (!options_.pool_lets && is_global_scope(n->scope) && (!loop || loop->loop_kind == tir::ForKind::kSerial)) {
          record_allocate(*n);
        }
        closing.push_back({top, n->var.get()});
        tick = false;
      } else if (const auto* c = s->as<tir::AllocateConst>()) {
        if (!options_.pool_lets) record_constant(*c);
        tick = false;
      } else if (const auto* let = s->as<tir::LetStmt>()) {
        visit_expr(*let->value);
        if (options_.pool_lets) {
          const auto it = options_.pool_lets->find(let);
          if (it != options_.pool_lets->end()) record_let(*let, it->second);
          closing.push_back({scopes_.size() - 1, let->var.get()});
        }
      } else if (const auto* attr = s->as<tir::AttrStmt>()) {
        visit_expr(*attr->value);
      } else if (const auto* assertion = s->as<tir::AssertStmt>()) {
        visit_expr(*assertion->condition);
        visit_expr(*assertion->message);
      }
      s = body->get();
      if (s && tick) ++tick_;
    }
    for (auto it = closing.rbegin(); it != closing.rend(); ++it)
      erase_accessed(it->scope, it->var);
  }

  // A statement that encloses no block (those that do are followed by visit_stmt's loop).
  void visit_leaf(const tir::Stmt& s) {
    if (const auto* loop = s.as<tir::For>()) {
      visit_for(*loop);
      return;
    }
    if (const auto* store = s.as<tir::BufferStore>()) access(store->buffer->data.get());
    tir::for_each_child(
        s, [this](const tir::Stmt& c) { visit_stmt(c); }, [this](const tir::Expr& e) { visit_expr(e); });
  }

  void visit_for(const tir::For& n) {
    Scope scope = scopes_.back();
    const Call* parent_call = scope.call;
    const PrimFunc* parent_function = scope.function;
    scope.loop = &n;
    if (!scope.nest_start) scope.nest_start = tick_;
    scopes_.push_back(std::move(scope));
    visit_expr(*n.min);
    visit_expr(*n.extent);
    if (n.body) visit_stmt(*n.body);
    // Every allocation accessed in the loop lives from the start of the outermost loop of the
    // nest to the end of this loop.
    const Scope& top = scopes_.back();
    for (int b : top.accessed) {
      const Record& r = records_.at(own_var_[static_cast<size_t>(b)]);
      const Call* key = r.function != parent_function ? r.call : parent_call;
      auto& starts = start_[key];
      auto& ends = end_[key];
      const auto s = starts.find(b);
      const auto e = ends.find(b);
      if (s == starts.end() || e == ends.end()) continue;  // TVM would fail here; never seen in practice
      s->second = std::min(s->second, *top.nest_start);
      e->second = std::max(e->second, tick_);
    }
    scopes_.pop_back();
  }

  void erase_accessed(size_t scope, const tir::Var* var) {
    const auto it = records_.find(var);
    if (it != records_.end()) scopes_[scope].accessed.erase(it->second.buffer);
  }

  void visit_expr(const tir::Expr& e) {
    const tir::WalkDepthGuard guard(depth_, e.location);
    switch (e.kind) {
      case tir::ExprKind::kVar: access(static_cast<const tir::VarUse&>(e).var.get()); return;
      case tir::ExprKind::kBufferLoad: {
        const auto& n = static_cast<const tir::BufferLoad&>(e);
        access(n.buffer->data.get());
        break;
      }
      case tir::ExprKind::kCall: {
        const auto& n = static_cast<const Call&>(e);
        if (const PrimFunc* callee = called_function(module_, n)) {
          update_aliases(n, *callee);
          visit_function(*callee, &n, n.location);
          return;
        }
        break;
      }
      default: break;
    }
    tir::for_each_child(e, [this](const tir::Expr& c) { visit_expr(c); });
  }

  void access(const tir::Var* var) {
    const auto it = records_.find(var);
    if (it == records_.end()) return;
    Scope& top = scopes_.back();
    const Record& r = it->second;
    const Call* key = r.function != top.function ? r.call : top.call;
    start_[key].emplace(r.buffer, tick_);
    end_[key][r.buffer] = tick_;
    if (top.loop && !constant_[static_cast<size_t>(r.buffer)]) top.accessed.insert(r.buffer);
  }

  void update_aliases(const Call& call, const PrimFunc& callee) {
    const std::vector<tir::BufferRef> params = matched_buffers(callee);
    const size_t args = call.args.size() - 1;  // after the function name
    if (args != params.size() && args != params.size() + 1) {
      throw InputError(call.location, "call to '" + callee.name + "' passes " + std::to_string(args) +
                                          " arguments for " + std::to_string(params.size()) + " buffer parameters");
    }
    for (size_t i = 0; i < params.size(); ++i) {
      if (!params[i]) {
        throw InputError(call.location, "cannot follow the call to '" + callee.name + "': parameter '" +
                                            callee.params[i]->name + "' has no buffer");
      }
      const auto* use = call.args[i + 1]->as<tir::VarUse>();
      if (!use) continue;
      const auto it = records_.find(use->var.get());
      // A copy: the alias keeps pointing at this allocation until another one is passed.
      if (it != records_.end()) records_[params[i]->data.get()] = it->second;
    }
  }

  // Adds a buffer, or, when the statement was recorded before (its function is called again),
  // moves it to the current call.
  bool revisit(const tir::Var* var) {
    const auto it = records_.find(var);
    if (it == records_.end()) return false;
    it->second.call = scopes_.back().call;
    return true;
  }

  void add(Buffer buffer, const tir::Stmt& stmt, const tir::Var* var, bool constant) {
    const Scope& top = scopes_.back();
    buffer.origin = Origin{top.function->name, stmt.location};
    records_[var] = Record{static_cast<int>(result_.buffers.size()), top.function, top.call};
    own_var_.push_back(var);
    constant_.push_back(constant);
    result_.buffers.push_back(std::move(buffer));
    result_.statements.push_back(&stmt);
  }

  std::vector<int> candidates(bool constant) const {
    const PrimFunc& f = *scopes_.back().function;
    const std::string target = target_of(f);
    std::vector<int> c = constant ? pools_.constant_candidates(target) : pools_.workspace_candidates(target);
    if (c.empty()) {
      throw ConfigError("function '" + f.name + "' (target '" + target + "'): no " +
                        (constant ? "constant" : "workspace") + " pool serves this target");
    }
    return c;
  }

  static std::vector<int64_t> shape_of(const std::vector<tir::ExprRef>& extents) {
    std::vector<int64_t> shape;
    for (const tir::ExprRef& e : extents)
      shape.push_back(tir::constant_int(e.get()).value_or(-1));
    return shape;
  }

  void record_allocate(const tir::Allocate& n) {
    const std::optional<int64_t> size = n.static_size_bytes();
    if (!size) return;  // dynamic: left to TVMBackendAllocWorkspace
    if (revisit(n.var.get())) return;
    Buffer b;
    b.name = n.var->name;
    b.kind = BufferKind::kIntermediate;
    if (const tir::AttrValue* in = tir::find_attr(n.annotations, "input_tensor")) {
      b.kind = BufferKind::kInput;
      b.name = in->as_string().value_or(b.name);
    } else if (const tir::AttrValue* out = tir::find_attr(n.annotations, "output_tensor")) {
      b.kind = BufferKind::kOutput;
      b.name = out->as_string().value_or(b.name);
    }
    b.name = unique_name(b.name);
    b.size_bytes = *size;
    b.alignment = options_.workspace_alignment;
    b.pool_candidates = candidates(false);
    b.dtype = n.dtype.to_string();
    b.shape = shape_of(n.extents);
    add(std::move(b), n, n.var.get(), false);
  }

  void record_constant(const tir::AllocateConst& n) {
    if (!pools_.has_constant_pools()) return;  // AssignPoolInfo annotates constants only then
    const std::optional<int64_t> size = n.static_size_bytes();
    if (!size) throw InputError(n.location, "the size of constant '" + n.var->name + "' is not a constant");
    if (revisit(n.var.get())) return;
    Buffer b;
    b.name = unique_name(n.var->name);
    b.kind = BufferKind::kConstant;
    b.size_bytes = *size;
    b.alignment = options_.constant_alignment;
    b.pool_candidates = candidates(true);
    b.dtype = n.dtype.to_string();
    b.shape = shape_of(n.extents);
    add(std::move(b), n, n.var.get(), true);
  }

  void record_let(const tir::LetStmt& n, const PoolLetBuffer& info) {
    if (revisit(n.var.get())) return;
    Buffer b;
    b.name = unique_name(info.name);
    b.kind = info.constant ? BufferKind::kConstant : BufferKind::kIntermediate;
    b.size_bytes = info.size_bytes;
    b.alignment = info.constant ? options_.constant_alignment : options_.workspace_alignment;
    b.pool_candidates = candidates(info.constant);
    b.dtype = info.dtype.to_string();
    b.shape = info.shape;
    add(std::move(b), n, n.var.get(), info.constant);
  }

  const tir::Module& module_;
  const PoolAssignment& pools_;
  const ExtractionOptions& options_;
  BufferInfoAnalysis result_;
  std::vector<bool> constant_;
  std::vector<const tir::Var*> own_var_;  // per buffer: the variable of its own statement
  std::unordered_map<const tir::Var*, Record> records_;
  std::vector<Scope> scopes_;
  std::vector<const PrimFunc*> call_stack_;
  std::vector<const Call*> call_order_;
  std::unordered_set<const Call*> seen_calls_;
  std::unordered_map<const Call*, std::unordered_map<int, int64_t>> start_;
  std::unordered_map<const Call*, std::unordered_map<int, int64_t>> end_;
  std::unordered_map<std::string, int> name_counts_;
  int64_t tick_ = 0;
  int depth_ = 0;
};

}  // namespace

bool is_global_scope(const std::string& scope) {
  return scope.empty() || scope == "global" || scope.rfind("global.", 0) == 0;
}

std::vector<tir::BufferRef> matched_buffers(const tir::PrimFunc& function) {
  std::vector<tir::BufferRef> out;
  for (size_t i = 0; i + 1 < function.params.size(); ++i)
    out.push_back(function.buffer_of(function.params[i].get()));
  if (!function.params.empty()) {
    if (tir::BufferRef last = function.buffer_of(function.params.back().get())) out.push_back(std::move(last));
  }
  return out;
}

const tir::PrimFunc* called_function(const tir::Module& module, const tir::Call& call) {
  if (call.global || (call.op != "call_extern" && call.op != "tvm_call_cpacked") || call.args.empty()) return nullptr;
  const auto* name = call.args.front()->as<tir::StringImm>();
  return name ? module.find(name->value) : nullptr;
}

BufferInfoAnalysis extract_buffer_info(const tir::Module& module, const tir::PrimFunc& main,
                                       const PoolAssignment& pools, const ExtractionOptions& options) {
  return Extractor(module, pools, options).run(main);
}

}  // namespace usmpx
