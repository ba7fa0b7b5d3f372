#include "frontends/executorch/et_aliases.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <string>

#include "base/alignment.h"

namespace usmpx {
namespace {

// More unexplained overlaps than this are summarised in one line.
constexpr int kMaxListedOverlaps = 20;

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

std::set<int32_t> value_set(const EtMethod& m, const std::vector<int32_t>& values) {
  std::set<int32_t> out;
  for (int32_t v : values) {
    if (v < 0 || static_cast<size_t>(v) >= m.values.size()) continue;
    out.insert(v);
    for (int32_t item : m.values[static_cast<size_t>(v)].items)
      out.insert(item);
  }
  return out;
}

bool bytes_overlap(const EtTensorInfo& x, const EtTensorInfo& y) {
  return x.method == y.method && x.memory_id == y.memory_id && x.offset < y.offset + y.bytes &&
         y.offset < x.offset + x.bytes;
}

std::string range(int64_t lo, int64_t hi) {
  return "[" + std::to_string(lo) + ", " + std::to_string(hi) + ")";
}

// "v12", or "v12 'fc.weight'" when the program names the tensor.
std::string label(const EtMethod& m, int value) {
  const auto& t = m.values[static_cast<size_t>(value)].tensor;
  const std::string name = t ? t->fully_qualified_name : "";
  return "v" + std::to_string(value) + (name.empty() ? "" : " '" + name + "'");
}

class Resolver {
 public:
  Resolver(EtAnalysis& a, const std::vector<EtUse>& uses, bool join_uncertain)
      : a_(a),
        uses_(uses),
        join_uncertain_(join_uncertain),
        groups_(a.tensors.size()),
        first_(a.tensors.size()),
        last_(a.tensors.size()) {
    for (size_t t = 0; t < a.tensors.size(); ++t) {
      first_[t] = a.tensors[t].first;
      last_[t] = a.tensors[t].last;
    }
    for (const EtMethod& m : a.program.methods) {
      inputs_.push_back(value_set(m, m.inputs));
      outputs_.push_back(value_set(m, m.outputs));
    }
  }

  void find_views() {
    for (size_t t = 0; t < a_.tensors.size(); ++t) {
      EtTensorInfo& info = a_.tensors[t];
      const size_t mi = static_cast<size_t>(info.method);
      const EtTensor& x = *a_.program.methods[mi].values[static_cast<size_t>(info.value)].tensor;
      if (info.bytes == 0 || inputs_[mi].count(info.value) || x.data_buffer_idx > 0) continue;
      // What a delegate is given first may be what it writes: its outputs are not views.
      const bool by_delegate = uses_[t].delegate_first && !uses_[t].read_first && !outputs_[mi].count(info.value);
      if (!uses_[t].read_first && !by_delegate) continue;
      // The base: the tensor of the same offset and size written before it, the latest to die.
      int base = -1;
      for (size_t b = 0; b < a_.tensors.size(); ++b) {
        const EtTensorInfo& c = a_.tensors[b];
        if (b == t || c.method != info.method || c.memory_id != info.memory_id || c.offset != info.offset ||
            align_up(c.bytes, kEtAlignment) != align_up(info.bytes, kEtAlignment) || c.first >= info.first)
          continue;
        if (base < 0 || c.last > a_.tensors[static_cast<size_t>(base)].last) base = static_cast<int>(b);
      }
      if (base >= 0 && by_delegate) {
        // Read again by name after its write, the base may simply have died before the delegate
        // wrote its output on the same bytes.
        const EtTensorInfo& c = a_.tensors[static_cast<size_t>(base)];
        if (uses_[static_cast<size_t>(base)].instructions > 1 ||
            outputs_[static_cast<size_t>(c.method)].count(c.value)) {
          ++result_.uncertain_views;
          if (!join_uncertain_) continue;
        }
      }
      if (base >= 0) {
        unite(t, static_cast<size_t>(base));
        info.alias_of = a_.tensors[static_cast<size_t>(base)].value;
        info.view = true;
        ++result_.views;
        if (by_delegate) ++result_.delegate_views;
        continue;
      }
      if (!by_delegate) continue;  // a kernel's scratch reads what it wrote itself
      // A delegate's first tensor on part of the bytes of a tensor nothing reads by name after
      // writing it: perhaps a view of it, perhaps not. Kept where the program put it, with it.
      for (size_t b = 0; b < a_.tensors.size(); ++b) {
        const EtTensorInfo& c = a_.tensors[b];
        if (b == t || c.bytes == 0 || c.first >= info.first || !bytes_overlap(c, info)) continue;
        if (uses_[b].instructions > 1 || outputs_[static_cast<size_t>(c.method)].count(c.value)) continue;
        unite(t, b);
        info.alias_of = c.value;
        info.pinned = true;
        a_.tensors[b].pinned = true;
      }
      if (info.pinned) ++result_.pinned;
    }
  }

