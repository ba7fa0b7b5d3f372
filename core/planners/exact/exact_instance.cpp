#include "planners/exact/exact_instance.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "model/conflict_graph.h"

namespace usmpx::exact {
namespace {

bool has_lifetime(const Buffer& b) {
  return b.lifetime && !b.lifetime->empty();
}

// Sizes the instance's per-item lists for the items of `built`, each with its buffer's size and
// alignment; returns the number of items.
size_t start_items(Instance& in, const Problem& problem, const BuiltInstance& built) {
  in.items = static_cast<int>(built.buffer_of_item.size());
  const auto n = static_cast<size_t>(in.items);
  in.size.resize(n);
  in.alignment.resize(n);
  in.item_sections.resize(n);
  in.neighbours.resize(n);
  in.item_fixed.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const Buffer& b = problem.buffers[static_cast<size_t>(built.buffer_of_item[i])];
    in.size[i] = b.size_bytes;
    in.alignment[i] = std::max<int64_t>(1, b.alignment);
  }
  return n;
}

void finish_keys(const Problem& problem, BuiltInstance& built) {
  Instance& in = built.instance;
  const auto n = static_cast<size_t>(in.items);
  std::vector<int64_t> total(static_cast<size_t>(in.sections), 0);
  for (size_t i = 0; i < n; ++i) {
    for (int s : in.item_sections[i])
      total[static_cast<size_t>(s)] += in.size[i];
  }
  in.section_total.assign(n, 0);
  in.width.assign(n, 0);
  in.lower.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    for (int s : in.item_sections[i])
      in.section_total[i] = std::max(in.section_total[i], total[static_cast<size_t>(s)]);
    const Buffer& b = problem.buffers[static_cast<size_t>(built.buffer_of_item[i])];
    if (has_lifetime(b)) {
      in.width[i] = b.lifetime->end - b.lifetime->begin;
      in.lower[i] = b.lifetime->begin;
    } else {
      in.width[i] = static_cast<int64_t>(in.neighbours[i].size());
    }
  }
}

void build_intervals(const Problem& problem, const std::vector<int>& members,
                     const std::vector<std::pair<int, int64_t>>& fixed, BuiltInstance& built) {
  Instance& in = built.instance;
  in.intervals = true;
  std::vector<int64_t> ticks;
  for (int m : members) {
    const Buffer& b = problem.buffers[static_cast<size_t>(m)];
    if (!has_lifetime(b) || b.size_bytes <= 0) {
      built.free_members.push_back(m);
      continue;
    }
    built.buffer_of_item.push_back(m);
    ticks.push_back(b.lifetime->begin);
    ticks.push_back(b.lifetime->end);
  }
  std::sort(ticks.begin(), ticks.end());
  ticks.erase(std::unique(ticks.begin(), ticks.end()), ticks.end());
  auto index = [&](int64_t t) {
    return static_cast<int>(std::lower_bound(ticks.begin(), ticks.end(), t) - ticks.begin());
  };
  const size_t n = start_items(in, problem, built);
  in.sections = ticks.empty() ? 0 : static_cast<int>(ticks.size()) - 1;
  in.lo.resize(n);
  in.hi.resize(n);
  in.section_fixed.resize(static_cast<size_t>(in.sections));
  for (size_t i = 0; i < n; ++i) {
    const Buffer& b = problem.buffers[static_cast<size_t>(built.buffer_of_item[i])];
    in.lo[i] = index(b.lifetime->begin);
    in.hi[i] = index(b.lifetime->end);
    for (int s = in.lo[i]; s < in.hi[i]; ++s)
      in.item_sections[i].push_back(s);
  }
  // Neighbours by a sweep over the items' section ranges.
  std::vector<int> order(n);
  for (size_t i = 0; i < n; ++i)
    order[i] = static_cast<int>(i);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return in.lo[static_cast<size_t>(a)] != in.lo[static_cast<size_t>(b)]
               ? in.lo[static_cast<size_t>(a)] < in.lo[static_cast<size_t>(b)]
               : a < b;
  });
  std::vector<int> active;
  for (int x : order) {
    std::erase_if(active, [&](int a) { return in.hi[static_cast<size_t>(a)] <= in.lo[static_cast<size_t>(x)]; });
    for (int a : active) {
      in.neighbours[static_cast<size_t>(a)].push_back(x);
      in.neighbours[static_cast<size_t>(x)].push_back(a);
    }
    active.push_back(x);
  }
  for (auto& list : in.neighbours)
    std::sort(list.begin(), list.end());
  // Fixed ranges: against every item and section their lifetime meets.
  for (const auto& [buffer, offset] : fixed) {
    const Buffer& f = problem.buffers[static_cast<size_t>(buffer)];
    if (!has_lifetime(f) || f.size_bytes <= 0) continue;
    const FixedRange range{offset, offset + f.size_bytes};
    for (size_t i = 0; i < n; ++i) {
      const Buffer& b = problem.buffers[static_cast<size_t>(built.buffer_of_item[i])];
      if (b.lifetime->overlaps(*f.lifetime)) in.item_fixed[i].push_back(range);
    }
    for (int s = 0; s < in.sections; ++s) {
      const Lifetime slice{ticks[static_cast<size_t>(s)], ticks[static_cast<size_t>(s) + 1]};
      if (slice.overlaps(*f.lifetime)) in.section_fixed[static_cast<size_t>(s)].push_back(range);
    }
  }
}

