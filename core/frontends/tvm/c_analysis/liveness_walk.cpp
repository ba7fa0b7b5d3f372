#include "frontends/tvm/c_analysis/liveness_walk.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "base/input_error.h"
#include "frontends/tvm/c_analysis/access_extents.h"
#include "frontends/tvm/c_analysis/expr_range.h"
#include "frontends/tvm/c_analysis/kept_allocations.h"
#include "frontends/tvm/c_analysis/value_range.h"

namespace usmpx {
namespace {

constexpr int kMaxCallDepth = 64;

using Use = AccessUse;

bool is_assignment(const std::string& op) {
  return op == "=" || op == "+=" || op == "-=" || op == "*=" || op == "/=" || op == "%=" || op == "<<=" ||
         op == ">>=" || op == "&=" || op == "|=" || op == "^=";
}

std::string strip_let(const std::string& name) {
  constexpr std::string_view kLet = "_let";
  if (name.size() > kLet.size() && name.compare(name.size() - kLet.size(), kLet.size(), kLet) == 0) {
    return name.substr(0, name.size() - kLet.size());
  }
  return name;
}

// Walks the entry's statements in order, into the module's functions it calls, giving each
// statement a tick: where each buffer is allocated, aliased and used, and so when it is live.
// What the accesses say about each buffer's size is AccessExtents' (access_extents.h).
class Walker : private PointerView {
 public:
  Walker(const CProgram& program, const TvmCode& code, const WalkOptions& options, const std::string& root)
      : program_(program),
        code_(code),
        options_(options),
        root_(root),
        extents_(program, ranges_, *this, result_.buffers) {}

  WalkResult run() {
    if (code_.entry < 0) return std::move(result_);
    const CFunction& entry = function(code_.entry);
    frames_.push_back(new_frame(code_.entry, 0));
    scopes_.push_back({code_.entry, 0, false, -1, {}});
    // --use-workspace-io: TVM wraps main in allocates for its I/O before anything else.
    for (size_t i = 0; i < options_.io_names.size() && i < entry.params.size(); ++i) {
      const int var = entry.params[i];
      const int b = buffer_for(WalkBufferSource::kIo, static_cast<int>(i), code_.entry, var,
                               entry.variables[static_cast<size_t>(var)].range, options_.io_names[i]);
      frames_.back().buffer_of_var[static_cast<size_t>(var)] = b;
    }
    enter(code_.entry);
    visit_stmt(entry.body);
    mark_unseen_buffers();
    for (const auto& [key, ticks] : intervals_)
      result_.intervals.push_back({key.second, ticks.first, ticks.second});
    result_.ticks = tick_;
    keep_unbounded_allocations(program_, result_);
    return std::move(result_);
  }

 private:
  struct Frame {
    int function = -1;
    int call = 0;
    std::vector<int> buffer_of_var;  // per variable of the function: the buffer it points to, or -1
    std::vector<char> view_of_var;   // per variable: it points into its buffer at an offset the walk does not track
    std::vector<ValueRange> value_of_var;
    std::vector<std::vector<int>> carried;  // per variable: buffers its initialiser holds (a struct, a copy)
    std::vector<int64_t> dims_elements;     // per cmsis_nn_dims variable: n*h*w*c, -1 when not constant
  };
  struct Scope {
    int function = -1;
    int call = 0;
    bool in_loop = false;
    int64_t initial = -1;       // tick of the outermost loop of the nest, -1 outside loops
    std::vector<int> accessed;  // buffers accessed inside the current loop nest (a small set)
  };

  const CFunction& function(int index) const { return program_.functions[static_cast<size_t>(index)]; }
  Frame& frame() { return frames_.back(); }
  Scope& scope() { return scopes_.back(); }

  Frame new_frame(int fn, int call) const {
    Frame f;
    f.function = fn;
    f.call = call;
    f.buffer_of_var.assign(function(fn).variables.size(), -1);
    f.view_of_var.assign(function(fn).variables.size(), 0);
    f.value_of_var.assign(function(fn).variables.size(), ValueRange::unknown());
    f.carried.assign(function(fn).variables.size(), {});
    f.dims_elements.assign(function(fn).variables.size(), -1);
    return f;
  }

