#include "planners/common/validator.h"

#include "base/size_text.h"

#include <algorithm>
#include <set>
#include <sstream>
#include <utility>

#include "model/conflict_graph.h"

namespace usmpx {
namespace {

// More overlaps than this are summarised in one line rather than listed one by one.
constexpr size_t kMaxListedOverlaps = 1000;

class Validator {
 public:
  Validator(const Problem& problem, const Plan& plan) : problem_(problem), plan_(plan) {}

  std::vector<Diagnostic> run() {
    if (plan_.allocations.size() != problem_.buffers.size()) {
      add("plan-size",
          "the plan has " + std::to_string(plan_.allocations.size()) + " allocations for " +
              std::to_string(problem_.buffers.size()) + " buffers",
          {});
      return std::move(out_);
    }
    check_placements();
    if (problem_.interval_conflicts()) {
      check_lifetime_overlaps();
    } else {
      check_listed_overlaps();
    }
    if (overlaps_ > kMaxListedOverlaps) {
      add("overlap", "and " + std::to_string(overlaps_ - kMaxListedOverlaps) + " more overlaps", {});
    }
    check_pool_sizes();
    return std::move(out_);
  }

 private:
  const Buffer& buffer(int b) const { return problem_.buffers[static_cast<size_t>(b)]; }
  const Allocation& alloc(int b) const { return plan_.allocations[static_cast<size_t>(b)]; }
  const std::string& pool_name(int p) const { return problem_.pools[static_cast<size_t>(p)].name; }

  void add(std::string code, std::string message, std::vector<int> buffers, int pool = -1) {
    Diagnostic d;
    d.code = std::move(code);
    d.message = std::move(message);
    d.buffers = std::move(buffers);
    d.pool = pool;
    out_.push_back(std::move(d));
  }

  void check_placements() {
    for (size_t i = 0; i < problem_.buffers.size(); ++i) {
      const int b = static_cast<int>(i);
      const Buffer& buf = buffer(b);
      const Allocation& a = alloc(b);
      if (!a.placed()) {
        add("unplaced", "buffer '" + buf.name + "' is not placed in any pool", {b});
        continue;
      }
      if (a.pool >= static_cast<int>(problem_.pools.size())) {
        add("unknown-pool", "buffer '" + buf.name + "' is placed in a pool that does not exist", {b});
        continue;
      }
      const std::vector<int> candidates = problem_.effective_candidates(b);
      if (std::find(candidates.begin(), candidates.end(), a.pool) == candidates.end()) {
        add("not-a-candidate",
            "buffer '" + buf.name + "' is placed in pool '" + pool_name(a.pool) + "', which is not " +
                (buf.pin ? "the pool it is pinned to" : "one of its candidate pools"),
            {b}, a.pool);
      }
      if (buf.pin && buf.pin->offset && *buf.pin->offset != a.offset) {
        add("pin-violated",
            "buffer '" + buf.name + "' is pinned at offset " + std::to_string(*buf.pin->offset) + " but placed at " +
                std::to_string(a.offset),
            {b}, a.pool);
      }
      if (a.offset < 0) {
        add("negative-offset", "buffer '" + buf.name + "' has negative offset " + std::to_string(a.offset), {b},
            a.pool);
      } else if (buf.alignment > 1 && a.offset % buf.alignment != 0) {
        add("misaligned",
            "buffer '" + buf.name + "' at offset " + std::to_string(a.offset) + " is not aligned to " +
                std::to_string(buf.alignment) + " bytes",
            {b}, a.pool);
      }
    }
  }

  void report_overlap(int x, int y) {
    ++overlaps_;
    if (overlaps_ > kMaxListedOverlaps) return;
    const Allocation& ax = alloc(x);
    const Allocation& ay = alloc(y);
    std::ostringstream msg;
    msg << "buffers '" << buffer(x).name << "' [" << ax.offset << ", " << ax.offset + buffer(x).size_bytes << ") and '"
        << buffer(y).name << "' [" << ay.offset << ", " << ay.offset + buffer(y).size_bytes << ") overlap in pool '"
        << pool_name(ax.pool) << "' while both are live";
    add("overlap", msg.str(), {x, y}, ax.pool);
  }