void build_graph(const Problem& problem, const std::vector<int>& members,
                 const std::vector<std::pair<int, int64_t>>& fixed, BuiltInstance& built) {
  Instance& in = built.instance;
  const ConflictLists all = symmetric_conflicts(problem);
  std::vector<int> item_of(problem.buffers.size(), -1);
  for (int m : members) {
    const Buffer& b = problem.buffers[static_cast<size_t>(m)];
    if (b.size_bytes <= 0 || all[static_cast<size_t>(m)].empty()) {
      built.free_members.push_back(m);
      continue;
    }
    item_of[static_cast<size_t>(m)] = static_cast<int>(built.buffer_of_item.size());
    built.buffer_of_item.push_back(m);
  }
  const size_t n = start_items(in, problem, built);
  for (size_t i = 0; i < n; ++i) {
    const int buffer = built.buffer_of_item[i];
    for (int c : all[static_cast<size_t>(buffer)]) {
      if (item_of[static_cast<size_t>(c)] >= 0) in.neighbours[i].push_back(item_of[static_cast<size_t>(c)]);
    }
    std::sort(in.neighbours[i].begin(), in.neighbours[i].end());
  }
  auto adjacent = [&](int a, int b) {
    const auto& list = in.neighbours[static_cast<size_t>(a)];
    return std::binary_search(list.begin(), list.end(), b);
  };
  // A greedy maximal clique around every item, heaviest neighbours first; duplicates dropped.
  std::set<std::vector<int>> cliques;
  for (size_t v = 0; v < n; ++v) {
    std::vector<int> candidates = in.neighbours[v];
    std::sort(candidates.begin(), candidates.end(), [&](int a, int b) {
      return in.size[static_cast<size_t>(a)] != in.size[static_cast<size_t>(b)]
                 ? in.size[static_cast<size_t>(a)] > in.size[static_cast<size_t>(b)]
                 : a < b;
    });
    std::vector<int> clique{static_cast<int>(v)};
    for (int u : candidates) {
      if (std::all_of(clique.begin(), clique.end(), [&](int c) { return adjacent(u, c); })) clique.push_back(u);
    }
    std::sort(clique.begin(), clique.end());
    cliques.insert(std::move(clique));
  }
  in.sections = static_cast<int>(cliques.size());
  in.section_fixed.resize(cliques.size());
  int s = 0;
  std::map<int, std::vector<int>> fixed_neighbours;  // fixed buffer -> items it conflicts with
  for (const auto& [buffer, offset] : fixed) {
    for (int c : all[static_cast<size_t>(buffer)]) {
      if (item_of[static_cast<size_t>(c)] >= 0) fixed_neighbours[buffer].push_back(item_of[static_cast<size_t>(c)]);
    }
    std::sort(fixed_neighbours[buffer].begin(), fixed_neighbours[buffer].end());
  }
  for (const std::vector<int>& clique : cliques) {
    for (int v : clique)
      in.item_sections[static_cast<size_t>(v)].push_back(s);
    for (const auto& [buffer, offset] : fixed) {
      const auto& near = fixed_neighbours[buffer];
      const bool all_conflict = std::all_of(clique.begin(), clique.end(),
                                            [&](int v) { return std::binary_search(near.begin(), near.end(), v); });
      const int64_t size = problem.buffers[static_cast<size_t>(buffer)].size_bytes;
      if (all_conflict && size > 0) in.section_fixed[static_cast<size_t>(s)].push_back({offset, offset + size});
    }
    ++s;
  }
  for (const auto& [buffer, offset] : fixed) {
    const int64_t size = problem.buffers[static_cast<size_t>(buffer)].size_bytes;
    if (size <= 0) continue;
    for (int v : fixed_neighbours[buffer])
      in.item_fixed[static_cast<size_t>(v)].push_back({offset, offset + size});
  }
}

}  // namespace

