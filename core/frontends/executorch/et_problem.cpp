#include "frontends/executorch/et_problem.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <set>

#include "planners/et_greedy.h"

namespace usmpx {
namespace {

namespace sc = et_schema;

int64_t round_up(int64_t bytes) {
  return (bytes + kEtAlignment - 1) / kEtAlignment * kEtAlignment;
}

class UnionFind {
 public:
  explicit UnionFind(size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0); }
  size_t find(size_t x) {
    while (parent_[x] != x)
      x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  // The smaller index stays the root: a group is named after its first tensor.
  void unite(size_t a, size_t b) {
    a = find(a);
    b = find(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);
  }

 private:
  std::vector<size_t> parent_;
};

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
    case sc::InstructionType::kKernelCall:
      return m.operators[static_cast<size_t>(in.index)].full_name();
    case sc::InstructionType::kDelegateCall:
      return "delegate " + m.delegates[static_cast<size_t>(in.index)].id;
    case sc::InstructionType::kMoveCall:
      return "move";
    case sc::InstructionType::kJumpFalseCall:
      return "jump_false";
    case sc::InstructionType::kFreeCall:
      return "free";
    default:
      return "?";
  }
}

// The tensors of one method, with lifetimes as ExecuTorch's memory planning computes them from
// its graph: first and last instruction that names a tensor, method inputs from the start,
// outputs and mutable buffers to the end (memory_planning.py update_all_tensors_lifetime).
class MethodAnalysis {
 public:
  MethodAnalysis(EtAnalysis& a, int method, int64_t base) : a_(a), method_(method), base_(base) {}

