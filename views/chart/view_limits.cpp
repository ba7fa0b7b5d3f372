#include "chart/view_limits.h"

#include <algorithm>

namespace usmpx::views {

QCPRange clamped_range(const QCPRange& range, const QCPRange& limits) {
  if (range.size() >= limits.size()) return limits;
  QCPRange out = range;
  if (out.lower < limits.lower) out += limits.lower - out.lower;
  if (out.upper > limits.upper) out -= out.upper - limits.upper;
  return out;
}

QCPRange full_time_range(const ChartData& data) {
  const double span = std::max(1.0, data.tick_end - data.tick_first);
  return QCPRange(data.tick_first - 0.02 * span, data.tick_end + 0.02 * span);
}

double value_top(const PoolChartData& pool, bool show_reference, qint64 fixed_top, bool model_labels) {
  double top = std::max<double>({static_cast<double>(pool.size_bytes), static_cast<double>(pool.size_hint_bytes),
                                 static_cast<double>(pool.lower_bound_bytes), 16.0});
  if (show_reference) {
    top = std::max(top, static_cast<double>(pool.reference_bytes));
    for (const BufferBox& box : pool.reference_boxes)
      top = std::max(top, box.y1);
  }
  if (fixed_top > 0) top = static_cast<double>(fixed_top);
  // A firmware's model labels sit at the chart's top: room for them above the pool's used size.
  return top * (model_labels ? 1.35 : 1.08);
}

QCPRange value_limits(double top) {
  return QCPRange(0, 2 * top);
}

}  // namespace usmpx::views
