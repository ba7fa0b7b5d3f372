#include "frontends/tvm/export/rewrite/mlf_host_rewrite.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "base/text_join.h"
#include "export/export_error.h"
#include "frontends/tvm/export/rewrite/text_edits.h"
#include "frontends/tvm/usmp/pool_lets.h"

namespace usmpx {
namespace {

class HostRewriter {
 public:
  HostRewriter(const MlfModel& m, const Problem& problem, const Plan& plan, const std::vector<ExportPool>& pools,
               int skip_file, const std::map<int, TextEdits>& also)
      : m_(m), problem_(problem), plan_(plan), pools_(pools), skip_file_(skip_file), edits_(m.program.files.size()) {
    for (const auto& [file, edits] : also) {
      if (file >= 0 && static_cast<size_t>(file) < edits_.size()) edits_[static_cast<size_t>(file)].append(edits);
    }
  }

  HostRewrite run() {
    if (m_.code.entry < 0) throw ExportError("no AoT entry function was found in " + m_.package->path);
    const size_t reserved =
        static_cast<size_t>(std::count_if(problem_.buffers.begin(), problem_.buffers.end(),
                                          [](const Buffer& b) { return b.kind == BufferKind::kReserved; }));
    if (problem_.buffers.size() - reserved != m_.walk.buffers.size())
      throw ExportError("the problem's buffers do not match the model's (" +
                        std::to_string(problem_.buffers.size() - reserved) + " vs " +
                        std::to_string(m_.walk.buffers.size()) + ")");
    order_functions();
    keep_signatures_ = same_pools();
    if (!keep_signatures_ && usmp_input()) number_kept_pool_params();
    for (size_t b = 0; b < m_.walk.buffers.size(); ++b)
      place(static_cast<int>(b));
    if (!keep_signatures_ && usmp_input()) {
      for (size_t f = 0; f < m_.program.functions.size(); ++f)
        swap_pool_params(static_cast<int>(f));
      for (const EntryCall& call : m_.code.calls)
        swap_pool_args(call, m_.code.entry);
      for (const InnerCall& call : m_.code.inner_calls) {
        if (std::find(order_.begin(), order_.end(), fn(call.caller).name) != order_.end())
          swap_pool_args(call.call, call.caller);
      }
    } else if (!keep_signatures_) {
      for (size_t f = 0; f < m_.program.functions.size(); ++f)
        rewrite_signature(static_cast<int>(f));
      for (const EntryCall& call : m_.code.calls)
        rewrite_call(call, m_.code.entry);
      for (const InnerCall& call : m_.code.inner_calls) {
        if (std::find(order_.begin(), order_.end(), fn(call.caller).name) != order_.end())
          rewrite_call(call.call, call.caller);
      }
    }
    HostRewrite out;
    out.functions = order_;
    for (size_t f = 0; f < edits_.size(); ++f) {
      if (edits_[f].empty()) continue;
      try {
        out.files[static_cast<int>(f)] = edits_[f].apply(m_.program.files[f].text);
      } catch (const std::logic_error& e) {
        throw ExportError(std::string("the rewrites of ") + m_.program.files[f].path + " collide: " + e.what());
      }
    }
    return out;
  }

 private:
  const CFunction& fn(int index) const { return m_.program.functions[static_cast<size_t>(index)]; }
  // A range the rewrite relies on must lie within one parsed file (code that macros or odd
  // declarations produce may have none).
  const CRange& checked(const CRange& r) const {
    if (r.file < 0 || static_cast<size_t>(r.file) >= m_.program.files.size() || r.begin > r.end ||
        r.end > m_.program.files[static_cast<size_t>(r.file)].text.size())
      throw ExportError(
          "a construct of the generated C has no place in its source file (a macro?); it cannot be rewritten",
          where(r));
    return r;
  }
  std::string_view text(const CRange& r) const {
    checked(r);
    return m_.program.files[static_cast<size_t>(r.file)].text.substr(r.begin, r.end - r.begin);
  }
  SourceLocation where(const CRange& r) const {
    if (!r.valid() || static_cast<size_t>(r.file) >= m_.program.files.size()) return {m_.package->path, 0, 0};
    return {m_.package->path + "/" + m_.program.files[static_cast<size_t>(r.file)].path, r.line, r.column};
  }
  TextEdits& edits(const CRange& r) { return edits_[static_cast<size_t>(checked(r).file)]; }

