#include "chart/pool_chart_widget.h"

#include <QLabel>
#include <QTextDocument>
#include <QToolTip>
#include <QVBoxLayout>
#include <cmath>

#include "base/size_text.h"
#include "chart/byte_ticker.h"
#include "chart/pool_plottable.h"

namespace usmpx::views {
namespace {

constexpr int kHintGrabPixels = 8;  // the dashed line is 2 px: grab it within a finger's width
constexpr int kDragThresholdPixels = 4;

}  // namespace

void PoolChartWidget::update_legend() {
  if (!legend_) return;
  const QString reference = data_.pools.empty() ? QStringLiteral("TVM") : data_.pools.front().reference_name;
  // One line where it fits, else two (colours, then marks): never cut.
  QTextDocument one_line;
  one_line.setDefaultFont(legend_->font());
  one_line.setHtml(chart_legend_html(reference, false, false, data_.models));
  const bool fits = one_line.idealWidth() + 24 <= width();
  // A firmware's models go on a line of their own when they and the colours do not fit on one.
  bool models_apart = false;
  if (!fits && !data_.models.empty()) {
    QTextDocument two_lines;
    two_lines.setDefaultFont(legend_->font());
    two_lines.setHtml(chart_legend_html(reference, true, false, data_.models));
    models_apart = two_lines.idealWidth() + 24 > width();
  }
  legend_->setText(chart_legend_html(reference, !fits, false, data_.models, models_apart));
}

PoolChartWidget::PoolChartWidget(QWidget* parent, bool interactive)
    : QWidget(parent), plot_(new QCustomPlot(this)), interactive_(interactive) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  if (interactive_) {
    auto* legend = legend_ = new QLabel(chart_legend_html(QStringLiteral("TVM"), false));
    legend->setContentsMargins(8, 2, 8, 0);
    legend->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    legend->setMinimumWidth(1);  // two lines in narrow windows (update_legend), never widening the charts
    legend->setToolTip(
        tr("Drag a box to another pool to repin it, up or down to pin its offset; "
           "drag the red line to resize the pool; wheel zooms, dragging the background pans.\n"
           "Green dotted line: the pool's lower bound, which no valid plan goes below (it counts the buffers "
           "that can go into no other pool); the header gives the gap to it."));
    layout->addWidget(legend);
  }
  layout->addWidget(plot_);
  plot_->setNoAntialiasingOnDrag(true);
  // Laid out, not yet drawn: the models' labels fit their bands at this zoom and size.
  connect(plot_, &QCustomPlot::afterLayout, this, [this] {
    for (PoolView& view : pools_)
      view.models.fit_labels(view.rect, data_.models);
  });
  plot_->setAutoAddPlottableToLegend(false);
  if (!plot_->layer(QStringLiteral("ghost"))) {
    plot_->addLayer(QStringLiteral("ghost"), plot_->layer(QStringLiteral("main")), QCustomPlot::limAbove);
    plot_->layer(QStringLiteral("ghost"))->setMode(QCPLayer::lmBuffered);
  }
  if (interactive_) {
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(plot_, &QCustomPlot::mousePress, this, &PoolChartWidget::on_press);
    connect(plot_, &QCustomPlot::mouseMove, this, &PoolChartWidget::on_move);
    connect(plot_, &QCustomPlot::mouseRelease, this, &PoolChartWidget::on_release);
    connect(plot_, &QCustomPlot::mouseWheel, this, [this] { zoomed_by_hand_ = true; });
    connect(plot_, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
      const int buffer = buffer_at(pos);
      const int pool = pool_at(pos);
      if (pool >= 0) emit context_menu_requested(buffer, pool, plot_->mapToGlobal(pos));
    });
  }
  plot_->plotLayout()->clear();
}

