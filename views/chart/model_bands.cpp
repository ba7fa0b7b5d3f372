#include "chart/model_bands.h"

#include <algorithm>

#include "chart/box_colors.h"
#include "chart/qcustomplot_include.h"

namespace usmpx::views {
namespace {

QString full_label(const ModelBand& model) {
  return ModelBands::tr("%1  ticks %2–%3")
      .arg(model.name)
      .arg(static_cast<qint64>(model.x0))
      .arg(static_cast<qint64>(model.x1) - 1);
}

}  // namespace

void ModelBands::fit_labels(const QCPAxisRect* rect, const std::vector<ModelBand>& models) {
  // Each label inside its band's visible part, as much of it as fits: name and ticks, the name,
  // the name elided, or nothing for a band a few pixels wide (its tooltip-free band still shows).
  const QCPAxis* x = rect->axis(QCPAxis::atBottom);
  for (size_t m = 0; m < labels_.size() && m < models.size(); ++m) {
    const ModelBand& model = models[m];
    QCPItemText* label = labels_[m];
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

void ModelBands::fill(QCustomPlot* plot, QCPAxisRect* rect, const std::vector<ModelBand>& models, const QFont& font) {
  for (QCPItemRect* band : bands_)
    plot->removeItem(band);
  for (QCPItemText* label : labels_)
    plot->removeItem(label);
  bands_.clear();
  labels_.clear();
  QCPAxis* x = rect->axis(QCPAxis::atBottom);
  QCPAxis* y = rect->axis(QCPAxis::atLeft);
  for (size_t m = 0; m < models.size(); ++m) {
    const ModelBand& model = models[m];
    const QColor hue = model_color(static_cast<int>(m));
    // Behind the boxes (the grid's layer): the band spans the chart's height whatever the zoom.
    auto* band = new QCPItemRect(plot);
    band->setLayer(QStringLiteral("grid"));
    band->setClipAxisRect(rect);
    for (QCPItemPosition* corner : {band->topLeft, band->bottomRight}) {
      corner->setAxes(x, y);
      corner->setAxisRect(rect);
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
    bands_.push_back(band);
    // The name over the boxes, at the chart's top, centred on the model's ticks.
    auto* label = new QCPItemText(plot);
    label->setLayer(QStringLiteral("axes"));
    label->setClipAxisRect(rect);
    label->position->setAxes(x, y);
    label->position->setAxisRect(rect);
    label->position->setTypeX(QCPItemPosition::ptPlotCoords);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords((model.x0 + model.x1) / 2, 0.0);
    label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);
    label->setText(full_label(model));
    label->setFont(font);
    label->setColor(hue.darker(130));
    label->setBrush(QColor(255, 255, 255, 200));
    label->setPen(QPen(hue, 1));
    label->setPadding(QMargins(4, 1, 4, 1));
    label->setSelectable(false);
    labels_.push_back(label);
  }
}

const QCPItemRect* ModelBands::band(int model) const {
  return model >= 0 && static_cast<size_t>(model) < bands_.size() ? bands_[static_cast<size_t>(model)] : nullptr;
}

const QCPItemText* ModelBands::label(int model) const {
  return model >= 0 && static_cast<size_t>(model) < labels_.size() ? labels_[static_cast<size_t>(model)] : nullptr;
}

}  // namespace usmpx::views