  // Whether clang reported an error inside the function's body (statements may be missing).
  bool damaged(int fn) {
    const auto cached = damaged_.find(fn);
    if (cached != damaged_.end()) return cached->second;
    const CRange& body = function(fn).body_range;
    bool hit = false;
    for (const auto& [file, offset] : program_.error_positions) {
      if (body.valid() && file == body.file && offset >= body.begin && offset <= body.end) hit = true;
    }
    if (hit && damaged_reported_.insert(fn).second) {
      warn(function(fn).range, "c-damaged-function",
           "'" + function(fn).name +
               "' did not parse whole; the buffers it allocates or uses are planned live for the whole run");
    }
    return damaged_[fn] = hit;
  }

  void enter(int fn) { frame_damaged_.push_back(damaged(fn)); }

  void uncertain(int b) { result_.buffers[static_cast<size_t>(b)].lifetime_uncertain = true; }

  // A workspace's address leaves what the walk follows: its lifetime cannot be bounded.
  void escape(int b, const CRange& at) {
    WalkBuffer& w = result_.buffers[static_cast<size_t>(b)];
    if (w.escaped.valid()) return;
    w.escaped = at.valid() ? at : w.origin;
  }

  // With part of the code missing, a buffer the walk never saw used may be used there.
  void mark_unseen_buffers() {
    const bool complete =
        program_.error_positions.empty() && program_.left_out_files.empty() && result_.missing_operators.empty();
    if (complete) return;  // then, as in TVM, an unused buffer conflicts with nothing
    std::set<int> seen;
    for (const auto& [key, ticks] : intervals_)
      seen.insert(key.second);
    for (size_t b = 0; b < result_.buffers.size(); ++b) {
      if (!seen.count(static_cast<int>(b))) uncertain(static_cast<int>(b));
    }
  }

  void warn(const CRange& at, const std::string& code, const std::string& message) {
    Diagnostic d;
    d.severity = Severity::kWarning;
    d.code = code;
    if (at.valid()) d.location = {root_ + "/" + program_.files[static_cast<size_t>(at.file)].path, at.line, at.column};
    d.message = message;
    result_.warnings.push_back(std::move(d));
  }

  // The buffer of an allocation site, created the first time the walk meets it; TVM then
  // records the call that allocated it most recently.
  int buffer_for(WalkBufferSource source, int index, int fn, int variable, const CRange& origin,
                 const std::string& base) {
    const auto key = std::make_pair(fn, variable);
    const auto it = site_buffer_.find(key);
    if (it != site_buffer_.end()) {
      owner_call_[static_cast<size_t>(it->second)] = frame().call;
      return it->second;
    }
    const int b = static_cast<int>(result_.buffers.size());
    WalkBuffer buffer;
    int& uses = name_uses_[base];
    buffer.name = ++uses == 1 ? base : base + std::to_string(uses);
    buffer.source = source;
    buffer.index = index;
    buffer.function = fn;
    buffer.origin = origin;
    result_.buffers.push_back(std::move(buffer));
    owner_function_.push_back(fn);
    owner_call_.push_back(frame().call);
    site_buffer_[key] = b;
    return b;
  }

  // Accesses count for the call that allocated the buffer when they come from another function.
  int call_key(int b) const {
    const size_t i = static_cast<size_t>(b);
    return owner_function_[i] != frames_.back().function ? owner_call_[i] : frames_.back().call;
  }

  void touch(int b) {
    if (!frame_damaged_.empty() && frame_damaged_.back()) uncertain(b);
    const auto key = std::make_pair(call_key(b), b);
    auto [it, inserted] = intervals_.try_emplace(key, tick_, tick_);
    if (!inserted) it->second.second = tick_;
    if (scope().in_loop && std::find(scope().accessed.begin(), scope().accessed.end(), b) == scope().accessed.end()) {
      scope().accessed.push_back(b);
    }
  }

