#pragma once

#include <QString>
#include <vector>

#include "analysis/plan_summary.h"
#include "chart/pool_plottable.h"
#include "model/plan.h"
#include "model/problem.h"

namespace usmpx::views {

// What one pool's chart shows.
struct PoolChartData {
  QString name;
  bool constant = false;
  qint64 size_bytes = 0;
  qint64 size_hint_bytes = -1;
  qint64 lower_bound_bytes = 0;
  qint64 alignment = 1;
  bool over_hint = false;
  std::vector<BufferBox> boxes;
  std::vector<LiveStep> live_bytes;
};

struct ChartData {
  std::vector<PoolChartData> pools;
  double tick_first = 0;
  double tick_end = 1;
};

// Turns a plan into boxes per pool. Buffers without a lifetime span the whole time axis.
ChartData build_chart_data(const Problem& problem, const Plan& plan, const PlanSummary& summary);

}  // namespace usmpx::views