QString PoolChartWidget::fitted_title(const QString& text) const {
  // A header wider than the chart breaks at its separators instead of being clipped at both ends.
  const QFontMetrics metrics(QFont(font().family(), 9, QFont::Bold));
  const int room = std::max(200, width() - 24);
  if (metrics.horizontalAdvance(text) <= room) return text;
  QStringList parts = text.split(QStringLiteral("  ·  "));
  QString out;
  QString line;
  for (const QString& part : parts) {
    const QString joined = line.isEmpty() ? part : line + QStringLiteral("  ·  ") + part;
    if (!line.isEmpty() && metrics.horizontalAdvance(joined) > room) {
      out += (out.isEmpty() ? QString() : QStringLiteral("\n")) + line;
      line = part;
    } else {
      line = joined;
    }
  }
  return out + (out.isEmpty() ? QString() : QStringLiteral("\n")) + line;
}

QString PoolChartWidget::title_text(const PoolChartData& pool) const {
  if (!interactive_) {
    QString compact = pool.name + QStringLiteral(" ") + format_byte_count(pool.size_bytes);
    if (pool.size_hint_bytes >= 0) compact += QStringLiteral(" / ") + format_byte_count(pool.size_hint_bytes);
    return compact;
  }
  // Used and hint in exact bytes when rounding would make them read the same ("16 KiB of 16 KiB").
  const bool same_words = pool.size_hint_bytes >= 0 && pool.size_bytes != pool.size_hint_bytes &&
                          format_byte_count(pool.size_bytes) == format_byte_count(pool.size_hint_bytes);
  // Both in one unit ("16.5 KiB of 8 KiB").
  auto words = [&](qint64 bytes) {
    return same_words
               ? QString::fromStdString(with_separators(bytes)) + QStringLiteral(" B")
               : QString::fromStdString(format_size_alike(bytes, std::max(pool.size_bytes, pool.size_hint_bytes)));
  };
  QString text = QStringLiteral("%1 (%2)  used %3")
                     .arg(pool.name, pool.constant ? tr("constant") : tr("workspace"), words(pool.size_bytes));
  if (pool.size_hint_bytes >= 0) {
    text += tr(" of %1 (%2%)")
                .arg(words(pool.size_hint_bytes))
                .arg(pool.size_hint_bytes > 0
                         ? 100.0 * static_cast<double>(pool.size_bytes) / static_cast<double>(pool.size_hint_bytes)
                         : 0.0,
                     0, 'f', 1);
  }
  // The same bound and gap as the status bar, `usmpx plan` and the reports (lower_bound.h).
  // A pool no buffer must go into (one just added) has no bound of its own.
  if (pool.lower_bound_bytes > 0) {
    text += tr("  ·  lower bound %1, gap %2")
                .arg(format_byte_count(pool.lower_bound_bytes),
                     QString::fromStdString(format_gap(pool.size_bytes, pool.lower_bound_bytes)));
  } else {
    text += tr("  ·  no bound");
  }
  // A saving is claimed only for a plan that fits.
  if (pool.reference_bytes >= 0 && data_.plan_fits)
    text += tr("  ·  %1 vs %2").arg(format_byte_delta(pool.size_bytes - pool.reference_bytes), pool.reference_name);
  if (pool.over_hint) text += tr("  ·  DOES NOT FIT");
  // The answer first: the figure the firmware pastes heads its pool's header.
  return pool.headline.isEmpty() ? text : pool.headline + QStringLiteral("  ·  ") + text;
}

void PoolChartWidget::rebuild_layout() {
  plot_->clearPlottables();
  plot_->clearItems();
  ghost_ = nullptr;
  plot_->plotLayout()->clear();
  pools_.clear();
  auto* margins = new QCPMarginGroup(plot_);
  const QSharedPointer<QCPAxisTicker> bytes(new ByteTicker);
  const QSharedPointer<QCPAxisTicker> ticks(new TickTicker);
  for (size_t p = 0; p < data_.pools.size(); ++p) {
    PoolView view = pool_axes(p, margins, bytes, ticks);
    add_pool_marks(view);
    pools_.push_back(view);
    QCPAxis* x = view.rect->axis(QCPAxis::atBottom);
    connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [this, x](const QCPRange& range) { keep_time_in_data(x, range); });
    const size_t index = pools_.size() - 1;
    connect(view.rect->axis(QCPAxis::atLeft), qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [this, index](const QCPRange& range) { keep_offsets_in_data(index, range); });
  }
  ghost_ = new QCPItemRect(plot_);
  ghost_->setLayer(QStringLiteral("ghost"));
  ghost_->setPen(QPen(QColor(20, 20, 20), 1.5, Qt::DashLine));
  ghost_->setBrush(QColor(255, 230, 0, 90));
  ghost_->setVisible(false);
  ghost_->setClipToAxisRect(false);
  ghost_->topLeft->setType(QCPItemPosition::ptAbsolute);
  ghost_->bottomRight->setType(QCPItemPosition::ptAbsolute);
}