  void visit_stmt(const CStmt& s) {
    if (code_.skipped(s.range)) return;  // null checks and frees of TVMBackendAllocWorkspace
    ++tick_;
    switch (s.kind) {
      case CStmtKind::kCompound: {
        const size_t mark = block_buffers_.size();
        for (const CStmt& c : s.body)
          visit_stmt(c);
        // An allocation's scope ends with its block: loops around it no longer extend it.
        while (block_buffers_.size() > mark) {
          const auto [scope_index, b] = block_buffers_.back();
          block_buffers_.pop_back();
          if (scope_index < scopes_.size()) std::erase(scopes_[scope_index].accessed, b);
        }
        break;
      }
      case CStmtKind::kDecl:
        for (int v : s.decls)
          declare(v);
        break;
      case CStmtKind::kFor: visit_for(s); break;
      default:
        for (const CExpr& e : s.exprs)
          visit_expr(e, Use::kLoad);
        for (const CStmt& c : s.body)
          visit_stmt(c);
        break;
    }
  }

  // Binds variable `v` of the current function to its buffer when it is an allocation site
  // (a TVMBackendAllocWorkspace result or a pool let), declared or assigned.
  bool bind_site(int v) {
    const int fn = frame().function;
    const auto alloc = code_.alloc_of.find({fn, v});
    const auto let = code_.let_of.find({fn, v});
    if (alloc == code_.alloc_of.end() && let == code_.let_of.end()) return false;
    const bool is_alloc = alloc != code_.alloc_of.end();
    const int index = is_alloc ? alloc->second : let->second;
    const CRange& statement = is_alloc ? code_.allocs[static_cast<size_t>(index)].statement
                                       : code_.lets[static_cast<size_t>(index)].statement;
    const std::string& name = function(fn).variables[static_cast<size_t>(v)].name;
    const int b = buffer_for(is_alloc ? WalkBufferSource::kWorkspaceAlloc : WalkBufferSource::kPoolLet, index, fn, v,
                             statement, strip_let(name));
    if (!frame_damaged_.empty() && frame_damaged_.back()) uncertain(b);
    frame().buffer_of_var[static_cast<size_t>(v)] = b;
    block_buffers_.emplace_back(scopes_.size() - 1, b);
    return true;
  }

  // A pointer local initialised with a buffer's address (`void* output = arg1;`, `int8_t* p =
  // (int8_t*)padded_data;`, `p = &buf[k]`) is that buffer, or a view into it, wherever it goes.
  void alias_copy(int v, const CExpr& init) {
    const CVariable& var = function(frame().function).variables[static_cast<size_t>(v)];
    if (var.type.find('*') == std::string::npos || var.type.find('[') != std::string::npos) return;
    int b = buffer_of(init);
    bool view = b >= 0 && is_view(init);
    if (b < 0) {
      b = buffer_viewed_by(init);
      view = true;
    }
    if (b < 0) return;
    frame().buffer_of_var[static_cast<size_t>(v)] = b;
    frame().view_of_var[static_cast<size_t>(v)] = view;
  }

  void declare(int v) {
    if (bind_site(v)) return;
    const CVariable& var = function(frame().function).variables[static_cast<size_t>(v)];
    if (var.init) {
      alias_copy(v, *var.init);
      visit_expr(*var.init, Use::kLoad);
      frame().value_of_var[static_cast<size_t>(v)] = evaluate(*var.init);
      std::vector<int> held;
      collect_buffers(*var.init, held);
      frame().carried[static_cast<size_t>(v)] = held;
      if (const int64_t elements = extents_.read_descriptor(var); elements >= 0)
        frame().dims_elements[static_cast<size_t>(v)] = elements;
    }
  }

  // A buffer's address stored in a local, or in an element of a local array, also as an integer
  // (`rows[0] = (uint32_t)(uintptr_t)buf;`): every later use of that local may reach the buffer.
  void carry_stored_address(const CExpr& target, const CExpr& value) {
    int b = buffer_of(value);
    if (b < 0) b = buffer_viewed_by(value);
    if (b < 0) return;
    // The variable the target lies in: `x`, `rows[0]`, `args[0].v_handle`, `(*p).f`.
    const CExpr* base = &strip_casts(target);
    while (!base->args.empty() && (base->kind == CExprKind::kSubscript || base->kind == CExprKind::kMember ||
                                   (base->kind == CExprKind::kUnary && base->text == "*"))) {
      base = &strip_casts(base->args[0]);
    }
    const bool named = base->kind == CExprKind::kName && base->decl >= 0;
    const bool whole = named && base == &strip_casts(target);
    if (!named || (!whole && function(frame().function).variables[static_cast<size_t>(base->decl)].is_param)) {
      // Stored into a variable outside the function or through a parameter into the caller's
      // memory: later uses are out of the walk's sight.
      escape(b, value.range);
      return;
    }
    const size_t v = static_cast<size_t>(base->decl);
    if (frame().buffer_of_var[v] >= 0) return;
    std::vector<int>& held = frame().carried[v];
    if (std::find(held.begin(), held.end(), b) == held.end()) held.push_back(b);
  }