  bool address_overlap(int x, int y) const {
    const Allocation& ax = alloc(x);
    const Allocation& ay = alloc(y);
    if (!ax.placed() || ax.pool != ay.pool) return false;
    if (buffer(x).size_bytes <= 0 || buffer(y).size_bytes <= 0) return false;
    return ax.offset < ay.offset + buffer(y).size_bytes && ay.offset < ax.offset + buffer(x).size_bytes;
  }

  void check_listed_overlaps() {
    std::set<std::pair<int, int>> seen;
    for (size_t i = 0; i < problem_.buffers.size(); ++i) {
      const int x = static_cast<int>(i);
      for (int y : buffer(x).conflicts) {
        if (y == x || !address_overlap(x, y)) continue;
        if (seen.insert({std::min(x, y), std::max(x, y)}).second) report_overlap(std::min(x, y), std::max(x, y));
      }
    }
  }

  // Sweep over time: every buffer starting is compared with the buffers live at that moment.
  void check_lifetime_overlaps() {
    std::vector<int> order;
    for (size_t i = 0; i < problem_.buffers.size(); ++i) {
      const auto& lt = problem_.buffers[i].lifetime;
      if (lt && !lt->empty() && alloc(static_cast<int>(i)).placed()) order.push_back(static_cast<int>(i));
    }
    std::sort(order.begin(), order.end(), [&](int a, int b) {
      const int64_t ba = buffer(a).lifetime->begin;
      const int64_t bb = buffer(b).lifetime->begin;
      return ba != bb ? ba < bb : a < b;
    });
    std::vector<int> active;
    for (int b : order) {
      const int64_t start = buffer(b).lifetime->begin;
      std::erase_if(active, [&](int a) { return buffer(a).lifetime->end <= start; });
      for (int a : active) {
        if (address_overlap(a, b)) report_overlap(std::min(a, b), std::max(a, b));
      }
      active.push_back(b);
    }
  }

  void check_pool_sizes() {
    std::vector<int64_t> used(problem_.pools.size(), 0);
    for (size_t i = 0; i < problem_.buffers.size(); ++i) {
      const Allocation& a = plan_.allocations[i];
      if (!a.placed() || a.pool >= static_cast<int>(used.size())) continue;
      used[static_cast<size_t>(a.pool)] =
          std::max(used[static_cast<size_t>(a.pool)], a.offset + problem_.buffers[i].size_bytes);
    }
    for (size_t p = 0; p < problem_.pools.size(); ++p) {
      const Pool& pool = problem_.pools[p];
      if (pool.fits(0, used[p])) continue;
      std::vector<int> culprits;
      for (size_t i = 0; i < problem_.buffers.size(); ++i) {
        const Allocation& a = plan_.allocations[i];
        if (a.pool == static_cast<int>(p) && a.offset + problem_.buffers[i].size_bytes > pool.size_hint_bytes) {
          culprits.push_back(static_cast<int>(i));
        }
      }
      add("pool-overflow",
          "pool '" + pool.name + "' needs " + with_separators(used[p]) + " bytes but its size hint is " +
              with_separators(pool.size_hint_bytes) + " (" + with_separators(used[p] - pool.size_hint_bytes) +
              " bytes over)",
          std::move(culprits), static_cast<int>(p));
    }
  }

  const Problem& problem_;
  const Plan& plan_;
  std::vector<Diagnostic> out_;
  size_t overlaps_ = 0;
};

}  // namespace

std::vector<Diagnostic> validate(const Problem& problem, const Plan& plan) {
  return Validator(problem, plan).run();
}

}  // namespace usmpx