// Pool p's title and axis rect (rows 2p and 2p + 1), its byte and tick axes.
PoolChartWidget::PoolView PoolChartWidget::pool_axes(size_t p, QCPMarginGroup* margins,
                                                     const QSharedPointer<QCPAxisTicker>& bytes,
                                                     const QSharedPointer<QCPAxisTicker>& ticks) {
  PoolView view;
  view.title = new QCPTextElement(plot_, QString(), QFont(font().family(), 9, QFont::Bold));
  plot_->plotLayout()->addElement(static_cast<int>(2 * p), 0, view.title);
  view.rect = new QCPAxisRect(plot_);
  plot_->plotLayout()->addElement(static_cast<int>(2 * p + 1), 0, view.rect);
  view.rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
  view.rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
  view.rect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
  view.rect->axis(QCPAxis::atLeft)->setTicker(bytes);
  if (!interactive_) {
    // Small charts side by side: three byte ticks, labels in a readable size.
    bytes->setTickCount(3);
    QFont small = font();
    small.setPointSize(8);
    view.rect->axis(QCPAxis::atLeft)->setTickLabelFont(small);
    view.rect->axis(QCPAxis::atBottom)->setTickLabelFont(small);
  }
  view.rect->axis(QCPAxis::atBottom)->setTicker(ticks);
  if (interactive_) view.rect->axis(QCPAxis::atLeft)->setLabel(tr("offset"));
  if (p + 1 == data_.pools.size()) {
    view.rect->axis(QCPAxis::atBottom)
        ->setLabel(data_.buffer_columns ? tr("buffers, one column each (conflict lists: no time axis)")
                                        : tr("time (ticks)"));
  }
  plot_->plotLayout()->setRowStretchFactor(static_cast<int>(2 * p), 0.001);
  return view;
}

// What is drawn in a pool's axis rect: the boxes, the live-bytes line, the used, hint and lower
// bound lines and the hint's marker.
void PoolChartWidget::add_pool_marks(PoolView& view) {
  QCPAxis* x = view.rect->axis(QCPAxis::atBottom);
  QCPAxis* y = view.rect->axis(QCPAxis::atLeft);
  view.boxes = new PoolPlottable(x, y);
  // Drawn after the boxes, so the live-bytes line stays visible on top of them.
  view.live = plot_->addGraph(x, y);
  view.live->setLineStyle(QCPGraph::lsStepLeft);
  // A cosmetic 1-pixel pen without antialiasing takes Qt's fast line path (thousands of steps).
  view.live->setPen(QPen(QColor(20, 20, 20, 190), 0));
  view.live->setAntialiased(false);
  auto make_line = [&](const QPen& pen) {
    auto* line = new QCPItemStraightLine(plot_);
    line->setClipAxisRect(view.rect);
    line->point1->setAxes(x, y);
    line->point2->setAxes(x, y);
    line->point1->setAxisRect(view.rect);
    line->point2->setAxisRect(view.rect);
    line->setPen(pen);
    line->setSelectable(false);
    return line;
  };
  view.used = make_line(QPen(QColor(40, 40, 40), 1.5));
  view.hint = make_line(QPen(QColor(214, 39, 40), 2, Qt::DashLine));
  view.lower_bound = make_line(QPen(QColor(44, 160, 44), 1.5, Qt::DotLine));
  view.hint_marker = new QCPItemText(plot_);
  view.hint_marker->setClipAxisRect(view.rect);
  view.hint_marker->position->setType(QCPItemPosition::ptAxisRectRatio);
  view.hint_marker->position->setAxisRect(view.rect);
  view.hint_marker->setColor(QColor(214, 39, 40));
  view.hint_marker->setSelectable(false);
  view.hint_marker->setVisible(false);
}