  // USMP's visiting order, which numbers the pool parameters: the entry, then depth first each
  // function in the order it is first called (an operator, then the functions it calls).
  void order_functions() {
    order_.push_back(fn(m_.code.entry).name);
    for (const EntryCall& c : m_.code.calls)
      visit(c.callee);
  }
  void visit(const std::string& name) {
    if (std::find(order_.begin(), order_.end(), name) != order_.end()) return;
    order_.push_back(name);
    for (const InnerCall& c : m_.code.inner_calls) {
      if (fn(c.caller).name == name) visit(c.call.callee);
    }
  }

  // The pool parameter names function `name` gets, in pool order.
  std::vector<std::string> pool_params_of(const std::string& name) const {
    if (!kept_numbers_.empty()) {
      const auto it = kept_numbers_.find(name);
      return it == kept_numbers_.end() ? std::vector<std::string>{} : it->second;
    }
    const auto it = std::find(order_.begin(), order_.end(), name);
    std::vector<std::string> params;
    if (it == order_.end()) return params;
    const int64_t base = static_cast<int64_t>(it - order_.begin()) * static_cast<int64_t>(pools_.size());
    for (size_t p = 0; p < pools_.size(); ++p)
      params.push_back(pool_param_name(pools_[p].name, base + static_cast<int64_t>(p)));
    return params;
  }

  std::string address_in(int function, int problem_pool, int64_t offset) const {
    const auto it =
        std::find_if(pools_.begin(), pools_.end(), [&](const ExportPool& p) { return p.index == problem_pool; });
    const std::vector<std::string> params = pool_params_of(fn(function).name);
    if (it == pools_.end() || params.empty())
      throw ExportError("function '" + fn(function).name + "' holds a planned buffer but is not called from the entry",
                        where(fn(function).range));
    return "(&(" + params[static_cast<size_t>(it - pools_.begin())] + "[" + std::to_string(offset) + "]))";
  }

  bool skipped(const CRange& r) const { return r.file == skip_file_; }

  // Whether the plan hands the code the pools TVM's plan did (same names, same order) and keeps
  // the I/O out of them: then every function keeps its signature, every call its arguments and
  // every pool variable its name (TVM's numbering, qualifiers such as `restrict`, the prototypes
  // of external codegens with unnamed parameters), and only the lets' offsets change.
  bool same_pools() const {
    if (!m_.code.allocs.empty()) return false;
    const bool io_planned = std::any_of(m_.walk.buffers.begin(), m_.walk.buffers.end(),
                                        [](const WalkBuffer& w) { return w.source == WalkBufferSource::kIo; });
    if (io_planned) return false;
    std::vector<std::string> before;
    for (const PoolParam& p : m_.code.pool_params) {
      if (p.function == m_.code.entry) before.push_back(p.pool);
    }
    if (before.size() != pools_.size()) return false;
    for (size_t i = 0; i < pools_.size(); ++i) {
      if (before[i] != pools_[i].name) return false;
    }
    return true;
  }

  // USMP-on code whose pools the plan changes: only the functions TVM gave pool parameters get
  // the new pools, in the place of the old ones, each keeping its TVM number (k) where there was
  // one and the old parameter's spelling (`restrict`, an unnamed prototype); functions TVM gave no
  // pools (external codegens without them) keep their signatures and calls.
  // (The I/O moving into the pools, --use-workspace-io, goes the way of a USMP-off model.)
  bool usmp_input() const {
    return m_.code.allocs.empty() && !m_.code.pool_params.empty() &&
           std::none_of(m_.walk.buffers.begin(), m_.walk.buffers.end(),
                        [](const WalkBuffer& w) { return w.source == WalkBufferSource::kIo; });
  }