  // The buffers an expression refers to, directly or through variables that hold them.
  void collect_buffers(const CExpr& e, std::vector<int>& out) const {
    if (e.kind == CExprKind::kName && e.decl >= 0) {
      const auto& f = frames_.back();
      const int b = f.buffer_of_var[static_cast<size_t>(e.decl)];
      if (b >= 0 && std::find(out.begin(), out.end(), b) == out.end()) out.push_back(b);
      for (int c : f.carried[static_cast<size_t>(e.decl)]) {
        if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
      }
      return;
    }
    for (const CExpr& a : e.args)
      collect_buffers(a, out);
  }

  void visit_for(const CStmt& s) {
    const CStmt& init = s.body[0];
    // The loop variable and its range, for the canonical `for (T i = a; i < b; ++i)`.
    int loop_var = -1;
    ValueRange start;
    if (init.kind == CStmtKind::kDecl && init.decls.size() == 1) {
      loop_var = init.decls[0];
      const CVariable& var = function(frame().function).variables[static_cast<size_t>(loop_var)];
      if (var.init) {
        visit_expr(*var.init, Use::kLoad);
        start = evaluate(*var.init);
      }
    } else if (init.kind == CStmtKind::kExpr) {
      const CExpr& e = init.exprs[0];
      if (e.kind == CExprKind::kBinary && e.text == "=" && e.args[0].kind == CExprKind::kName && e.args[0].decl >= 0) {
        loop_var = e.args[0].decl;
        start = evaluate(e.args[1]);
      }
      visit_expr(e, Use::kLoad);
    }
    const CExpr& cond = s.exprs[0];
    const CExpr& inc = s.exprs[1];
    const ValueRange range = loop_range(s, loop_var, start, ranges_, value_of());
    if (loop_var >= 0) frame().value_of_var[static_cast<size_t>(loop_var)] = range;

    Scope loop{frame().function, frame().call, true, scope().initial >= 0 ? scope().initial : tick_, scope().accessed};
    scopes_.push_back(std::move(loop));
    visit_expr(cond, Use::kLoad);
    visit_expr(inc, Use::kLoad);
    visit_stmt(s.body[1]);
    for (int b : scope().accessed) {
      auto& ticks = intervals_[{call_key(b), b}];
      ticks.first = std::min(ticks.first, scope().initial);
      ticks.second = std::max(ticks.second, tick_);
    }
    scopes_.pop_back();
  }

  bool is_view(const CExpr& e) override {
    const CExpr& x = strip_casts(e);
    return x.kind == CExprKind::kName && x.decl >= 0 && frame().view_of_var[static_cast<size_t>(x.decl)];
  }

  // The buffer an argument points into, `&buf[k]` or `buf + k` (casts aside), or -1.
  int buffer_viewed_by(const CExpr& e) {
    const CExpr& x = strip_casts(e);
    if (x.kind == CExprKind::kUnary && x.text == "&" && !x.args.empty()) {
      const CExpr& element = strip_casts(x.args[0]);
      if (element.kind == CExprKind::kSubscript && element.args.size() == 2) return buffer_of(element.args[0]);
    }
    if (x.kind == CExprKind::kBinary && (x.text == "+" || x.text == "-") && x.args.size() == 2) {
      const int b = buffer_of(x.args[0]);
      return b >= 0 || x.text == "-" ? b : buffer_of(x.args[1]);
    }
    return -1;
  }

  int buffer_of(const CExpr& e) override {
    const CExpr& x = strip_casts(e);
    if (x.kind != CExprKind::kName || x.decl < 0) return -1;
    return frame().buffer_of_var[static_cast<size_t>(x.decl)];
  }

