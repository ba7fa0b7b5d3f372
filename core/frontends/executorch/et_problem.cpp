#include "frontends/executorch/et_problem.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <set>

#include "base/alignment.h"
#include "frontends/executorch/et_aliases.h"
#include "planners/toolchains/et_greedy.h"

namespace usmpx {
namespace {

namespace sc = et_schema;

// The value indices an argument names: itself, and a list's items.
std::vector<int32_t> named(const EtMethod& m, int32_t v) {
  std::vector<int32_t> out;
  if (v < 0) return out;
  out.push_back(v);
  for (int32_t item : m.values[static_cast<size_t>(v)].items) {
    if (item >= 0) out.push_back(item);
  }
  return out;
}

std::string instruction_label(const EtMethod& m, const EtInstruction& in) {
  switch (in.type) {
    case sc::InstructionType::kKernelCall: return m.operators[static_cast<size_t>(in.index)].full_name();
    case sc::InstructionType::kDelegateCall: return "delegate " + m.delegates[static_cast<size_t>(in.index)].id;
    case sc::InstructionType::kMoveCall: return "move";
    case sc::InstructionType::kJumpFalseCall: return "jump_false";
    case sc::InstructionType::kFreeCall: return "free";
    default: return "?";
  }
}

// The tensors of one method, with lifetimes as ExecuTorch's memory planning computes them from
// its graph: first and last instruction that names a tensor, method inputs from the start,
// outputs and mutable buffers to the end (memory_planning.py update_all_tensors_lifetime).
class MethodAnalysis {
 public:
  MethodAnalysis(EtAnalysis& a, int method, int64_t base, std::vector<EtUse>& uses, std::vector<EtStatedAlias>& stated)
      : a_(a), method_(method), base_(base), uses_(uses), stated_(stated) {}

  void run() {
    const EtMethod& m = a_.program.methods[static_cast<size_t>(method_)];
    const int64_t end = base_ + std::max<int64_t>(1, static_cast<int64_t>(m.instructions.size())) - 1;
    const size_t start = a_.tensors.size();
    add_tensors(m);
    const std::vector<std::pair<int64_t, int64_t>> loops = walk_instructions(m);
    bound_lifetimes(m, start, end);
    // A backward jump runs its instructions again: what is live in the loop lives through it.
    for (int pass = 0; pass < 2 && !loops.empty(); ++pass) {
      for (const auto& [from, to] : loops) {
        for (size_t t = start; t < a_.tensors.size(); ++t) {
          EtTensorInfo& info = a_.tensors[t];
          if (info.last >= from && info.first <= to) {
            info.first = std::min(info.first, from);
            info.last = std::max(info.last, to);
          }
        }
      }
    }
  }

  void set_prefix(std::string prefix) { prefix_ = std::move(prefix); }

 private:
  // One tensor per value of the method that has an allocation (a planned tensor).
  void add_tensors(const EtMethod& m) {
    of_value_.assign(m.values.size(), -1);
    for (size_t v = 0; v < m.values.size(); ++v) {
      const auto& x = m.values[v].tensor;
      if (!x || !x->allocation) continue;
      of_value_[v] = static_cast<int>(a_.tensors.size());
      EtTensorInfo t;
      t.method = method_;
      t.value = static_cast<int>(v);
      t.bytes = x->nbytes;
      t.memory_id = x->allocation->memory_id;
      t.offset = static_cast<int64_t>(x->allocation->offset);
      t.first = t.last = -1;
      a_.tensors.push_back(t);
    }
    uses_.resize(a_.tensors.size());
  }

  int tensor_of(int32_t v) const { return v < 0 ? -1 : of_value_[static_cast<size_t>(v)]; }

  // The tensors value `v` names are used at `tick`.
  void use(const EtMethod& m, int32_t v, int64_t tick) {
    for (int32_t j : named(m, v)) {
      const int t = of_value_[static_cast<size_t>(j)];
      if (t < 0) continue;
      EtTensorInfo& info = a_.tensors[static_cast<size_t>(t)];
      if (info.first < 0) info.first = tick;
      if (info.last != tick) ++uses_[static_cast<size_t>(t)].instructions;
      info.last = tick;
    }
  }