  void number_kept_pool_params() {
    int64_t next = 0;
    for (const PoolParam& p : m_.code.pool_params)
      next = std::max(next, p.k + 1);
    std::set<std::string> entry_pools = old_entry_pool_vars();
    for (const std::string& name : order_) {
      std::vector<std::pair<int, int64_t>> old;  // (parameter position, k) of the definition
      if (const CFunction* def = definition(name)) {
        const int index = static_cast<int>(def - m_.program.functions.data());
        for (const PoolParam& p : m_.code.pool_params) {
          if (p.function != index) continue;
          const auto at = std::find(def->params.begin(), def->params.end(), p.variable);
          old.push_back({static_cast<int>(at - def->params.begin()), p.k});
        }
      }
      std::sort(old.begin(), old.end());
      const bool passed_pools = std::any_of(m_.code.calls.begin(), m_.code.calls.end(), [&](const EntryCall& c) {
        return c.callee == name && std::any_of(c.args.begin(), c.args.end(), [&](const CRange& a) {
                 return entry_pools.count(std::string(text(a))) > 0;
               });
      });
      if (old.empty() && !passed_pools && name != fn(m_.code.entry).name) continue;
      std::vector<std::string>& names = kept_numbers_[name];
      for (size_t i = 0; i < pools_.size(); ++i)
        names.push_back(pool_param_name(pools_[i].name, i < old.size() ? old[i].second : next++));
    }
  }

  const CFunction* definition(const std::string& name) const {
    for (const CFunction& f : m_.program.functions) {
      if (f.name == name && f.is_definition) return &f;
    }
    return nullptr;
  }

  std::set<std::string> old_entry_pool_vars() const {
    std::set<std::string> names;
    for (const PoolParam& p : m_.code.pool_params) {
      if (p.function == m_.code.entry) names.insert(fn(p.function).variables[static_cast<size_t>(p.variable)].name);
    }
    return names;
  }

  // The positions of a function's pool parameters: named ones; for a prototype with unnamed
  // parameters, those of its definition, else those where the entry passes it its pools.
  std::vector<size_t> pool_positions(const CFunction& function) const {
    std::vector<size_t> at;
    for (size_t i = 0; i < function.params.size(); ++i) {
      if (is_pool_param(function.variables[static_cast<size_t>(function.params[i])])) at.push_back(i);
    }
    if (!at.empty()) return at;
    if (const CFunction* def = definition(function.name); def && def != &function) {
      for (size_t i = 0; i < def->params.size(); ++i) {
        if (is_pool_param(def->variables[static_cast<size_t>(def->params[i])])) at.push_back(i);
      }
      if (!at.empty()) return at;
    }
    const std::set<std::string> entry_pools = old_entry_pool_vars();
    for (const EntryCall& c : m_.code.calls) {
      if (c.callee != function.name) continue;
      for (size_t i = 0; i < c.args.size(); ++i) {
        if (entry_pools.count(std::string(text(c.args[i])))) at.push_back(i);
      }
      break;
    }
    return at;
  }

  // Replaces the items at `positions` (consecutive) of a list by `items`.
  void replace_block(const std::vector<CRange>& list, const std::vector<size_t>& positions,
                     const std::vector<std::string>& items, const std::string& name, const CRange& whole) {
    for (size_t i = 1; i < positions.size(); ++i) {
      if (positions[i] != positions[i - 1] + 1)
        throw ExportError("the pool parameters of '" + name + "' are not next to each other; cannot change its pools",
                          where(whole));
    }
    if (positions.empty() || positions.back() >= list.size())
      throw ExportError("cannot find the pool parameters of '" + name + "'", where(whole));
    const CRange& first = list[positions.front()];
    const CRange& last = list[positions.back()];
    if (checked(first).file != checked(last).file || first.begin > last.end)
      throw ExportError("the parameters or arguments of '" + name + "' are not in one piece of source", where(whole));
    edits(first).replace(first.begin, last.end, join(items, ", "));
  }

