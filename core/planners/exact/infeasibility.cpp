#include "planners/exact/infeasibility.h"

#include <algorithm>
#include <numeric>

#include "base/size_text.h"
#include "model/conflict_graph.h"
#include "planners/exact/lower_bound.h"
#include "planners/exact/pool_search.h"

namespace usmpx {
namespace {

constexpr size_t kMaxSearchedBuffers = 40;
constexpr int64_t kProofNodes = 200000;

class Explainer {
 public:
  Explainer(const Problem& problem, const std::vector<Allocation>& allocations, Deadline& deadline)
      : problem_(problem), alloc_(allocations), deadline_(deadline) {}

  Diagnostic explain(int pool, int64_t used) {
    const Pool& info = problem_.pools[static_cast<size_t>(pool)];
    hint_ = info.size_hint_bytes;
    pool_ = pool;
    Diagnostic d;
    d.pool = pool;
    const std::string head = "pool '" + info.name + "' is " + with_separators(used - hint_) +
                             " bytes short (size hint " + with_separators(hint_) + ", the best plan found needs " +
                             with_separators(used) + ")";
    std::vector<int> confined;
    for (size_t b = 0; b < problem_.buffers.size(); ++b) {
      const std::vector<int> candidates = problem_.effective_candidates(static_cast<int>(b));
      if (candidates.size() == 1 && candidates.front() == pool) confined.push_back(static_cast<int>(b));
    }
    std::string why;
    std::vector<int> subset = too_large_everywhere(pool, why);
    if (subset.empty()) subset = single_buffer(confined, why);
    if (subset.empty()) subset = clique(confined, why);
    if (subset.empty()) {
      // A buffer larger than the pool that could also go elsewhere: no search within this pool helps.
      if (const int large = larger_than_pool(); large >= 0) {
        // Not a proof that nothing fits (the buffer may fit elsewhere): a warning.
        d.severity = Severity::kWarning;
        d.code = "buffer-too-large";
        d.message = head + ": '" + buffer(large).name + "' alone needs " + with_separators(buffer(large).size_bytes) +
                    " bytes, more than the pool holds; enlarge the pool or move '" + buffer(large).name +
                    "' to another pool";
        d.buffers = {large};
        return d;
      }
    }
    if (subset.empty()) subset = searched(confined, why);
    if (subset.empty()) {
      d.severity = Severity::kWarning;
      d.code = "overflow-unexplained";
      d.message =
          head +
          "; no set of buffers was proven unable to fit, so a longer search (a higher time limit) may find a plan";
      d.buffers = top_buffers();
      return d;
    }
    std::sort(subset.begin(), subset.end());
    d.severity = Severity::kError;
    d.code = "infeasible";
    std::string names;
    for (size_t k = 0; k < subset.size(); ++k)
      names += (k ? ", '" : "'") + problem_.buffers[static_cast<size_t>(subset[k])].name + "'";
    d.message = head + ": " + names + " cannot fit in it together, whatever the placement (" + why + ")";
    d.buffers = std::move(subset);
    return d;
  }

 private:
  const Buffer& buffer(int b) const { return problem_.buffers[static_cast<size_t>(b)]; }
  bool pinned_at(int b) const { return buffer(b).pin && buffer(b).pin->offset; }

  // A buffer of this pool that is larger than every pool it may go to.
  std::vector<int> too_large_everywhere(int pool, std::string& why) const {
    for (size_t b = 0; b < problem_.buffers.size(); ++b) {
      if (alloc_[b].pool != pool) continue;
      const int64_t size = problem_.buffers[b].size_bytes;
      const std::vector<int> candidates = problem_.effective_candidates(static_cast<int>(b));
      const bool nowhere = std::all_of(candidates.begin(), candidates.end(), [&](int p) {
        const Pool& info = problem_.pools[static_cast<size_t>(p)];
        return info.restricted() && size > info.size_hint_bytes;
      });
      if (nowhere && !candidates.empty()) {
        why = "it needs " + with_separators(size) + " bytes on its own, more than any of its candidate pools holds";
        return {static_cast<int>(b)};
      }
    }
    return {};
  }