  // A kernel call's arguments are used; out-variant calls end with the returned value(s): the
  // tensors the kernel writes. Notes the tensors it reads before anything writes them.
  void kernel_call(const EtMethod& m, const EtInstruction& in, int64_t tick) {
    const std::vector<int32_t> written = in.args.empty() ? std::vector<int32_t>{} : named(m, in.args.back());
    std::vector<int> fresh;  // tensors this call names first
    for (int32_t arg : in.args) {
      for (int32_t j : named(m, arg)) {
        const int t = of_value_[static_cast<size_t>(j)];
        if (t < 0 || a_.tensors[static_cast<size_t>(t)].first >= 0) continue;
        fresh.push_back(t);
        if (std::find(written.begin(), written.end(), j) == written.end())
          uses_[static_cast<size_t>(t)].read_first = true;
      }
      use(m, arg, tick);
    }
    state_aliases(m, in, written, fresh);
  }

  // Every instruction's uses, one tick each, and its timeline label; returns the backward jumps
  // (from, to) as ticks.
  std::vector<std::pair<int64_t, int64_t>> walk_instructions(const EtMethod& m) {
    std::vector<std::pair<int64_t, int64_t>> loops;
    for (size_t k = 0; k < m.instructions.size(); ++k) {
      const EtInstruction& in = m.instructions[k];
      const int64_t tick = base_ + static_cast<int64_t>(k);
      switch (in.type) {
        case sc::InstructionType::kKernelCall: kernel_call(m, in, tick); break;
        case sc::InstructionType::kDelegateCall:
          // What a delegate receives is live through its call (its internals are its own).
          for (int32_t arg : in.args) {
            for (int32_t j : named(m, arg)) {
              const int t = of_value_[static_cast<size_t>(j)];
              if (t >= 0 && a_.tensors[static_cast<size_t>(t)].first < 0)
                uses_[static_cast<size_t>(t)].delegate_first = true;
            }
            use(m, arg, tick);
          }
          break;
        case sc::InstructionType::kMoveCall:
          use(m, in.from, tick);
          use(m, in.to, tick);
          break;
        case sc::InstructionType::kJumpFalseCall:
          use(m, in.condition, tick);
          if (in.destination <= static_cast<int32_t>(k)) loops.push_back({base_ + in.destination, tick});
          break;
        case sc::InstructionType::kFreeCall: use(m, in.value, tick); break;
        default: break;
      }
      a_.problem.timeline.push_back({tick, tick, prefix_ + instruction_label(m, in)});
    }
    return loops;
  }

  // Method inputs live from the start, outputs and mutable buffers to the end; a tensor nothing
  // names is assumed live throughout.
  void bound_lifetimes(const EtMethod& m, size_t start, int64_t end) {
    for (int32_t v : m.inputs) {
      const int t = of_value_[static_cast<size_t>(v)];
      if (t < 0) continue;
      EtTensorInfo& info = a_.tensors[static_cast<size_t>(t)];
      info.first = base_;
      if (info.last < 0) info.last = base_;
    }
    for (int32_t v : m.outputs) {
      for (int32_t j : named(m, v)) {
        const int t = of_value_[static_cast<size_t>(j)];
        if (t < 0) continue;
        EtTensorInfo& info = a_.tensors[static_cast<size_t>(t)];
        if (info.first < 0) info.first = base_;
        info.last = end;
      }
    }
    for (size_t t = start; t < a_.tensors.size(); ++t) {
      EtTensorInfo& info = a_.tensors[t];
      const EtTensor& x = *m.values[static_cast<size_t>(info.value)].tensor;
      if (x.data_buffer_idx > 0) {  // a mutable buffer with initial state: live for the whole run
        info.first = base_;
        info.last = end;
      }
      if (info.first < 0) {  // nothing names it: assumed live throughout
        info.unused = true;
        info.first = base_;
        info.last = end;
      }
    }
  }