  void swap_pool_params(int f) {
    const CFunction& function = fn(f);
    if (!function.range.valid() || skipped(function.range)) return;
    const std::vector<std::string> names = pool_params_of(function.name);
    if (names.empty()) return;
    const std::vector<size_t> positions = pool_positions(function);
    if (positions.empty())
      throw ExportError("'" + function.name + "' takes no pool parameters TVM's way; cannot give it the plan's pools",
                        where(function.range));
    std::vector<CRange> ranges;
    for (int p : function.params)
      ranges.push_back(function.variables[static_cast<size_t>(p)].range);
    std::vector<std::string> items;
    for (size_t i = 0; i < names.size(); ++i) {
      const CVariable& like =
          function.variables[static_cast<size_t>(function.params[positions[std::min(i, positions.size() - 1)]])];
      std::string spelled(text(like.range));
      const bool unnamed = like.name.empty() || spelled.size() < like.name.size() ||
                           spelled.compare(spelled.size() - like.name.size(), like.name.size(), like.name) != 0;
      items.push_back(unnamed ? spelled : spelled.substr(0, spelled.size() - like.name.size()) + names[i]);
    }
    replace_block(ranges, positions, items, function.name, function.range);
  }

  // The pool parameters `caller` had in the input.
  std::set<std::string> old_pool_vars(int caller) const {
    if (caller == m_.code.entry) return old_entry_pool_vars();
    std::set<std::string> names;
    for (int p : fn(caller).params) {
      const CVariable& v = fn(caller).variables[static_cast<size_t>(p)];
      if (is_pool_param(v)) names.insert(v.name);
    }
    return names;
  }

  void swap_pool_args(const EntryCall& call, int caller_index) {
    if (skipped(call.call) || pool_params_of(call.callee).empty()) return;
    const std::set<std::string> caller_pools = old_pool_vars(caller_index);
    std::vector<size_t> positions;
    for (size_t i = 0; i < call.args.size(); ++i) {
      if (caller_pools.count(std::string(text(call.args[i])))) positions.push_back(i);
    }
    const std::vector<std::string> caller = pool_params_of(fn(caller_index).name);
    if (positions.empty()) {
      throw ExportError("the call of '" + call.callee + "' in '" + fn(caller_index).name +
                            "' passes no pools; cannot give it the plan's pools",
                        where(call.call));
    }
    replace_block(call.args, positions, caller, call.callee, call.call);
  }

  // The name function `function` already gives the pool `problem_pool` (keep_signatures_ mode).
  std::string existing_pool_param(int function, int problem_pool) const {
    const std::string& pool = problem_.pools[static_cast<size_t>(problem_pool)].name;
    for (const PoolParam& p : m_.code.pool_params) {
      if (p.function == function && p.pool == pool) return fn(function).variables[static_cast<size_t>(p.variable)].name;
    }
    throw ExportError("function '" + fn(function).name + "' is not passed pool '" + pool +
                          "', where the plan puts one of its buffers",
                      where(fn(function).range));
  }

  // A let keeps its text but for the offset (and the pool variable when the buffer changes pool).
  void move_let(const PoolLet& let, const CVariable& var, const Allocation& a) {
    const std::string& pool = problem_.pools[static_cast<size_t>(a.pool)].name;
    if (pool == let.pool && let.offset_range.valid()) {
      if (a.offset != let.offset)
        edits(let.offset_range).replace(let.offset_range.begin, let.offset_range.end, std::to_string(a.offset));
      return;
    }
    edits(var.init_range)
        .replace(var.init_range.begin, var.init_range.end,
                 "(&(" + existing_pool_param(let.function, a.pool) + "[" + std::to_string(a.offset) + "]))");
  }