  std::vector<int> single_buffer(const std::vector<int>& confined, std::string& why) const {
    for (int b : confined) {
      const Buffer& buf = buffer(b);
      if (pinned_at(b) && *buf.pin->offset + buf.size_bytes > hint_) {
        why = "it is pinned at offset " + with_separators(*buf.pin->offset) + " and ends at " +
              with_separators(*buf.pin->offset + buf.size_bytes);
        return {b};
      }
      if (buf.size_bytes > hint_) {
        why = "it needs " + with_separators(buf.size_bytes) + " bytes on its own";
        return {b};
      }
    }
    return {};
  }

  // The largest buffer the plan put into the pool when it alone exceeds the hint, else -1.
  int larger_than_pool() const {
    int found = -1;
    for (size_t b = 0; b < problem_.buffers.size(); ++b) {
      if (alloc_[b].pool != pool_ || problem_.buffers[b].size_bytes <= hint_) continue;
      if (found < 0 || problem_.buffers[b].size_bytes > buffer(found).size_bytes) found = static_cast<int>(b);
    }
    return found;
  }

  // Buffers that all conflict with each other need the sum of their sizes.
  std::vector<int> clique(const std::vector<int>& confined, std::string& why) const {
    const LowerBound lb = pool_lower_bound(problem_, confined);
    if (lb.bytes <= hint_) return {};
    std::vector<int> members = lb.witness;
    std::stable_sort(members.begin(), members.end(),
                     [&](int a, int b) { return buffer(a).size_bytes > buffer(b).size_bytes; });
    std::vector<int> subset;
    int64_t sum = 0;
    for (int b : members) {
      subset.push_back(b);
      sum += buffer(b).size_bytes;
      if (sum > hint_) break;
    }
    if (sum <= hint_) return {};
    why = std::string(problem_.interval_conflicts() ? "they are live at the same time"
                                                    : "they all conflict with each other") +
          " and need " + with_separators(sum) +
          " bytes; without any one of them their sizes add up to no more than the hint";
    return subset;
  }

  enum class Fit { kFits, kCannot, kUnknown };

  // Whether `subset` can be placed within the hint (kCannot only with a proof).
  Fit try_fit(const std::vector<int>& subset) {
    std::vector<int> members;
    std::vector<std::pair<int, int64_t>> fixed;
    for (int b : subset) {
      if (pinned_at(b)) {
        fixed.emplace_back(b, *buffer(b).pin->offset);
      } else {
        members.push_back(b);
      }
    }
    bool proven = false;
    for (const auto& [b, offset] : fixed) {
      if (offset + buffer(b).size_bytes > hint_) return Fit::kCannot;
    }
    if (fit_pool(problem_, members, fixed, hint_, kProofNodes, deadline_, &proven)) return Fit::kFits;
    return proven ? Fit::kCannot : Fit::kUnknown;
  }