  // The aliases a kernel call states: an et_view's output is its input's storage; the value an
  // out-variant returns may be the out= tensor it writes (named first by this call).
  void state_aliases(const EtMethod& m, const EtInstruction& in, const std::vector<int32_t>& written,
                     const std::vector<int>& fresh) {
    const std::string& op = m.operators[static_cast<size_t>(in.index)].name;
    if (op == "executorch_prim::et_view" && in.args.size() >= 2) {
      const int self = tensor_of(in.args.front()), out = tensor_of(in.args.back());
      if (self >= 0 && out >= 0 && self != out) stated_.push_back({out, self, EtStatedAlias::Reason::kEtView});
    }
    for (int32_t w : written) {
      const int r = tensor_of(w);
      if (r < 0) continue;
      const EtTensorInfo& ret = a_.tensors[static_cast<size_t>(r)];
      for (int f : fresh) {
        const EtTensorInfo& out = a_.tensors[static_cast<size_t>(f)];
        const EtTensor& x = *m.values[static_cast<size_t>(out.value)].tensor;
        // An input or mutable buffer holds data before the call: not what the call writes.
        const bool holds_data =
            x.data_buffer_idx > 0 || std::find(m.inputs.begin(), m.inputs.end(), out.value) != m.inputs.end();
        const bool same_kind = x.scalar_type == m.values[static_cast<size_t>(ret.value)].tensor->scalar_type;
        if (f != r && !holds_data && same_kind && out.bytes == ret.bytes &&
            std::find(written.begin(), written.end(), out.value) == written.end())
          stated_.push_back({r, f, EtStatedAlias::Reason::kReturned});
      }
    }
  }