  void run() {
    const EtMethod& m = a_.program.methods[static_cast<size_t>(method_)];
    const int64_t end = base_ + std::max<int64_t>(1, static_cast<int64_t>(m.instructions.size())) - 1;
    const size_t start = a_.tensors.size();
    std::vector<int> of_value(m.values.size(), -1);
    for (size_t v = 0; v < m.values.size(); ++v) {
      const auto& x = m.values[v].tensor;
      if (!x || !x->allocation) continue;
      of_value[v] = static_cast<int>(a_.tensors.size());
      EtTensorInfo t;
      t.method = method_;
      t.value = static_cast<int>(v);
      t.bytes = x->nbytes;
      t.memory_id = x->allocation->memory_id;
      t.offset = static_cast<int64_t>(x->allocation->offset);
      t.first = t.last = -1;
      a_.tensors.push_back(t);
    }
    std::vector<bool> read_first(a_.tensors.size(), false);
    auto use = [&](int32_t v, int64_t tick) {
      for (int32_t j : named(m, v)) {
        const int t = of_value[static_cast<size_t>(j)];
        if (t < 0) continue;
        EtTensorInfo& info = a_.tensors[static_cast<size_t>(t)];
        if (info.first < 0) info.first = tick;
        info.last = tick;
      }
    };
    std::vector<std::pair<int64_t, int64_t>> loops;
    for (size_t k = 0; k < m.instructions.size(); ++k) {
      const EtInstruction& in = m.instructions[k];
      const int64_t tick = base_ + static_cast<int64_t>(k);
      switch (in.type) {
        case sc::InstructionType::kKernelCall: {
          // Out-variant calls end with the returned value(s): the tensors the kernel writes.
          const std::vector<int32_t> written = in.args.empty() ? std::vector<int32_t>{} : named(m, in.args.back());
          for (int32_t arg : in.args) {
            for (int32_t j : named(m, arg)) {
              const int t = of_value[static_cast<size_t>(j)];
              if (t >= 0 && a_.tensors[static_cast<size_t>(t)].first < 0 &&
                  std::find(written.begin(), written.end(), j) == written.end())
                read_first[static_cast<size_t>(t)] = true;
            }
            use(arg, tick);
          }
          break;
        }
        case sc::InstructionType::kDelegateCall:
          // What a delegate receives is live through its call (its internals are its own).
          for (int32_t arg : in.args)
            use(arg, tick);
          break;
        case sc::InstructionType::kMoveCall:
          use(in.from, tick);
          use(in.to, tick);
          break;
        case sc::InstructionType::kJumpFalseCall:
          use(in.condition, tick);
          if (in.destination <= static_cast<int32_t>(k)) loops.push_back({base_ + in.destination, tick});
          break;
        case sc::InstructionType::kFreeCall:
          use(in.value, tick);
          break;
        default:
          break;
      }
      a_.problem.timeline.push_back({tick, tick, prefix_ + instruction_label(m, in)});
    }
    std::set<int32_t> inputs(m.inputs.begin(), m.inputs.end());
    for (int32_t v : m.inputs) {
      const int t = of_value[static_cast<size_t>(v)];
      if (t < 0) continue;
      EtTensorInfo& info = a_.tensors[static_cast<size_t>(t)];
      info.first = base_;
      if (info.last < 0) info.last = base_;
    }
    for (int32_t v : m.outputs) {
      for (int32_t j : named(m, v)) {
        const int t = of_value[static_cast<size_t>(j)];
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
    find_views(m, start, read_first, inputs);
  }

  void set_prefix(std::string prefix) { prefix_ = std::move(prefix); }

 private:
  // A tensor read before any instruction writes it, not an input and not mutable state, is a
  // view (memory.view shares its base's TensorSpec and is not recorded as such): ExecuTorch gave
  // it the storage of its base, the tensor of the same offset and size live before it.
  void find_views(const EtMethod& m, size_t start, const std::vector<bool>& read_first,
                  const std::set<int32_t>& inputs) {
    for (size_t t = start; t < a_.tensors.size(); ++t) {
      EtTensorInfo& info = a_.tensors[t];
      const EtTensor& x = *m.values[static_cast<size_t>(info.value)].tensor;
      if (!read_first[t] || info.bytes == 0 || inputs.count(info.value) || x.data_buffer_idx > 0) continue;
      int base = -1;
      for (size_t b = start; b < a_.tensors.size(); ++b) {
        const EtTensorInfo& c = a_.tensors[b];
        if (b == t || c.memory_id != info.memory_id || c.offset != info.offset ||
            round_up(c.bytes) != round_up(info.bytes) || c.first >= info.first)
          continue;
        if (base < 0 || c.last > a_.tensors[static_cast<size_t>(base)].last) base = static_cast<int>(b);
      }
      if (base >= 0) {
        info.alias_of = a_.tensors[static_cast<size_t>(base)].value;
        info.view = true;
        views_.push_back({static_cast<int>(t), base});
      }
    }
  }

 public:
  std::vector<std::pair<int, int>> views_;  // (tensor, base) pairs found

 private:
  EtAnalysis& a_;
  int method_;
  int64_t base_;
  std::string prefix_;
};

std::string shape_text(const std::vector<int32_t>& sizes) {
  std::string s = "[";
  for (size_t i = 0; i < sizes.size(); ++i)
    s += (i ? "," : "") + std::to_string(sizes[i]);
  return s + "]";
}

// Groups of tensors that are one buffer: views with their base, and tensors ExecuTorch's plan
// puts on overlapping bytes while both are live (the file cannot say why; never plan them apart).
std::vector<size_t> alias_groups(EtAnalysis& a, const std::vector<std::pair<int, int>>& views) {
  const size_t n = a.tensors.size();
  UnionFind groups(n);
  std::vector<int64_t> first(n), last(n);  // per group root: the union of its members' lifetimes
  for (size_t t = 0; t < n; ++t) {
    first[t] = a.tensors[t].first;
    last[t] = a.tensors[t].last;
  }
  auto unite = [&](size_t x, size_t y) {
    const size_t rx = groups.find(x), ry = groups.find(y);
    groups.unite(rx, ry);
    const size_t root = groups.find(rx);
    first[root] = std::min(first[rx], first[ry]);
    last[root] = std::max(last[rx], last[ry]);
  };
  for (const auto& [t, base] : views)
    unite(static_cast<size_t>(t), static_cast<size_t>(base));
  // A merge lengthens a group's life, which may make it overlap tensors already passed: repeat
  // until a whole pass merges nothing.
  bool merged = true;
  while (merged) {
    merged = false;
    for (size_t i = 0; i < n; ++i) {
      const EtTensorInfo& x = a.tensors[i];
      if (x.bytes == 0) continue;
      for (size_t j = i + 1; j < n; ++j) {
        const EtTensorInfo& y = a.tensors[j];
        if (y.bytes == 0 || y.method != x.method || y.memory_id != x.memory_id) continue;
        const size_t gi = groups.find(i), gj = groups.find(j);
        if (gi == gj) continue;
        const bool bytes_overlap = x.offset < y.offset + y.bytes && y.offset < x.offset + x.bytes;
        const bool live_together = !(last[gi] < first[gj] || first[gi] > last[gj]);
        if (bytes_overlap && live_together) {
          unite(i, j);
          a.tensors[j].alias_of = x.value;
          merged = true;
        }
      }
    }
  }
  std::vector<size_t> root(n);
  for (size_t t = 0; t < n; ++t)
    root[t] = groups.find(t);
  return root;
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

  std::vector<std::pair<int, int>> views;
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
    MethodAnalysis ma(a, static_cast<int>(mi), tick);
    if (prog.methods.size() > 1) ma.set_prefix(m.name + ": ");
    ma.run();
    views.insert(views.end(), ma.views_.begin(), ma.views_.end());
    a.methods.push_back(std::move(info));
    tick += a.methods.back().ticks;
  }

  // Buffers: one per alias group, in graph order (the order of the group's first value).
  const std::vector<size_t> root = alias_groups(a, views);
  std::vector<int> group_buffer(a.tensors.size(), -1);
  std::set<std::string> names;
  int aliased = 0;
  for (size_t t = 0; t < a.tensors.size(); ++t) {
    if (root[t] != t) continue;
    int64_t lo = INT64_MAX, hi = 0, first = INT64_MAX, last = INT64_MIN;
    bool input = false, output = false, assumed = false;
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
    b.size_bytes = round_up(std::max<int64_t>(hi - lo, 0));
    b.alignment = kEtAlignment;
    b.kind = input ? BufferKind::kInput : output ? BufferKind::kOutput : BufferKind::kIntermediate;
    b.pool_candidates = {a.methods[static_cast<size_t>(rep.method)].pools[rep.memory_id - 1]};
    b.lifetime = Lifetime::closed(first, last);
    b.lifetime_assumed = assumed;
    b.dtype = sc::scalar_type_name(x.scalar_type);
    b.shape.assign(x.sizes.begin(), x.sizes.end());
    if (x.data_buffer_idx > 0) b.origin.function = "mutable buffer (initial state in the program)";
    group_buffer[t] = static_cast<int>(p.buffers.size());
    p.buffers.push_back(std::move(b));
    a.as_built.allocations.push_back({p.buffers.back().pool_candidates[0], lo});
  }
  for (size_t t = 0; t < a.tensors.size(); ++t) {
    a.tensors[t].buffer = group_buffer[root[t]];
    a.tensors[t].delta = a.tensors[t].offset - a.as_built.allocations[static_cast<size_t>(a.tensors[t].buffer)].offset;
  }
  std::sort(p.timeline.begin(), p.timeline.end(),
            [](const TimelineSpan& x, const TimelineSpan& y) { return x.first < y.first; });
  std::vector<int64_t> ends(a.pools.size(), 0);
  for (size_t b = 0; b < p.buffers.size(); ++b) {
    const Allocation& alloc = a.as_built.allocations[b];
    ends[static_cast<size_t>(alloc.pool)] =
        std::max(ends[static_cast<size_t>(alloc.pool)], alloc.offset + p.buffers[b].size_bytes);
  }
  for (size_t i = 0; i < a.pools.size(); ++i)
    a.pools[i].tail_bytes = std::max<int64_t>(0, a.pools[i].file_size - round_up(ends[i]));
  apply_pool_options(p, pool_options);
  a.as_built.algorithm = "as-built";

  // Which of ExecuTorch's greedies gives the program's offsets.
  for (auto variant : {EtGreedyPlanner::Variant::kCurrent, EtGreedyPlanner::Variant::k2024}) {
    const EtGreedyPlanner planner(variant);
    const Plan plan = planner.plan(p, PlannerOptions{});
    if (plan.allocations == a.as_built.allocations) {
      a.reproduced_by = std::string(planner.name());
      break;
    }
  }

  int unused = 0;
  for (const EtTensorInfo& t : a.tensors)
    unused += t.unused ? 1 : 0;
  if (unused > 0)
    a.warnings.push_back(input_warning("et-unused-tensor", std::to_string(unused) +
                                                               " planned tensor(s) named by no instruction: assumed "
                                                               "live for the whole method"));
  if (aliased > 0) {
    Diagnostic d = input_warning("et-alias", std::to_string(aliased) +
                                                 " tensor(s) share storage with another (views, or tensors "
                                                 "ExecuTorch's plan overlaps while both are live): planned as one "
                                                 "buffer with it");
    d.severity = Severity::kNote;
    a.warnings.push_back(d);
  }
  for (const EtMethod& m : prog.methods) {
    for (const EtDelegate& d : m.delegates) {
      a.warnings.push_back(input_warning(
          "et-delegate", "method '" + m.name + "' calls delegate " + d.id +
                             ": what it receives is live through its call; its own working memory (e.g. Ethos-U "
                             "scratch, from the temp allocator) is not in the planned buffers"));
    }
  }
  return a;
}

}  // namespace usmpx