  void visit_expr(const CExpr& e, Use use) {
    switch (e.kind) {
      case CExprKind::kName: {
        if (e.decl < 0) break;
        const int b = frame().buffer_of_var[static_cast<size_t>(e.decl)];
        if (b >= 0) touch(b);
        for (int held : frame().carried[static_cast<size_t>(e.decl)])
          touch(held);
        break;
      }
      case CExprKind::kSubscript:
        if (e.args.size() == 2) {
          const int b = buffer_of(e.args[0]);
          if (b >= 0 && !is_view(e.args[0])) extents_.record(b, e, use, evaluate(e.args[1]));
        }
        for (const CExpr& a : e.args)
          visit_expr(a, Use::kLoad);
        break;
      case CExprKind::kUnary:
        if (!e.args.empty()) {
          visit_expr(e.args[0], e.text == "&"                        ? Use::kAddress
                                : (e.text == "++" || e.text == "--") ? Use::kStore
                                                                     : Use::kLoad);
        }
        break;
      case CExprKind::kBinary:
        if (e.args.size() == 2 && is_assignment(e.text)) {
          const CExpr& target = strip_casts(e.args[0]);
          if (e.text == "=" && target.kind == CExprKind::kName && target.decl >= 0 && bind_site(target.decl)) break;
          visit_expr(e.args[0], Use::kStore);
          visit_expr(e.args[1], Use::kLoad);
          carry_stored_address(e.args[0], e.args[1]);
          const CExpr& lhs = strip_casts(e.args[0]);
          if (lhs.kind == CExprKind::kName && lhs.decl >= 0 &&
              frame().buffer_of_var[static_cast<size_t>(lhs.decl)] < 0) {
            frame().value_of_var[static_cast<size_t>(lhs.decl)] =
                e.text == "=" ? evaluate(e.args[1]) : ValueRange::unknown();
          }
        } else {
          for (const CExpr& a : e.args)
            visit_expr(a, Use::kLoad);
        }
        break;
      case CExprKind::kCall: {
        // The module's own functions (a prefix TVM gives only them), defined here or not.
        const bool module_function = code_.operators.count(e.text) || e.text.rfind(code_.prefix, 0) == 0;
        if (const CFunction* f = program_.find_function(e.text); f && f->is_definition)
          extents_.punned_arguments(e, *f, module_function);
        if (module_function) {
          call_operator(e);
        } else if (const CFunction* f = program_.find_function(e.text); f && f->is_definition) {
          for (const CExpr& a : e.args)
            visit_expr(a, Use::kLoad);
        } else {
          // A call into code without a body here: every buffer it receives counts as accessed.
          for (const CExpr& a : e.args)
            visit_expr(a, Use::kLoad);
          ++result_.external_calls[e.text];
          extents_.external_call(e);
        }
        break;
      }
      case CExprKind::kCast:
        for (const CExpr& a : e.args)
          visit_expr(a, use);
        break;
      default:
        for (const CExpr& a : e.args)
          visit_expr(a, Use::kLoad);
        break;
    }
  }