void PoolChartWidget::set_line(QCPItemStraightLine* line, double y, bool visible) {
  line->setVisible(visible);
  line->point1->setCoords(data_.tick_first, y);
  line->point2->setCoords(data_.tick_end, y);
}

void PoolChartWidget::fill_pool(size_t p) {
  const PoolChartData& pool = data_.pools[p];
  PoolView& view = pools_[p];
  view.title->setText(fitted_title(title_text(pool)));
  view.title->setTextColor(pool.over_hint ? QColor(200, 0, 0) : QColor(30, 30, 30));
  view.boxes->set_boxes(pool.boxes);
  view.boxes->set_highlighted(selection_);
  view.boxes->set_matches(matches_);
  view.boxes->set_reference(show_reference_ ? pool.reference_boxes : std::vector<BufferBox>{});
  QVector<double> keys;
  QVector<double> values;
  for (const LiveStep& step : pool.live_bytes) {
    keys.push_back(static_cast<double>(step.tick));
    values.push_back(static_cast<double>(step.bytes));
  }
  view.live->setData(keys, values, true);
  set_line(view.used, static_cast<double>(pool.size_bytes), true);
  set_line(view.hint, static_cast<double>(pool.size_hint_bytes), pool.size_hint_bytes >= 0);
  set_line(view.lower_bound, static_cast<double>(pool.lower_bound_bytes), pool.lower_bound_bytes > 0);
  update_hint_marker(p);
  QFont label_font = font();
  label_font.setPointSize(interactive_ ? 9 : 7);
  label_font.setBold(true);
  view.models.fill(plot_, view.rect, data_.models, label_font);
  // A pool holding nothing (e.g. TVM's constant pool when constants stay in the operators' code)
  // keeps a thin strip, leaving the height to the pools with buffers.
  plot_->plotLayout()->setRowStretchFactor(static_cast<int>(2 * p + 1), pool.boxes.empty() ? 0.2 : 1.0);
  view.rect->axis(QCPAxis::atLeft)->setTickLabels(!pool.boxes.empty());
}

