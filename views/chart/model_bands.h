#pragma once

#include <QCoreApplication>
#include <QFont>
#include <vector>

#include "chart/chart_data.h"

class QCustomPlot;
class QCPAxisRect;
class QCPItemRect;
class QCPItemText;

namespace usmpx::views {

// The models of a firmware file in one pool's chart: each model's ticks as a band shaded in its
// hue, its name and ticks at the band's top, above the boxes. The items belong to the plot.
class ModelBands {
  Q_DECLARE_TR_FUNCTIONS(ModelBands)

 public:
  // Replaces the bands in `rect` by one per model of `models`; the labels in `font`.
  void fill(QCustomPlot* plot, QCPAxisRect* rect, const std::vector<ModelBand>& models, const QFont& font);
  // Each label to its band's visible width in `rect` (before every draw).
  void fit_labels(const QCPAxisRect* rect, const std::vector<ModelBand>& models);
  // A model's band and its label; null when there is none.
  const QCPItemRect* band(int model) const;
  const QCPItemText* label(int model) const;

 private:
  std::vector<QCPItemRect*> bands_;
  std::vector<QCPItemText*> labels_;
};

}  // namespace usmpx::views