 private:
  EtAnalysis& a_;
  int method_;
  int64_t base_;
  std::vector<EtUse>& uses_;            // by tensor (all methods)
  std::vector<EtStatedAlias>& stated_;  // aliases the calls state
  std::string prefix_;
  std::vector<int> of_value_;  // by value of the method: its tensor, -1 when not planned
};

// One buffer per alias group, in graph order (the order of the group's first value), with the
// program's own offset as the as-built plan; returns how many tensors share a group's storage.
int add_buffers(EtAnalysis& a, const std::vector<size_t>& root, bool prefixed) {
  const EtProgram& prog = a.program;
  Problem& p = a.problem;
  std::vector<int> group_buffer(a.tensors.size(), -1);
  std::set<std::string> names;
  int aliased = 0;
  for (size_t t = 0; t < a.tensors.size(); ++t) {
    if (root[t] != t) continue;
    int64_t lo = INT64_MAX, hi = 0, first = INT64_MAX, last = INT64_MIN;
    bool input = false, output = false, assumed = false, pinned = false;
    const EtMethod& m = prog.methods[static_cast<size_t>(a.tensors[t].method)];
    std::set<int32_t> ins(m.inputs.begin(), m.inputs.end());
    std::set<int32_t> outs;
    for (int32_t v : m.outputs) {
      for (int32_t j : named(m, v))
        outs.insert(j);
    }
    for (size_t u = t; u < a.tensors.size(); ++u) {
      if (root[u] != t) continue;
      const EtTensorInfo& x = a.tensors[u];
      lo = std::min(lo, x.offset);
      hi = std::max(hi, x.offset + x.bytes);
      first = std::min(first, x.first);
      last = std::max(last, x.last);
      input = input || ins.count(x.value);
      output = output || outs.count(x.value);
      assumed = assumed || x.unused;
      pinned = pinned || x.pinned;
      if (u != t) ++aliased;
    }
    const EtTensorInfo& rep = a.tensors[t];
    const EtTensor& x = *m.values[static_cast<size_t>(rep.value)].tensor;
    Buffer b;
    std::string name = x.fully_qualified_name.empty() ? "v" + std::to_string(rep.value) : x.fully_qualified_name;
    if (prefixed) name = m.name + "/" + name;
    if (!names.insert(name).second) {
      name += "#v" + std::to_string(rep.value);
      names.insert(name);
    }
    b.name = name;
    b.size_bytes = align_up(std::max<int64_t>(hi - lo, 0), kEtAlignment);
    b.alignment = kEtAlignment;
    b.kind = input ? BufferKind::kInput : output ? BufferKind::kOutput : BufferKind::kIntermediate;
    b.pool_candidates = {a.methods[static_cast<size_t>(rep.method)].pools[rep.memory_id - 1]};
    b.lifetime = Lifetime::closed(first, last);
    b.lifetime_assumed = assumed;
    b.dtype = sc::scalar_type_name(x.scalar_type);
    b.shape.assign(x.sizes.begin(), x.sizes.end());
    if (x.data_buffer_idx > 0) b.origin.function = "mutable buffer (initial state in the program)";
    if (pinned) b.pin = Pin{b.pool_candidates[0], lo};
    group_buffer[t] = static_cast<int>(p.buffers.size());
    p.buffers.push_back(std::move(b));
    a.as_built.allocations.push_back({p.buffers.back().pool_candidates[0], lo});
  }
  for (size_t t = 0; t < a.tensors.size(); ++t) {
    a.tensors[t].buffer = group_buffer[root[t]];
    a.tensors[t].delta = a.tensors[t].offset - a.as_built.allocations[static_cast<size_t>(a.tensors[t].buffer)].offset;
  }
  return aliased;
}

// The bytes each planned buffer of the program keeps past its last tensor.
void set_pool_tails(EtAnalysis& a) {
  const Problem& p = a.problem;
  std::vector<int64_t> ends(a.pools.size(), 0);
  for (size_t b = 0; b < p.buffers.size(); ++b) {
    const Allocation& alloc = a.as_built.allocations[b];
    ends[static_cast<size_t>(alloc.pool)] =
        std::max(ends[static_cast<size_t>(alloc.pool)], alloc.offset + p.buffers[b].size_bytes);
  }
  for (size_t i = 0; i < a.pools.size(); ++i)
    a.pools[i].tail_bytes = std::max<int64_t>(0, a.pools[i].file_size - align_up(ends[i], kEtAlignment));
}

// Which of ExecuTorch's greedies gives the program's offsets.
void find_reproducing_greedy(EtAnalysis& a) {
  for (auto variant : {EtGreedyPlanner::Variant::kCurrent, EtGreedyPlanner::Variant::k2024}) {
    const EtGreedyPlanner planner(variant);
    const Plan plan = planner.plan(a.problem, PlannerOptions{});
    if (plan.allocations == a.as_built.allocations) {
      a.reproduced_by = std::string(planner.name());
      break;
    }
  }
}

void add_warnings(EtAnalysis& a, const EtAliasResult& aliases, int aliased) {
  const EtProgram& prog = a.program;
  int unused = 0;
  for (const EtTensorInfo& t : a.tensors)
    unused += t.unused ? 1 : 0;
  if (unused > 0)
    a.warnings.push_back(input_warning("et-unused-tensor", std::to_string(unused) +
                                                               " planned tensor(s) named by no instruction: assumed "
                                                               "live for the whole method"));
  if (aliased > 0) {
    std::string why = std::to_string(aliases.views) +
                      " view(s): read before any instruction writes them, on the "
                      "bytes of a tensor written before";
    if (aliases.delegate_views > 0)
      why += " (" + std::to_string(aliases.delegate_views) + " first given to a delegate)";
    if (aliases.stated > 0) why += "; " + std::to_string(aliases.stated) + " et_view output(s) or returned value(s)";
    Diagnostic d = input_warning("et-alias", std::to_string(aliased) + " tensor(s) share storage with another (" + why +
                                                 "): planned as one buffer with it, lifetimes joined, in "
                                                 "every plan");
    d.severity = Severity::kNote;
    a.warnings.push_back(d);
  }
  a.warnings.insert(a.warnings.end(), aliases.notes.begin(), aliases.notes.end());
  for (const EtMethod& m : prog.methods) {
    for (const EtDelegate& d : m.delegates) {
      a.warnings.push_back(input_warning(
          "et-delegate", "method '" + m.name + "' calls delegate " + d.id +
                             ": what it receives is live through its call; its own working memory (e.g. Ethos-U "
                             "scratch, from the temp allocator) is not in the planned buffers"));
    }
  }
}

// Everything after the lifetimes: storage groups, buffers, ExecuTorch's plan, which greedy gives
// it, and the warnings. `join_uncertain`: whether a delegate's first tensor on the exact bytes of
// a tensor read again after its write is taken for a view of it.
void finish_analysis(EtAnalysis& a, const std::vector<EtUse>& uses, const std::vector<EtStatedAlias>& stated,
                     const PoolOptions& pool_options, bool prefixed, bool join_uncertain, int* uncertain) {
  const EtAliasResult aliases = resolve_et_aliases(a, uses, stated, join_uncertain);
  if (uncertain) *uncertain = aliases.uncertain_views;
  const int aliased = add_buffers(a, aliases.root, prefixed);
  std::sort(a.problem.timeline.begin(), a.problem.timeline.end(),
            [](const TimelineSpan& x, const TimelineSpan& y) { return x.first < y.first; });
  set_pool_tails(a);
  apply_pool_options(a.problem, pool_options);
  a.as_built.algorithm = "as-built";
  find_reproducing_greedy(a);
  add_warnings(a, aliases, aliased);
}

}  // namespace

EtAnalysis analyse_et(const std::string& bytes, const std::string& path, const PoolOptions& pool_options) {
  EtAnalysis a;
  a.program = read_et_program(bytes, path);
  const EtProgram& prog = a.program;
  Problem& p = a.problem;
  p.conflict_source = ConflictSource::kLifetimes;

  int planning_methods = 0;
  for (const EtMethod& m : prog.methods)
    planning_methods += m.buffer_sizes.size() > 1 ? 1 : 0;
  const bool prefixed = planning_methods > 1;

  std::vector<EtUse> uses;
  std::vector<EtStatedAlias> stated;
  int64_t tick = 0;
  for (size_t mi = 0; mi < prog.methods.size(); ++mi) {
    const EtMethod& m = prog.methods[mi];
    EtMethodInfo info;
    info.first_tick = tick;
    info.ticks = std::max<int64_t>(1, static_cast<int64_t>(m.instructions.size()));
    for (size_t id = 1; id < m.buffer_sizes.size(); ++id) {
      info.pools.push_back(static_cast<int>(p.pools.size()));
      Pool pool;
      pool.name = (prefixed ? m.name + "/" : "") + "mem" + std::to_string(id);
      pool.kind = PoolKind::kWorkspace;
      pool.alignment = kEtAlignment;
      pool.targets = {{"executorch", "rw"}};
      p.pools.push_back(pool);
      a.pools.push_back({static_cast<int>(mi), static_cast<uint32_t>(id), m.buffer_sizes[id]});
    }
    MethodAnalysis ma(a, static_cast<int>(mi), tick, uses, stated);
    if (prog.methods.size() > 1) ma.set_prefix(m.name + ": ");
    ma.run();
    a.methods.push_back(std::move(info));
    tick += a.methods.back().ticks;
  }

  uses.resize(a.tensors.size());
  // A delegate's first tensor on the exact bytes of a tensor read again after its write may be its
  // view or its output: ExecuTorch's greedy says which (a view shares its base's spec, so the
  // file's offsets follow from one reading only). Joined unless only apart reproduces the file.
  const EtAnalysis lifetimes = a;
  int uncertain = 0;
  finish_analysis(a, uses, stated, pool_options, prefixed, true, &uncertain);
  if (uncertain > 0 && a.reproduced_by.empty()) {
    EtAnalysis apart = lifetimes;
    finish_analysis(apart, uses, stated, pool_options, prefixed, false, nullptr);
    if (!apart.reproduced_by.empty()) {
      a = std::move(apart);
      Diagnostic d = input_warning(
          "et-alias", std::to_string(uncertain) +
                          " tensor(s) a delegate is given first lie on the bytes of a tensor that died before: "
                          "planned apart from it, as only that gives the program's offsets with " +
                          a.reproduced_by + " (the delegate's outputs, not views)");
      d.severity = Severity::kNote;
      a.warnings.push_back(d);
    }
  }
  return a;
}

}  // namespace usmpx