int64_t Instance::lower_bound() const {
  int64_t best = 0;
  std::vector<int64_t> total(static_cast<size_t>(sections), 0);
  for (int i = 0; i < items; ++i) {
    best = std::max(best, size[static_cast<size_t>(i)]);
    for (int s : item_sections[static_cast<size_t>(i)])
      total[static_cast<size_t>(s)] += size[static_cast<size_t>(i)];
  }
  for (int s = 0; s < sections; ++s) {
    // The bytes the fixed ranges cover: pinned buffers that do not conflict (a model file's own
    // layout, Vela's) may overlap, so their union, not their sum.
    std::vector<FixedRange> ranges = section_fixed[static_cast<size_t>(s)];
    std::sort(ranges.begin(), ranges.end(), [](const FixedRange& a, const FixedRange& b) { return a.start < b.start; });
    int64_t fixed = 0;
    int64_t top = 0;
    for (const FixedRange& f : ranges) {
      fixed += std::max<int64_t>(0, f.end - std::max(f.start, top));
      top = std::max(top, f.end);
    }
    best = std::max({best, total[static_cast<size_t>(s)] + fixed, top});
  }
  return best;
}

void sort_by_keys(const Instance& in, const char* keys, const std::vector<int64_t>& total, std::vector<int>& items) {
  auto key = [&](char k, size_t i) -> double {
    switch (k) {
      case 'W': return static_cast<double>(in.width[i]);
      case 'A': return static_cast<double>(in.width[i]) * static_cast<double>(in.size[i]);
      case 'T': return static_cast<double>(total[i]);
      case 'Z': return static_cast<double>(in.size[i]);
      case 'C': return static_cast<double>(in.item_sections[i].size());
      case 'O': return static_cast<double>(in.neighbours[i].size());
      case 'L': return -static_cast<double>(in.lower[i]);
      default: return 0.0;
    }
  };
  std::sort(items.begin(), items.end(), [&](int a, int b) {
    for (const char* k = keys; *k != '\0'; ++k) {
      const double ka = key(*k, static_cast<size_t>(a));
      const double kb = key(*k, static_cast<size_t>(b));
      if (ka != kb) return ka > kb;
    }
    return a < b;
  });
}

std::vector<int> preorder(const Instance& in, const char* keys) {
  const auto n = static_cast<size_t>(in.items);
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  sort_by_keys(in, keys, in.section_total, order);
  std::vector<int> rank(n);
  for (size_t r = 0; r < n; ++r)
    rank[static_cast<size_t>(order[r])] = static_cast<int>(r);
  return rank;
}

BuiltInstance build_instance(const Problem& problem, const std::vector<int>& members,
                             const std::vector<std::pair<int, int64_t>>& fixed) {
  BuiltInstance built;
  if (problem.interval_conflicts()) {
    build_intervals(problem, members, fixed, built);
  } else {
    build_graph(problem, members, fixed, built);
  }
  for (auto& list : built.instance.item_fixed) {
    std::sort(list.begin(), list.end(), [](const FixedRange& a, const FixedRange& b) { return a.start < b.start; });
  }
  finish_keys(problem, built);
  return built;
}

int64_t packing_granule(const Instance& in, const std::vector<std::pair<int, int64_t>>& fixed, const Problem& problem) {
  int64_t g = 0;
  for (int i = 0; i < in.items; ++i) {
    // An alignment of 1 adds nothing.
    g = std::gcd(g, in.size[static_cast<size_t>(i)]);
    if (in.alignment[static_cast<size_t>(i)] > 1) g = std::gcd(g, in.alignment[static_cast<size_t>(i)]);
  }
  for (const auto& [b, offset] : fixed) {
    g = std::gcd(g, offset);
    g = std::gcd(g, problem.buffers[static_cast<size_t>(b)].size_bytes);
  }
  return std::max<int64_t>(1, g);
}

}  // namespace usmpx::exact