  // The exact search on the confined buffers near the overflow, then a deletion filter.
  std::vector<int> searched(const std::vector<int>& confined, std::string& why) {
    std::vector<int> set = confined;
    if (set.size() > kMaxSearchedBuffers) {
      // Keep the buffers that reach beyond the hint in the plan and their heaviest conflicts.
      const ConflictLists conflicts = symmetric_conflicts_of(confined);
      std::vector<char> keep(problem_.buffers.size(), 0);
      std::vector<int> picked;
      for (int b : top_buffers()) {
        if (std::find(confined.begin(), confined.end(), b) == confined.end() || keep[static_cast<size_t>(b)]) continue;
        keep[static_cast<size_t>(b)] = 1;
        picked.push_back(b);
        std::vector<int> near = conflicts[static_cast<size_t>(b)];
        std::stable_sort(near.begin(), near.end(),
                         [&](int x, int y) { return buffer(x).size_bytes > buffer(y).size_bytes; });
        for (int c : near) {
          if (picked.size() >= kMaxSearchedBuffers) break;
          if (!keep[static_cast<size_t>(c)]) keep[static_cast<size_t>(c)] = 1, picked.push_back(c);
        }
        if (picked.size() >= kMaxSearchedBuffers) break;
      }
      set = picked;
    }
    if (set.empty() || try_fit(set) != Fit::kCannot) return {};
    // Deletion filter, smallest buffers first: drop a buffer when the rest still cannot fit.
    std::vector<int> order = set;
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return buffer(a).size_bytes < buffer(b).size_bytes; });
    bool irreducible = true;
    for (int b : order) {
      if (deadline_.check_now()) return {};
      std::vector<int> rest;
      for (int x : set) {
        if (x != b) rest.push_back(x);
      }
      const Fit fit = rest.empty() ? Fit::kFits : try_fit(rest);
      if (fit == Fit::kCannot) {
        set = std::move(rest);
      } else if (fit == Fit::kUnknown) {
        irreducible = false;
      }
    }
    why = "the exact search proves that no placement of them fits within " + with_separators(hint_) + " bytes; " +
          (irreducible ? "without any one of them the rest fits" : "a smaller such set may exist");
    return set;
  }

  ConflictLists symmetric_conflicts_of(const std::vector<int>& subset) const {
    ConflictLists all = symmetric_conflicts(problem_);
    std::vector<char> in(problem_.buffers.size(), 0);
    for (int b : subset)
      in[static_cast<size_t>(b)] = 1;
    for (auto& list : all)
      std::erase_if(list, [&](int c) { return !in[static_cast<size_t>(c)]; });
    return all;
  }

  // Buffers of the pool that reach beyond the hint in the plan, the highest first.
  std::vector<int> top_buffers() const {
    std::vector<int> top;
    for (size_t b = 0; b < problem_.buffers.size(); ++b) {
      if (alloc_[b].pool == pool_ && alloc_[b].offset + problem_.buffers[b].size_bytes > hint_)
        top.push_back(static_cast<int>(b));
    }
    std::stable_sort(top.begin(), top.end(), [&](int a, int b) {
      return alloc_[static_cast<size_t>(a)].offset + buffer(a).size_bytes >
             alloc_[static_cast<size_t>(b)].offset + buffer(b).size_bytes;
    });
    return top;
  }

  const Problem& problem_;
  const std::vector<Allocation>& alloc_;
  Deadline& deadline_;
  int pool_ = -1;
  int64_t hint_ = 0;
};

}  // namespace

std::vector<Diagnostic> explain_infeasibility(const Problem& problem, const std::vector<Allocation>& allocations,
                                              Deadline& deadline) {
  std::vector<int64_t> used(problem.pools.size(), 0);
  for (size_t b = 0; b < problem.buffers.size() && b < allocations.size(); ++b) {
    const Allocation& a = allocations[b];
    if (a.placed())
      used[static_cast<size_t>(a.pool)] =
          std::max(used[static_cast<size_t>(a.pool)], a.offset + problem.buffers[b].size_bytes);
  }
  std::vector<Diagnostic> out;
  Explainer explainer(problem, allocations, deadline);
  for (size_t p = 0; p < problem.pools.size(); ++p) {
    const Pool& pool = problem.pools[p];
    if (pool.restricted() && used[p] > pool.size_hint_bytes)
      out.push_back(explainer.explain(static_cast<int>(p), used[p]));
  }
  return out;
}

void explain_if_overflowing(const Problem& problem, Plan& plan, Deadline& deadline) {
  Plan sized = plan;
  compute_pool_sizes(problem, sized);
  if (plan_fits(problem, sized)) return;
  for (Diagnostic& d : explain_infeasibility(problem, plan.allocations, deadline))
    plan.diagnostics.push_back(std::move(d));
}

}  // namespace usmpx
