#include "model/conflict_graph.h"

#include <algorithm>
#include <numeric>

namespace usmpx {
namespace {

// Calls visit(a, b) once for each unordered pair of buffers whose lifetimes overlap.
template <typename Visit>
void for_each_overlapping_pair(const Problem& problem, Visit visit) {
  std::vector<int> order;
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    const auto& lt = problem.buffers[i].lifetime;
    if (lt && !lt->empty()) order.push_back(static_cast<int>(i));
  }
  auto begin_of = [&](int i) { return problem.buffers[static_cast<size_t>(i)].lifetime->begin; };
  auto end_of = [&](int i) { return problem.buffers[static_cast<size_t>(i)].lifetime->end; };
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return begin_of(a) != begin_of(b) ? begin_of(a) < begin_of(b) : a < b; });
  std::vector<int> active;
  for (int b : order) {
    const int64_t start = begin_of(b);
    std::erase_if(active, [&](int a) { return end_of(a) <= start; });
    for (int a : active)
      visit(a, b);
    active.push_back(b);
  }
}

}  // namespace

ConflictLists conflict_lists(const Problem& problem) {
  ConflictLists lists(problem.buffers.size());
  if (!problem.interval_conflicts()) {
    for (size_t i = 0; i < problem.buffers.size(); ++i)
      lists[i] = problem.buffers[i].conflicts;
    return lists;
  }
  for_each_overlapping_pair(problem, [&](int a, int b) {
    lists[static_cast<size_t>(a)].push_back(b);
    lists[static_cast<size_t>(b)].push_back(a);
  });
  for (auto& list : lists)
    std::sort(list.begin(), list.end());
  return lists;
}

ConflictLists symmetric_conflicts(const Problem& problem) {
  if (problem.interval_conflicts()) return conflict_lists(problem);
  ConflictLists lists(problem.buffers.size());
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    for (int c : problem.buffers[i].conflicts) {
      if (c == static_cast<int>(i)) continue;
      lists[i].push_back(c);
      lists[static_cast<size_t>(c)].push_back(static_cast<int>(i));
    }
  }
  for (auto& list : lists) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  return lists;
}

int64_t count_lifetime_overlaps(const Problem& problem) {
  int64_t count = 0;
  for_each_overlapping_pair(problem, [&](int, int) { ++count; });
  return count;
}

}  // namespace usmpx
