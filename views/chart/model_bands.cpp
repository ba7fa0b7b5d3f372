// The models of a firmware file in every pool's chart: each model's ticks as a band shaded in its
// hue, its name and ticks at the band's top, above the boxes.
#include "chart/box_colors.h"
#include "chart/pool_chart_widget.h"
#include "chart/qcustomplot_include.h"

#include <algorithm>

namespace usmpx::views {
namespace {

QString full_label(const ModelBand& model) {
  return PoolChartWidget::tr("%1  ticks %2–%3")
      .arg(model.name)
      .arg(static_cast<qint64>(model.x0))
      .arg(static_cast<qint64>(model.x1) - 1);
}

}  // namespace

void PoolChartWidget::fit_model_labels() {
  // Each label inside its band's visible part, as much of it as fits: name and ticks, the name,
  // the name elided, or nothing for a band a few pixels wide (its tooltip-free band still shows).
  for (PoolView& view : pools_) {
    const QCPAxis* x = view.rect->axis(QCPAxis::atBottom);
    for (size_t m = 0; m < view.model_labels.size() && m < data_.models.size(); ++m) {
      const ModelBand& model = data_.models[m];
      QCPItemText* label = view.model_labels[m];
      const double from = std::max(model.x0, x->range().lower);
      const double to = std::min(model.x1, x->range().upper);
      const double room = x->coordToPixel(to) - x->coordToPixel(from) - 6;
      const QFontMetrics metrics(label->font());
      const auto width = [&](const QString& text) { return metrics.horizontalAdvance(text) + 10; };
      QString text = full_label(model);
      if (width(text) > room) text = model.name;
      if (width(text) > room) text = metrics.elidedText(model.name, Qt::ElideRight, static_cast<int>(room) - 10);
      const bool shown = to > from && room > 24 && text != QStringLiteral("…") && !text.isEmpty();
      label->setVisible(shown);
      label->setText(text);
      if (shown) label->position->setCoords((from + to) / 2, 0.0);
    }
  }
}

void PoolChartWidget::fill_model_bands(size_t p) {
  PoolView& view = pools_[p];
  for (QCPItemRect* band : view.model_bands)
    plot_->removeItem(band);
  for (QCPItemText* label : view.model_labels)
    plot_->removeItem(label);
  view.model_bands.clear();
  view.model_labels.clear();
  QCPAxis* x = view.rect->axis(QCPAxis::atBottom);
  QCPAxis* y = view.rect->axis(QCPAxis::atLeft);
  for (size_t m = 0; m < data_.models.size(); ++m) {
    const ModelBand& model = data_.models[m];
    const QColor hue = model_color(static_cast<int>(m));
    // Behind the boxes (the grid's layer): the band spans the chart's height whatever the zoom.
    auto* band = new QCPItemRect(plot_);
    band->setLayer(QStringLiteral("grid"));
    band->setClipAxisRect(view.rect);
    for (QCPItemPosition* corner : {band->topLeft, band->bottomRight}) {
      corner->setAxes(x, y);
      corner->setAxisRect(view.rect);
      corner->setTypeX(QCPItemPosition::ptPlotCoords);
      corner->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    band->topLeft->setCoords(model.x0, 0);
    band->bottomRight->setCoords(model.x1, 1);
    QColor shade = hue;
    shade.setAlpha(m % 2 == 0 ? 26 : 40);  // neighbours alternate, so their border shows
    band->setBrush(shade);
    QColor edge = hue;
    edge.setAlpha(110);
    band->setPen(QPen(edge, 1, Qt::DotLine));
    band->setSelectable(false);
    view.model_bands.push_back(band);
    // The name over the boxes, at the chart's top, centred on the model's ticks.
    auto* label = new QCPItemText(plot_);
    label->setLayer(QStringLiteral("axes"));
    label->setClipAxisRect(view.rect);
    label->position->setAxes(x, y);
    label->position->setAxisRect(view.rect);
    label->position->setTypeX(QCPItemPosition::ptPlotCoords);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords((model.x0 + model.x1) / 2, 0.0);
    label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);
    label->setText(full_label(model));
    QFont font = this->font();
    font.setPointSize(interactive_ ? 9 : 7);
    font.setBold(true);
    label->setFont(font);
    label->setColor(hue.darker(130));
    label->setBrush(QColor(255, 255, 255, 200));
    label->setPen(QPen(hue, 1));
    label->setPadding(QMargins(4, 1, 4, 1));
    label->setSelectable(false);
    view.model_labels.push_back(label);
  }
}

const QCPItemRect* PoolChartWidget::model_band(int pool, int model) const {
  if (pool < 0 || static_cast<size_t>(pool) >= pools_.size()) return nullptr;
  const auto& bands = pools_[static_cast<size_t>(pool)].model_bands;
  return model >= 0 && static_cast<size_t>(model) < bands.size() ? bands[static_cast<size_t>(model)] : nullptr;
}

const QCPItemText* PoolChartWidget::model_label(int pool, int model) const {
  if (pool < 0 || static_cast<size_t>(pool) >= pools_.size()) return nullptr;
  const auto& labels = pools_[static_cast<size_t>(pool)].model_labels;
  return model >= 0 && static_cast<size_t>(model) < labels.size() ? labels[static_cast<size_t>(model)] : nullptr;
}

}  // namespace usmpx::views