  void place(int b) {
    const WalkBuffer& w = m_.walk.buffers[static_cast<size_t>(b)];
    const Allocation& a = plan_.allocations[static_cast<size_t>(b)];
    switch (w.source) {
      case WalkBufferSource::kPoolLet: {
        const PoolLet& let = m_.code.lets[static_cast<size_t>(w.index)];
        const CVariable& var = fn(let.function).variables[static_cast<size_t>(let.variable)];
        if (!var.init_range.valid())
          throw ExportError("'" + var.name + "' is assigned, not initialised; cannot move it", where(let.statement));
        if (keep_signatures_) {
          move_let(let, var, a);
          break;
        }
        edits(var.init_range)
            .replace(var.init_range.begin, var.init_range.end, address_in(let.function, a.pool, a.offset));
        break;
      }
      case WalkBufferSource::kWorkspaceAlloc: {
        const WorkspaceAlloc& alloc = m_.code.allocs[static_cast<size_t>(w.index)];
        if (!alloc.call.valid())
          throw ExportError("cannot locate the allocation of '" + w.name + "'", where(alloc.statement));
        edits(alloc.call).replace(alloc.call.begin, alloc.call.end, address_in(alloc.function, a.pool, a.offset));
        for (const CRange* r : {&alloc.null_check, &alloc.free}) {
          if (r->valid())
            edits(*r).erase_statement(m_.program.files[static_cast<size_t>(checked(*r).file)].text, r->begin, r->end);
        }
        break;
      }
      case WalkBufferSource::kIo:
        io_params_.insert(w.index);
        io_buffers_.push_back(b);
        break;
    }
  }

  bool is_pool_param(const CVariable& v) const { return pool_of_parameter(v.name).has_value() && v.element_bytes == 1; }

  void rewrite_signature(int f) {
    const CFunction& function = fn(f);
    if (!function.range.valid() || skipped(function.range)) return;
    const std::vector<std::string> new_pools = pool_params_of(function.name);
    if (new_pools.empty() || identifier_list_declaration(function)) return;
    const bool is_entry = function.name == fn(m_.code.entry).name;
    std::vector<std::string> parts;
    int io_number = 0;
    for (int p : function.params) {
      const CVariable& v = function.variables[static_cast<size_t>(p)];
      if (is_pool_param(v)) continue;
      const bool io = is_entry && io_params_.count(io_number++) > 0;
      if (io) {
        if (function.is_definition) io_locals_.push_back(p);
        continue;
      }
      parts.emplace_back(text(v.range));
    }
    parts.insert(parts.end(), new_pools.size(), "");
    for (size_t i = 0; i < new_pools.size(); ++i)
      parts[parts.size() - new_pools.size() + i] = "uint8_t* " + new_pools[i];
    replace_list(
        function.range, function.name,
        function.params.empty() ? nullptr : &function.variables[static_cast<size_t>(function.params.front())].range,
        function.params.empty() ? nullptr : &function.variables[static_cast<size_t>(function.params.back())].range,
        join(parts, ", "));
    if (is_entry && function.is_definition && !io_locals_.empty()) declare_io_locals(f);
  }

  // With --use-workspace-io the entry's I/O parameters become locals at its top, pointing into their pools.
  void declare_io_locals(int f) {
    const CFunction& entry = fn(f);
    std::string decls;
    for (size_t i = 0; i < io_locals_.size(); ++i) {
      const CVariable& v = entry.variables[static_cast<size_t>(io_locals_[i])];
      const int b = io_buffer_of(static_cast<int>(i));
      const Allocation& a = plan_.allocations[static_cast<size_t>(b)];
      decls += "  " + v.type + " " + v.name + " = (" + v.type + ")" + address_in(f, a.pool, a.offset) + ";\n";
    }
    const CRange& body = entry.body_range;
    const std::string_view t = m_.program.files[static_cast<size_t>(checked(body).file)].text;
    uint32_t at = body.begin + 1;
    if (at < t.size() && t[at] == '\n') ++at;
    edits(body).insert(at, decls);
  }

  int io_buffer_of(int io_index) const {
    for (int b : io_buffers_) {
      if (m_.walk.buffers[static_cast<size_t>(b)].index == io_index) return b;
    }
    throw ExportError("no planned buffer for I/O parameter " + std::to_string(io_index));
  }

