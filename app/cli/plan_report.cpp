#include "plan_report.h"

#include <algorithm>

#include "base/size_text.h"
#include "checks/plan_summary.h"
#include "text_table.h"

namespace usmpx::cli {

void print_pool_table(std::ostream& out, const Problem& problem, const Plan& plan) {
  TextTable table({"pool", "kind", "size", "hint", "use", "lower bound", "gap", "buffers"}, "llrrrrrr");
  int64_t total = 0;
  const std::vector<int64_t> bounds = plan_pool_lower_bounds(problem, plan);
  for (size_t p = 0; p < problem.pools.size(); ++p) {
    const Pool& pool = problem.pools[p];
    std::vector<int> members;
    for (size_t b = 0; b < plan.allocations.size(); ++b) {
      if (plan.allocations[b].pool == static_cast<int>(p)) members.push_back(static_cast<int>(b));
    }
    const int64_t size = p < plan.pool_sizes.size() ? plan.pool_sizes[p] : 0;
    const int64_t lb = bounds[p];
    total += size;
    table.add_row(
        {pool.name, std::string(to_string(pool.kind)), format_bytes(size),
         pool.restricted() ? format_bytes(pool.size_hint_bytes) : "unlimited",
         pool.restricted() ? format_percent(static_cast<double>(size), static_cast<double>(pool.size_hint_bytes)) : "-",
         format_bytes(lb), format_gap(size, lb), std::to_string(members.size())});
  }
  if (problem.pools.size() > 1) {
    table.add_separator();
    table.add_row({"total", "", format_bytes(total), "", "", format_bytes(plan.lower_bound_bytes),
                   format_gap(total, plan.lower_bound_bytes), std::to_string(problem.buffers.size())});
  }
  table.print(out, "  ");
}

void print_allocations(std::ostream& out, const Problem& problem, const Plan& plan) {
  std::vector<int> order(problem.buffers.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = static_cast<int>(i);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const Allocation& x = plan.allocations[static_cast<size_t>(a)];
    const Allocation& y = plan.allocations[static_cast<size_t>(b)];
    if (x.pool != y.pool) return x.pool < y.pool;
    if (x.offset != y.offset) return x.offset < y.offset;
    return a < b;
  });
  TextTable table({"buffer", "pool", "offset", "size", "end", "align", "kind", "lifetime"}, "llrrrrll");
  for (int b : order) {
    const Buffer& buf = problem.buffers[static_cast<size_t>(b)];
    const Allocation& a = plan.allocations[static_cast<size_t>(b)];
    const std::string lifetime =
        buf.lifetime ? "[" + std::to_string(buf.lifetime->first()) + ", " + std::to_string(buf.lifetime->last()) + "]"
                     : "";
    table.add_row({buf.name, a.placed() ? problem.pools[static_cast<size_t>(a.pool)].name : "(unplaced)",
                   a.placed() ? std::to_string(a.offset) : "-", std::to_string(buf.size_bytes),
                   a.placed() ? std::to_string(a.offset + buf.size_bytes) : "-", std::to_string(buf.alignment),
                   std::string(to_string(buf.kind)), lifetime});
  }
  table.print(out, "  ");
}

void print_diagnostics(std::ostream& out, const std::vector<Diagnostic>& diagnostics) {
  for (const Diagnostic& d : diagnostics)
    out << to_string(d.severity) << ": " << d.message << '\n';
}

}  // namespace usmpx::cli
