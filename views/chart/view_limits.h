#pragma once

#include <QtGlobal>

#include "chart/chart_data.h"
#include "chart/qcustomplot_include.h"

namespace usmpx::views {

// How far the charts zoom and pan: never past the data (no negative ticks or offsets, no empty
// screens of time), the byte axis up to twice the pool's extent so a size hint can still be
// dragged upwards. The reference plan's outlines, when shown, count as data.

// `range` moved (or shrunk) into `limits`: what a zoom or pan of a chart axis may show.
QCPRange clamped_range(const QCPRange& range, const QCPRange& limits);
// The time axis of `data`: its run, with a margin on either side.
QCPRange full_time_range(const ChartData& data);
// The top of `pool`'s byte axis when fitted: the pool's extent (with the reference plan's when
// `show_reference`), or `fixed_top` when positive; with room for the model labels of a firmware
// file (`model_labels`) at the chart's top.
double value_top(const PoolChartData& pool, bool show_reference, qint64 fixed_top, bool model_labels);
// What a byte axis whose fitted top is `top` may show: from 0 to twice that.
QCPRange value_limits(double top);

}  // namespace usmpx::views