  // A call passes its caller's pool parameters, renamed and in the plan's pool order.
  void rewrite_call(const EntryCall& call, int caller_index) {
    if (skipped(call.call)) return;
    const CFunction& caller = fn(caller_index);
    const std::vector<std::string> caller_pools = pool_params_of(caller.name);
    std::set<std::string> old_pools;
    for (int p : caller.params) {
      const CVariable& v = caller.variables[static_cast<size_t>(p)];
      if (is_pool_param(v)) old_pools.insert(v.name);
    }
    // As many pools as before: each pool argument is renamed where it stands, and the other
    // arguments keep their bytes (an iteratee's `(&(buf[k]))` included).
    std::vector<const CRange*> pool_args;
    for (const CRange& arg : call.args) {
      if (old_pools.count(std::string(text(arg)))) pool_args.push_back(&arg);
    }
    if (pool_args.size() == caller_pools.size()) {
      for (size_t i = 0; i < pool_args.size(); ++i)
        edits(*pool_args[i]).replace(pool_args[i]->begin, pool_args[i]->end, caller_pools[i]);
      return;
    }
    std::vector<std::string> parts;
    for (const CRange& arg : call.args) {
      const std::string t(text(arg));
      if (!old_pools.count(t)) parts.push_back(t);
    }
    parts.insert(parts.end(), caller_pools.begin(), caller_pools.end());
    replace_list(call.call, call.callee, call.args.empty() ? nullptr : &call.args.front(),
                 call.args.empty() ? nullptr : &call.args.back(), join(parts, ", "));
  }

  // TVM 0.8's lib0.c declares the entry with bare names, `tvmgen_default_run_model(arg0,arg1);`
  // (an identifier list, which clang reads as no parameters): such a declaration states no
  // parameter types, so its callers may pass the pools as they are; it stays as written.
  bool identifier_list_declaration(const CFunction& function) const {
    if (function.is_definition || !function.params.empty()) return false;
    const std::string_view t = text(function.range);
    const size_t at = t.find(function.name);
    const size_t open = at == std::string_view::npos ? at : t.find('(', at + function.name.size());
    const size_t close = open == std::string_view::npos ? open : t.find(')', open);
    if (close == std::string_view::npos) return false;
    std::string_view inside = t.substr(open + 1, close - open - 1);
    while (!inside.empty() && std::isspace(static_cast<unsigned char>(inside.front())))
      inside.remove_prefix(1);
    while (!inside.empty() && std::isspace(static_cast<unsigned char>(inside.back())))
      inside.remove_suffix(1);
    return !inside.empty() && inside != "void";
  }

  // Replaces a parameter or argument list: from the first item to the last, or, when there is
  // none, everything between the parentheses after `name` inside `whole`.
  void replace_list(const CRange& whole, const std::string& name, const CRange* first, const CRange* last,
                    const std::string& list) {
    if (first && last) {
      if (checked(*first).file != checked(*last).file || first->begin > last->end)
        throw ExportError("the parameters or arguments of '" + name + "' are not in one piece of source", where(whole));
      edits(*first).replace(first->begin, last->end, list);
      return;
    }
    const std::string_view t = text(whole);
    const size_t at = t.find(name);
    const size_t open = at == std::string_view::npos ? at : t.find('(', at + name.size());
    const size_t close = open == std::string_view::npos ? open : t.find(')', open);
    if (close == std::string_view::npos)
      throw ExportError("cannot find the parameter list of '" + name + "'", where(whole));
    edits(whole).replace(whole.begin + static_cast<uint32_t>(open) + 1, whole.begin + static_cast<uint32_t>(close),
                         list);
  }

  const MlfModel& m_;
  const Problem& problem_;
  const Plan& plan_;
  const std::vector<ExportPool>& pools_;
  int skip_file_;
  std::vector<TextEdits> edits_;
  std::vector<std::string> order_;
  bool keep_signatures_ = false;
  std::map<std::string, std::vector<std::string>> kept_numbers_;  // function -> its new pool parameters
  std::set<int> io_params_;      // indices of the entry's I/O parameters that are planned
  std::vector<int> io_buffers_;  // their buffers
  std::vector<int> io_locals_;   // their variables in the entry's definition, in parameter order
};

}  // namespace

HostRewrite rewrite_host_sources(const MlfModel& model, const Problem& problem, const Plan& plan,
                                 const std::vector<ExportPool>& pools, int skip_file,
                                 const std::map<int, TextEdits>& also) {
  return HostRewriter(model, problem, plan, pools, skip_file, also).run();
}

}  // namespace usmpx