void PoolChartWidget::set_data(ChartData data) {
  bool same_pools = data.pools.size() == data_.pools.size() && !pools_.empty() &&
                    data.buffer_columns == data_.buffer_columns;  // the axis label differs
  for (size_t p = 0; same_pools && p < data.pools.size(); ++p)
    same_pools = data.pools[p].name == data_.pools[p].name;
  // Per pool, the top its chart showed whole before this data: only a chart showing its whole
  // pool grows with it; one the user zoomed into (a selected buffer) keeps its range.
  std::vector<double> shown_whole(same_pools ? pools_.size() : 0, 0.0);
  std::vector<qint64> old_tops;
  for (const PoolChartData& pool : data_.pools)
    old_tops.push_back(std::max(pool.size_bytes, pool.size_hint_bytes));
  for (size_t p = 0; p < shown_whole.size(); ++p) {
    const QCPRange y = pools_[p].rect->axis(QCPAxis::atLeft)->range();
    const double old_top = static_cast<double>(std::max(data_.pools[p].size_bytes, data_.pools[p].size_hint_bytes));
    shown_whole[p] = y.lower <= 0 && y.upper >= old_top ? 1.0 : 0.0;
  }
  data_ = std::move(data);
  update_legend();
  if (!same_pools) rebuild_layout();
  for (size_t p = 0; p < pools_.size(); ++p)
    fill_pool(p);
  if (!same_pools) {
    reset_view();
    return;
  }
  // A re-plan that changed a pool's extent (a smaller plan, a new hint) is shown whole, unless
  // the user zoomed by hand since the last fit.
  bool extent_changed = false;
  for (size_t p = 0; p < pools_.size() && p < old_tops.size(); ++p) {
    const PoolChartData& pool = data_.pools[p];
    extent_changed = extent_changed || old_tops[p] != std::max(pool.size_bytes, pool.size_hint_bytes);
  }
  if (extent_changed && !zoomed_by_hand_) {
    reset_view();
    return;
  }
  // Keep the user's zoom, but grow a chart whose pool now reaches above what is shown.
  for (size_t p = 0; p < pools_.size(); ++p) {
    const PoolChartData& pool = data_.pools[p];
    QCPAxis* y = pools_[p].rect->axis(QCPAxis::atLeft);
    const double top = static_cast<double>(std::max(pool.size_bytes, pool.size_hint_bytes));
    if (shown_whole[p] > 0 && top > y->range().upper) y->setRangeUpper(top * 1.08);
  }
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PoolChartWidget::update_hint_marker(size_t p) {
  if (p >= pools_.size() || p >= data_.pools.size() || !pools_[p].hint_marker) return;
  QCPItemText* marker = pools_[p].hint_marker;
  const PoolChartData& pool = data_.pools[p];
  const QCPRange y = pools_[p].rect->axis(QCPAxis::atLeft)->range();
  const double hint = static_cast<double>(pool.size_hint_bytes);
  const bool above = pool.size_hint_bytes >= 0 && hint > y.upper;
  const bool below = pool.size_hint_bytes >= 0 && hint < y.lower;
  marker->setVisible(above || below);
  if (!above && !below) return;
  marker->setText(above ? tr("▲ size hint %1 above the view").arg(format_byte_count(pool.size_hint_bytes))
                        : tr("▼ size hint %1 below the view").arg(format_byte_count(pool.size_hint_bytes)));
  marker->setPositionAlignment(Qt::AlignRight | (above ? Qt::AlignTop : Qt::AlignBottom));
  marker->position->setCoords(0.99, above ? 0.01 : 0.99);
}

QString PoolChartWidget::hint_marker_text(int pool) const {
  if (pool < 0 || static_cast<size_t>(pool) >= pools_.size()) return {};
  const QCPItemText* marker = pools_[static_cast<size_t>(pool)].hint_marker;
  return marker && marker->visible() ? marker->text() : QString();
}

void PoolChartWidget::reset_view() {
  zoomed_by_hand_ = false;
  for (size_t p = 0; p < pools_.size(); ++p) {
    pools_[p].rect->axis(QCPAxis::atBottom)->setRange(full_time_range(data_));
    pools_[p].rect->axis(QCPAxis::atLeft)->setRange(0, value_top(p));
  }
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

double PoolChartWidget::value_top(size_t p) const {
  return views::value_top(data_.pools[p], show_reference_, p < value_tops_.size() ? value_tops_[p] : 0,
                          !data_.models.empty());
}

void PoolChartWidget::show_ticks(double from, double to) {
  if (pools_.empty()) return;
  zoomed_by_hand_ = true;
  const double margin = 0.02 * std::max(1.0, to - from);
  pools_.front().rect->axis(QCPAxis::atBottom)->setRange(from - margin, to + margin);  // the others follow
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PoolChartWidget::keep_time_in_data(QCPAxis* axis, const QCPRange& range) {
  const QCPRange kept = clamped_range(range, full_time_range(data_));
  if (kept != range) {
    axis->setRange(kept);  // comes back here with the kept range
    return;
  }
  sync_time_axes(range);
}

void PoolChartWidget::keep_offsets_in_data(size_t p, const QCPRange& range) {
  const QCPRange kept = clamped_range(range, value_limits(value_top(p)));
  if (kept != range) {
    pools_[p].rect->axis(QCPAxis::atLeft)->setRange(kept);
    return;
  }
  update_hint_marker(p);
}

void PoolChartWidget::set_value_tops(std::vector<qint64> tops) {
  value_tops_ = std::move(tops);
  reset_view();
}

void PoolChartWidget::set_show_reference(bool show) {
  show_reference_ = show;
  for (size_t p = 0; p < pools_.size(); ++p)
    fill_pool(p);
  // The outlines whole: a chart showing its whole pool grows to the reference plan's top.
  for (size_t p = 0; show && p < pools_.size(); ++p) {
    QCPAxis* y = pools_[p].rect->axis(QCPAxis::atLeft);
    if (y->range().lower <= 0 && y->range().upper < value_top(p)) y->setRangeUpper(value_top(p));
  }
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

const QCPItemRect* PoolChartWidget::model_band(int pool, int model) const {
  if (pool < 0 || static_cast<size_t>(pool) >= pools_.size()) return nullptr;
  return pools_[static_cast<size_t>(pool)].models.band(model);
}

const QCPItemText* PoolChartWidget::model_label(int pool, int model) const {
  if (pool < 0 || static_cast<size_t>(pool) >= pools_.size()) return nullptr;
  return pools_[static_cast<size_t>(pool)].models.label(model);
}

QString PoolChartWidget::pool_title(int pool) const {
  return pools_.at(static_cast<size_t>(pool)).title->text().replace(QLatin1Char('\n'), QStringLiteral("  ·  "));
}

void PoolChartWidget::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  update_legend();
  for (size_t p = 0; p < pools_.size() && p < data_.pools.size(); ++p)
    pools_[p].title->setText(fitted_title(title_text(data_.pools[p])));
}

void PoolChartWidget::sync_time_axes(const QCPRange& range) {
  if (syncing_) return;
  syncing_ = true;
  for (PoolView& view : pools_)
    view.rect->axis(QCPAxis::atBottom)->setRange(range);
  syncing_ = false;
}

void PoolChartWidget::set_matches(std::optional<std::unordered_set<int>> buffers) {
  matches_ = std::move(buffers);
  for (PoolView& view : pools_)
    view.boxes->set_matches(matches_);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PoolChartWidget::set_selection(const std::vector<int>& buffers) {
  selection_ = std::unordered_set<int>(buffers.begin(), buffers.end());
  for (PoolView& view : pools_)
    view.boxes->set_highlighted(selection_);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

int PoolChartWidget::pool_of_buffer(int buffer) const {
  for (size_t p = 0; p < pools_.size(); ++p) {
    if (pools_[p].boxes->box_of(buffer)) return static_cast<int>(p);
  }
  return -1;
}

void PoolChartWidget::reveal(int buffer) {
  const int p = pool_of_buffer(buffer);
  if (p < 0) return;
  const BufferBox* box = pools_[static_cast<size_t>(p)].boxes->box_of(buffer);
  QCPAxis* x = pools_[static_cast<size_t>(p)].rect->axis(QCPAxis::atBottom);
  QCPAxis* y = pools_[static_cast<size_t>(p)].rect->axis(QCPAxis::atLeft);
  // Zoom in until the box takes a readable share of its chart (a tenth of each direction at
  // least), never out, and centre it.
  const double width = std::max(1.0, box->x1 - box->x0);
  const double height = std::max(1.0, box->y1 - box->y0);
  const double x_span = std::min(x->range().size(), std::max(width * 10.0, 8.0));
  const double y_span = std::min(y->range().size(), height * 10.0);
  const double x_mid = (box->x0 + box->x1) / 2;
  const double y_mid = (box->y0 + box->y1) / 2;
  x->setRange(x_mid - x_span / 2, x_mid + x_span / 2);
  y->setRange(std::max(0.0, y_mid - y_span / 2), std::max(0.0, y_mid - y_span / 2) + y_span);
  zoomed_by_hand_ = true;  // the user asked to see this buffer: a re-plan keeps it in view
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

int PoolChartWidget::pool_at(const QPoint& pixel) const {
  for (size_t p = 0; p < pools_.size(); ++p) {
    if (pools_[p].rect->rect().contains(pixel)) return static_cast<int>(p);
  }
  return -1;
}

int PoolChartWidget::buffer_at(const QPoint& pixel) const {
  const int p = pool_at(pixel);
  return p < 0 ? -1 : pools_[static_cast<size_t>(p)].boxes->buffer_at(pixel);
}

QRect PoolChartWidget::buffer_rect(int buffer) const {
  const int p = pool_of_buffer(buffer);
  if (p < 0) return {};
  return pools_[static_cast<size_t>(p)]
      .boxes->pixel_rect(buffer)
      .intersected(pools_[static_cast<size_t>(p)].rect->rect())
      .toRect();
}

QPoint PoolChartWidget::buffer_center(int buffer) const {
  const QRect r = buffer_rect(buffer);
  return r.isNull() ? QPoint(-1, -1) : r.center();
}

QPoint PoolChartWidget::pixel_of(int pool, double tick, double offset) const {
  const PoolView& view = pools_.at(static_cast<size_t>(pool));
  return QPointF(view.rect->axis(QCPAxis::atBottom)->coordToPixel(tick),
                 view.rect->axis(QCPAxis::atLeft)->coordToPixel(offset))
      .toPoint();
}

QPoint PoolChartWidget::hint_line_point(int pool) const {
  const PoolChartData& data = data_.pools.at(static_cast<size_t>(pool));
  const QRect r = pools_.at(static_cast<size_t>(pool)).rect->rect();
  const QPoint at = pixel_of(pool, 0, static_cast<double>(data.size_hint_bytes));
  return {r.center().x(), at.y()};
}

double PoolChartWidget::offset_at(int pool, int pixel_y) const {
  return pools_.at(static_cast<size_t>(pool)).rect->axis(QCPAxis::atLeft)->pixelToCoord(pixel_y);
}

QRectF PoolChartWidget::ghost_rect() const {
  if (!ghost_ || !ghost_->visible()) return {};
  return QRectF(ghost_->topLeft->pixelPosition(), ghost_->bottomRight->pixelPosition()).normalized();
}

int PoolChartWidget::on_hint_line(const QPoint& pixel) const {
  const int p = pool_at(pixel);
  if (p < 0 || data_.pools[static_cast<size_t>(p)].size_hint_bytes < 0) return -1;
  return std::abs(hint_line_point(p).y() - pixel.y()) <= kHintGrabPixels ? p : -1;
}

qint64 PoolChartWidget::hint_at(int pool, int pixel_y) const {
  const qint64 align = std::max<qint64>(1, data_.pools.at(static_cast<size_t>(pool)).alignment);
  return static_cast<qint64>(std::llround(std::max(0.0, offset_at(pool, pixel_y)) / static_cast<double>(align))) *
         align;
}

void PoolChartWidget::set_range_drag(bool enabled) {
  for (PoolView& view : pools_)
    view.rect->setRangeDrag(enabled ? Qt::Horizontal | Qt::Vertical : Qt::Orientations());
}

void PoolChartWidget::on_press(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  press_pos_ = event->pos();
  const int p = pool_at(event->pos());
  if (p < 0) return;
  if (on_hint_line(event->pos()) == p) {
    drag_ = DragKind::kHint;
    drag_pool_ = p;
    set_range_drag(false);
    return;
  }
  const int buffer = pools_[static_cast<size_t>(p)].boxes->buffer_at(event->pos());
  if (buffer < 0) return;
  drag_ = DragKind::kBox;
  drag_buffer_ = buffer;
  drag_pool_ = p;
  const QRectF r = pools_[static_cast<size_t>(p)].boxes->pixel_rect(buffer);
  grab_offset_ = QPointF(event->pos()) - r.bottomLeft();
  set_range_drag(false);
}

void PoolChartWidget::on_move(QMouseEvent* event) {
  if (drag_ == DragKind::kNone) {
    if (event->buttons() == Qt::NoButton) {
      plot_->setCursor(on_hint_line(event->pos()) >= 0 ? Qt::SizeVerCursor : Qt::ArrowCursor);
      show_tooltip(event);
    }
    return;
  }
  if (drag_ == DragKind::kHint) {
    // The line and its label show what the release commits: the hint rounded to the alignment.
    const qint64 bytes = hint_at(drag_pool_, event->pos().y());
    set_line(pools_[static_cast<size_t>(drag_pool_)].hint, static_cast<double>(bytes), true);
    QToolTip::showText(event->globalPosition().toPoint(), tr("size hint: %1").arg(format_byte_count_exact(bytes)),
                       plot_);
    plot_->replot(QCustomPlot::rpQueuedReplot);
    return;
  }
  if ((event->pos() - press_pos_).manhattanLength() < kDragThresholdPixels) return;
  const QRectF r = pools_[static_cast<size_t>(drag_pool_)].boxes->pixel_rect(drag_buffer_);
  // Only the offset and the pool change: the ghost stays on the buffer's lifetime.
  const QPointF bottom_left(r.left(), QPointF(event->pos()).y() - grab_offset_.y());
  ghost_->topLeft->setCoords(bottom_left.x(), bottom_left.y() - r.height());
  ghost_->bottomRight->setCoords(bottom_left.x() + r.width(), bottom_left.y());
  ghost_->setVisible(true);
  ghost_->layer()->replot();
  plot_->update();
}

void PoolChartWidget::on_release(QMouseEvent* event) {
  const DragKind drag = drag_;
  drag_ = DragKind::kNone;
  set_range_drag(true);
  if (ghost_ && ghost_->visible()) {
    ghost_->setVisible(false);
    ghost_->layer()->replot();
  }
  if (event->button() != Qt::LeftButton) return;
  const bool moved = (event->pos() - press_pos_).manhattanLength() >= kDragThresholdPixels;
  if (drag == DragKind::kHint) {
    const PoolChartData& pool = data_.pools[static_cast<size_t>(drag_pool_)];
    const qint64 bytes = hint_at(drag_pool_, event->pos().y());
    if (moved && bytes != pool.size_hint_bytes) {
      emit size_hint_requested(drag_pool_, bytes);
    } else {
      set_line(pools_[static_cast<size_t>(drag_pool_)].hint, static_cast<double>(pool.size_hint_bytes), true);
      plot_->replot(QCustomPlot::rpQueuedReplot);
    }
    return;
  }
  if (drag == DragKind::kBox) {
    if (!moved) {
      emit buffer_clicked(drag_buffer_, event->modifiers());
      return;
    }
    const int target = pool_at(event->pos());
    if (target < 0) return;
    const double bottom_y = QPointF(event->pos()).y() - grab_offset_.y();
    const double raw = std::max(0.0, offset_at(target, static_cast<int>(std::lround(bottom_y))));
    const BufferBox* box = pools_[static_cast<size_t>(drag_pool_)].boxes->box_of(drag_buffer_);
    const qint64 current = box ? static_cast<qint64>(box->y0) : 0;
    if (target != drag_pool_ && !(event->modifiers() & Qt::ShiftModifier)) {
      emit pin_requested(drag_buffer_, target, -1);
    } else {
      emit pin_requested(drag_buffer_, target,
                         target == drag_pool_ && std::llround(raw) == current ? current : std::llround(raw));
    }
    return;
  }
  if (moved) zoomed_by_hand_ = true;  // the background was dragged: the view was panned by hand
  if (!moved && pool_at(event->pos()) >= 0) emit empty_clicked();
}

void PoolChartWidget::show_tooltip(QMouseEvent* event) {
  const int p = pool_at(event->pos());
  if (p < 0) {
    QToolTip::hideText();
    return;
  }
  const int buffer = pools_[static_cast<size_t>(p)].boxes->buffer_at(event->pos());
  const double x = pools_[static_cast<size_t>(p)].rect->axis(QCPAxis::atBottom)->pixelToCoord(event->pos().x());
  const auto tick = static_cast<int64_t>(std::floor(x));
  QString text = buffer >= 0 && tooltip_ ? tooltip_(buffer) : QString();
  const QString step = tick_label_ ? tick_label_(tick) : QString();
  if (!step.isEmpty())
    text += (text.isEmpty() ? QString() : QStringLiteral("<hr>")) + tr("tick %1: %2").arg(tick).arg(step);
  if (text.isEmpty()) {
    QToolTip::hideText();
    return;
  }
  QToolTip::showText(event->globalPosition().toPoint(), text, plot_);
}

}  // namespace usmpx::views