  void join_stated(const std::vector<EtStatedAlias>& stated) {
    for (const EtStatedAlias& s : stated) {
      const size_t t = static_cast<size_t>(s.tensor), o = static_cast<size_t>(s.other);
      if (groups_.find(t) == groups_.find(o)) continue;
      // An et_view's output is its input's storage at run time; a returned value shares the
      // out= tensor's only where the program put them on the same bytes.
      if (s.reason == EtStatedAlias::Reason::kReturned && !bytes_overlap(a_.tensors[t], a_.tensors[o])) continue;
      unite(t, o);
      if (a_.tensors[t].alias_of < 0) a_.tensors[t].alias_of = a_.tensors[o].value;
      a_.tensors[t].view = a_.tensors[t].view || s.reason == EtStatedAlias::Reason::kEtView;
      ++result_.stated;
    }
  }

  // Every other pair of tensors on the same bytes while both are live: the plan is broken.
  void report_overlaps() {
    int count = 0;
    const size_t n = a_.tensors.size();
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t x, size_t y) {
      const EtTensorInfo &a = a_.tensors[x], &b = a_.tensors[y];
      return std::tie(a.method, a.memory_id, a.offset, x) < std::tie(b.method, b.memory_id, b.offset, y);
    });
    for (size_t i = 0; i < n; ++i) {
      const EtTensorInfo& x = a_.tensors[order[i]];
      if (x.bytes == 0) continue;
      for (size_t j = i + 1; j < n; ++j) {
        const EtTensorInfo& y = a_.tensors[order[j]];
        if (y.method != x.method || y.memory_id != x.memory_id || y.offset >= x.offset + x.bytes) break;
        if (y.bytes == 0) continue;
        const size_t gx = groups_.find(order[i]), gy = groups_.find(order[j]);
        if (gx == gy || last_[gx] < first_[gy] || first_[gx] > last_[gy]) continue;
        if (++count > kMaxListedOverlaps) continue;
        const int64_t lo = std::max(x.offset, y.offset), hi = std::min(x.offset + x.bytes, y.offset + y.bytes);
        const EtMethod& m = a_.program.methods[static_cast<size_t>(x.method)];
        result_.notes.push_back(input_warning(
            "et-overlap",
            "method '" + m.name + "': ExecuTorch's plan puts " + label(m, x.value) + " " +
                range(x.offset, x.offset + x.bytes) + " and " + label(m, y.value) + " " +
                range(y.offset, y.offset + y.bytes) + " of memory id " + std::to_string(x.memory_id) + " on the same " +
                std::to_string(hi - lo) + " bytes " + range(lo, hi) +
                " while both are live, and the program states no reason (neither is a view of the other, no "
                "et_view, no out-variant's returned value): the plan is invalid (ExecuTorch's runtime would run "
                "it and compute other outputs)"));
      }
    }
    if (count > kMaxListedOverlaps)
      result_.notes.push_back(input_warning(
          "et-overlap", "and " + std::to_string(count - kMaxListedOverlaps) + " more overlaps of live tensors"));
    if (result_.pinned > 0) {
      Diagnostic d = input_warning(
          "et-pinned", std::to_string(result_.pinned) +
                           " tensor(s) a delegate is given first lie on bytes of a tensor no instruction reads after "
                           "writing it: the program cannot say whether they view it; kept where the program put "
                           "them, planned with it (pinned)");
      d.severity = Severity::kNote;
      result_.notes.push_back(d);
    }
  }

  EtAliasResult finish() {
    result_.root.resize(a_.tensors.size());
    for (size_t t = 0; t < a_.tensors.size(); ++t)
      result_.root[t] = groups_.find(t);
    return std::move(result_);
  }

 private:
  void unite(size_t x, size_t y) {
    const size_t rx = groups_.find(x), ry = groups_.find(y);
    groups_.unite(rx, ry);
    const size_t root = groups_.find(rx);
    first_[root] = std::min(first_[rx], first_[ry]);
    last_[root] = std::max(last_[rx], last_[ry]);
  }

  EtAnalysis& a_;
  const std::vector<EtUse>& uses_;
  bool join_uncertain_;
  UnionFind groups_;
  std::vector<int64_t> first_, last_;  // per group root: the union of its members' lifetimes
  std::vector<std::set<int32_t>> inputs_, outputs_;
  EtAliasResult result_;
};

}  // namespace

EtAliasResult resolve_et_aliases(EtAnalysis& a, const std::vector<EtUse>& uses,
                                 const std::vector<EtStatedAlias>& stated, bool join_uncertain) {
  Resolver r(a, uses, join_uncertain);
  r.find_views();
  r.join_stated(stated);
  r.report_overlaps();
  return r.finish();
}

}  // namespace usmpx
