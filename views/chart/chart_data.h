#pragma once

#include <QString>
#include <vector>

#include "chart/pool_plottable.h"
#include "checks/plan_summary.h"
#include "model/model_span.h"
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
  // TVM's plan of this pool, when the input carried one and this is not it: its size (-1 none)
  // and its boxes, drawn as outlines on request.
  qint64 reference_bytes = -1;
  std::vector<BufferBox> reference_boxes;
  QString reference_name = QStringLiteral("TVM");  // whose plan the reference is (TFLM's for .tflite)
  // The figure a firmware pastes for this pool, first in its header ("kTensorArenaSize = 82,296 B").
  QString headline;
};

// One model of an input holding several (a firmware file): its name and its ticks [x0, x1) on
// the joint time axis, drawn as a labelled band in every pool's chart.
struct ModelBand {
  QString name;
  double x0 = 0, x1 = 0;
};

struct ChartData {
  std::vector<PoolChartData> pools;
  double tick_first = 0;
  double tick_end = 1;
  // Conflict lists without any lifetime: no time axis exists, so each buffer gets a column of its
  // own (x = its index) and buffers sharing addresses (not in conflict) are never drawn overlapping.
  bool buffer_columns = false;
  // The plan fits every pool: only then do pool headers claim a saving against the reference.
  bool plan_fits = true;
  // The scope most buffer names start with ("model/"), left out of their box labels.
  QString label_prefix;
  // The models, in the order they run, when the input holds several; boxes carry their model.
  std::vector<ModelBand> models;
};

// Turns a plan into boxes per pool. Buffers without a lifetime span the whole time axis, unless
// no buffer has one (buffer_columns).
ChartData build_chart_data(const Problem& problem, const Plan& plan, const PlanSummary& summary);

// Adds the reference plan (TVM's): per pool its size and its boxes. `allocations` are parallel to
// the problem's buffers with pools of `problem`; `pool_bytes` per pool, -1 where there is none.
void add_reference(ChartData& data, const Problem& problem, const std::vector<Allocation>& allocations,
                   const std::vector<qint64>& pool_bytes, const QString& reference_name = QStringLiteral("TVM"));

// Gives every box (and reference box) its model and the data the models' bands: each model's
// boxes are drawn in its own hue. `models` as the input's details give them (ModelSpan).
void add_models(ChartData& data, const std::vector<ModelSpan>& models);

}  // namespace usmpx::views