  void call_operator(const CExpr& call) {
    const CFunction* callee = program_.find_function(call.text);
    if (!callee || !callee->is_definition) {
      if (undefined_reported_.insert(call.text).second) {
        result_.missing_operators.push_back(call.text);
        warn(call.range, "mlf-undefined-operator",
             "operator '" + call.text +
                 "' has no C definition here; its buffers count as accessed at the call only, and buffers it "
                 "places in the pools itself are unknown");
      }
      for (const CExpr& a : call.args)
        visit_expr(a, Use::kLoad);
      return;
    }
    if (frames_.size() >= kMaxCallDepth) {
      warn(call.range, "mlf-call-depth",
           "calls nested deeper than " + std::to_string(kMaxCallDepth) + " are not followed");
      return;
    }
    const int fn = static_cast<int>(callee - program_.functions.data());
    // Parameters are aliased to the caller's buffers; like TVM, an alias is never cleared. An
    // argument pointing into a buffer (`&buf[k]`, `buf + k`) aliases it too, as a view whose
    // accesses count for the lifetime but say nothing of the size.
    std::vector<std::vector<int>> held(callee->params.size());
    for (size_t i = 0; i < call.args.size() && i < callee->params.size(); ++i) {
      const int b = buffer_of(call.args[i]);
      const int viewed = b >= 0 ? -1 : buffer_viewed_by(call.args[i]);
      if (b >= 0) aliases_[{fn, static_cast<int>(i)}] = {b, is_view(call.args[i])};
      if (viewed >= 0) aliases_[{fn, static_cast<int>(i)}] = {viewed, true};
      // An argument that reaches buffers only through a local holding their address
      // (`int8_t* p = (int8_t*)padded_data; f(p)`): the callee's uses of the parameter reach them.
      if (b < 0 && viewed < 0) collect_buffers(call.args[i], held[i]);
    }
    Frame f = new_frame(fn, next_call_++);
    for (size_t i = 0; i < held.size(); ++i)
      f.carried[static_cast<size_t>(callee->params[i])] = std::move(held[i]);
    for (size_t i = 0; i < callee->params.size(); ++i) {
      const auto it = aliases_.find({fn, static_cast<int>(i)});
      if (it == aliases_.end()) continue;
      f.buffer_of_var[static_cast<size_t>(callee->params[i])] = it->second.first;
      f.view_of_var[static_cast<size_t>(callee->params[i])] = it->second.second;
    }
    frames_.push_back(std::move(f));
    enter(fn);
    if (frame_damaged_.back()) {  // what it does with its parameters' buffers may not be visible
      for (const int param : callee->params) {
        const int b = frames_.back().buffer_of_var[static_cast<size_t>(param)];
        if (b >= 0) uncertain(b);
      }
    }
    scopes_.push_back({fn, frames_.back().call, scope().in_loop, scope().initial, scope().accessed});
    const int64_t first = tick_ + 1;
    const bool from_entry = frames_.size() == 2;
    visit_stmt(callee->body);
    if (from_entry) result_.calls.push_back({call.text, first, tick_});
    std::vector<int> touched = std::move(scopes_.back().accessed);
    scopes_.pop_back();
    // USMP off: a function called inside a loop runs once per iteration, so what it touched is
    // live across the caller's loop (TVM's USMP forgets it; its TIR has no such calls, and
    // USMP-on output is read as TVM planned it).
    if (!code_.usmp() && scope().in_loop) {
      for (int b : touched) {
        if (std::find(scope().accessed.begin(), scope().accessed.end(), b) == scope().accessed.end())
          scope().accessed.push_back(b);
      }
    }
    frames_.pop_back();
    frame_damaged_.pop_back();
  }

  VariableValue value_of() {
    return [this](int decl) { return frame().value_of_var[static_cast<size_t>(decl)]; };
  }

  ValueRange evaluate(const CExpr& e) override { return evaluate_expr(e, ranges_, value_of()); }
  int64_t dims_elements(int decl) override { return frame().dims_elements[static_cast<size_t>(decl)]; }
  const CVariable& variable(int decl) override {
    return function(frame().function).variables[static_cast<size_t>(decl)];
  }

  const CProgram& program_;
  const TvmCode& code_;
  const WalkOptions& options_;
  const std::string& root_;
  WalkResult result_;
  int64_t tick_ = 0;
  int next_call_ = 1;  // 0 is the entry's own call
  std::vector<Frame> frames_;
  std::vector<Scope> scopes_;
  std::vector<std::pair<size_t, int>> block_buffers_;  // (scope index, buffer) declared in open blocks
  std::map<std::pair<int, int>, std::pair<int64_t, int64_t>> intervals_;  // (call, buffer) -> first, last
  std::map<std::pair<int, int>, int> site_buffer_;                        // (function, variable) -> buffer
  std::map<std::pair<int, int>, std::pair<int, bool>> aliases_;           // (function, parameter) -> buffer, view
  std::unordered_map<std::string, int> name_uses_;
  std::vector<int> owner_function_;
  std::vector<int> owner_call_;
  std::set<std::string> undefined_reported_;
  std::map<int, bool> damaged_;
  std::set<int> damaged_reported_;
  std::vector<bool> frame_damaged_;  // per frame: its function did not parse whole
  RangeContext ranges_;
  AccessExtents extents_;
};

}  // namespace

WalkResult walk_entry(const CProgram& program, const TvmCode& code, const WalkOptions& options,
                      const std::string& display_root) {
  return Walker(program, code, options, display_root).run();
}

}  // namespace usmpx
