#include "chart/chart_data.h"

namespace usmpx::views {
namespace {

BufferBox box_of(const Problem& problem, const ChartData& data, int b, const Allocation& a) {
  const Buffer& buffer = problem.buffers[static_cast<size_t>(b)];
  BufferBox box;
  box.buffer = b;
  const std::optional<Lifetime> lifetime = display_lifetime(problem, buffer);
  if (lifetime && !lifetime->empty()) {
    box.x0 = static_cast<double>(lifetime->begin);
    box.x1 = static_cast<double>(lifetime->end);
  } else {
    box.x0 = data.tick_first;
    box.x1 = data.tick_end;
  }
  box.y0 = static_cast<double>(a.offset);
  box.y1 = static_cast<double>(a.offset + buffer.size_bytes);
  box.role = buffer_role(buffer);
  box.pinned = buffer.pin.has_value();
  box.label = QString::fromStdString(buffer.name);
  return box;
}

}  // namespace

ChartData build_chart_data(const Problem& problem, const Plan& plan, const PlanSummary& summary) {
  ChartData data;
  const auto [first, end] = tick_range(problem);
  data.tick_first = static_cast<double>(first);
  data.tick_end = static_cast<double>(end);
  for (size_t p = 0; p < problem.pools.size(); ++p) {
    const Pool& pool = problem.pools[p];
    PoolChartData pd;
    pd.name = QString::fromStdString(pool.name);
    pd.constant = pool.kind == PoolKind::kConstant;
    pd.size_hint_bytes = pool.size_hint_bytes;
    pd.alignment = pool.alignment;
    if (p < summary.pools.size()) {
      pd.size_bytes = summary.pools[p].size_bytes;
      pd.lower_bound_bytes = summary.pools[p].lower_bound_bytes;
      pd.over_hint = summary.pools[p].over_hint;
      pd.live_bytes = summary.pools[p].live_bytes;
    }
    data.pools.push_back(std::move(pd));
  }
  for (size_t b = 0; b < problem.buffers.size() && b < plan.allocations.size(); ++b) {
    const Allocation& a = plan.allocations[b];
    if (!a.placed() || static_cast<size_t>(a.pool) >= data.pools.size()) continue;
    data.pools[static_cast<size_t>(a.pool)].boxes.push_back(box_of(problem, data, static_cast<int>(b), a));
  }
  return data;
}

void add_reference(ChartData& data, const Problem& problem, const std::vector<Allocation>& allocations,
                   const std::vector<qint64>& pool_bytes) {
  for (size_t p = 0; p < data.pools.size() && p < pool_bytes.size(); ++p)
    data.pools[p].reference_bytes = pool_bytes[p];
  for (size_t b = 0; b < problem.buffers.size() && b < allocations.size(); ++b) {
    const Allocation& a = allocations[b];
    if (!a.placed() || static_cast<size_t>(a.pool) >= data.pools.size()) continue;
    data.pools[static_cast<size_t>(a.pool)].reference_boxes.push_back(box_of(problem, data, static_cast<int>(b), a));
  }
}

}  // namespace usmpx::views
