// How far the charts zoom and pan: never past the data (no negative ticks or offsets, no empty
// screens of time), the byte axis up to twice the pool's extent so a size hint can still be
// dragged upwards. The reference plan's outlines, when shown, count as data.
#include <algorithm>

#include "chart/pool_chart_widget.h"
#include "chart/qcustomplot_include.h"

namespace usmpx::views {

QCPRange clamped_range(const QCPRange& range, const QCPRange& limits) {
  if (range.size() >= limits.size()) return limits;
  QCPRange out = range;
  if (out.lower < limits.lower) out += limits.lower - out.lower;
  if (out.upper > limits.upper) out -= out.upper - limits.upper;
  return out;
}

QCPRange PoolChartWidget::full_time_range() const {
  const double span = std::max(1.0, data_.tick_end - data_.tick_first);
  return QCPRange(data_.tick_first - 0.02 * span, data_.tick_end + 0.02 * span);
}

double PoolChartWidget::value_top(size_t p) const {
  const PoolChartData& pool = data_.pools[p];
  double top = std::max<double>({static_cast<double>(pool.size_bytes), static_cast<double>(pool.size_hint_bytes),
                                 static_cast<double>(pool.lower_bound_bytes), 16.0});
  if (show_reference_) {
    top = std::max(top, static_cast<double>(pool.reference_bytes));
    for (const BufferBox& box : pool.reference_boxes)
      top = std::max(top, box.y1);
  }
  if (p < value_tops_.size() && value_tops_[p] > 0) top = static_cast<double>(value_tops_[p]);
  // A firmware's model labels sit at the chart's top: room for them above the pool's used size.
  return top * (data_.models.empty() ? 1.08 : 1.35);
}

QCPRange PoolChartWidget::value_limits(size_t p) const {
  return QCPRange(0, 2 * value_top(p));
}

void PoolChartWidget::show_ticks(double from, double to) {
  if (pools_.empty()) return;
  zoomed_by_hand_ = true;
  const double margin = 0.02 * std::max(1.0, to - from);
  pools_.front().rect->axis(QCPAxis::atBottom)->setRange(from - margin, to + margin);  // the others follow
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PoolChartWidget::keep_time_in_data(QCPAxis* axis, const QCPRange& range) {
  const QCPRange kept = clamped_range(range, full_time_range());
  if (kept != range) {
    axis->setRange(kept);  // comes back here with the kept range
    return;
  }
  sync_time_axes(range);
}

void PoolChartWidget::keep_offsets_in_data(size_t p, const QCPRange& range) {
  const QCPRange kept = clamped_range(range, value_limits(p));
  if (kept != range) {
    pools_[p].rect->axis(QCPAxis::atLeft)->setRange(kept);
    return;
  }
  update_hint_marker(p);
}

}  // namespace usmpx::views
