#pragma once

#include <QWidget>
#include <functional>
#include <optional>
#include <unordered_set>
#include <vector>

#include "chart/chart_data.h"
#include "chart/chart_legend.h"
#include "chart/model_bands.h"
#include "chart/view_limits.h"

class QCustomPlot;
class QCPAxisRect;
class QCPGraph;
class QCPItemRect;
class QCPItemStraightLine;
class QCPItemText;
class QCPTextElement;
class QMouseEvent;

class QLabel;

namespace usmpx::views {

class PoolPlottable;

// The centre of the explorer: one lifetime × offset chart per pool, stacked vertically with a
// shared time axis. Boxes are buffers coloured by role; lines mark the pool's used size (solid),
// its size hint (dashed red, draggable to resize the pool) and the lower bound of its buffers
// (dotted green); a grey step line shows the bytes in use at each tick. Dragging a box onto another
// pool asks to repin it there; dragging it within its pool asks to pin it at the new offset.
class PoolChartWidget : public QWidget {
  Q_OBJECT

 public:
  explicit PoolChartWidget(QWidget* parent = nullptr, bool interactive = true);

  // Shows new data; keeps the zoom when the pools are the same, else fits everything.
  void set_data(ChartData data);
  const ChartData& data() const { return data_; }
  void set_selection(const std::vector<int>& buffers);
  // The buffers a filter matches: the others are drawn faint; nullopt when no filter is set.
  void set_matches(std::optional<std::unordered_set<int>> buffers);
  // Centres the buffer's box and zooms in until it is readable.
  void reveal(int buffer);
  // Fits every chart to its whole pool. New data whose pool extents changed fits too, unless
  // the view was zoomed by hand (wheel, drag, a revealed buffer) since the last fit.
  void reset_view();
  // Shows the ticks [from, to) (one model of a firmware file), kept across re-plans as a zoom by hand.
  void show_ticks(double from, double to);
  bool zoomed_by_hand() const { return zoomed_by_hand_; }
  // The text at the chart's edge naming the size hint while its line is outside the view ("" when inside).
  QString hint_marker_text(int pool) const;
  // Fixes each pool's byte axis to [0, tops[p]] (several charts side by side on one scale);
  // empty returns to each chart's own scale.
  void set_value_tops(std::vector<qint64> tops);
  // Draws the reference plan's boxes (ChartData's reference_boxes) as outlines.
  void set_show_reference(bool show);
  bool showing_reference() const { return show_reference_; }
  // The pool's header as shown (tests, reports).
  QString pool_title(int pool) const;
  void set_tooltip_provider(std::function<QString(int buffer)> provider) { tooltip_ = std::move(provider); }
  // What runs at a tick (e.g. the operator), shown when hovering the charts.
  void set_tick_labeler(std::function<QString(int64_t tick)> labeler) { tick_label_ = std::move(labeler); }
  QCustomPlot* plot() const { return plot_; }
  // The legend above the charts (interactive charts only, else null).
  const QLabel* legend() const { return legend_; }
  // A model's band in a pool's chart (a firmware file's models: ChartData::models) and its label;
  // null when there is none.
  const QCPItemRect* model_band(int pool, int model) const;
  const QCPItemText* model_label(int pool, int model) const;

  // Coordinate mapping, in widget pixels of plot().
  int pool_count() const { return static_cast<int>(pools_.size()); }
  int pool_at(const QPoint& pixel) const;
  int buffer_at(const QPoint& pixel) const;
  int pool_of_buffer(int buffer) const;
  QPoint buffer_center(int buffer) const;
  QRect buffer_rect(int buffer) const;     // the box as drawn, clipped to its chart
  QPoint hint_line_point(int pool) const;  // middle of the pool's size-hint line
  QPoint pixel_of(int pool, double tick, double offset) const;
  // The drag ghost in plot pixels while a box is dragged, else empty.
  QRectF ghost_rect() const;
  // Offset in bytes at a vertical pixel position in a pool's chart.
  double offset_at(int pool, int pixel_y) const;
  // The size hint a drag of the pool's hint line to `pixel_y` commits (rounded to the pool's
  // alignment); what the line and its label show during the drag.
  qint64 hint_at(int pool, int pixel_y) const;

 signals:
  void buffer_clicked(int buffer, Qt::KeyboardModifiers modifiers);
  void empty_clicked();
  // offset < 0 means "anywhere in the pool".
  void pin_requested(int buffer, int pool, qint64 offset);
  void size_hint_requested(int pool, qint64 bytes);
  void context_menu_requested(int buffer, int pool, const QPoint& global_pos);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  QLabel* legend_ = nullptr;  // interactive charts only: what the marks mean, naming the reference
  struct PoolView {
    QCPAxisRect* rect = nullptr;
    QCPTextElement* title = nullptr;
    PoolPlottable* boxes = nullptr;
    QCPGraph* live = nullptr;
    QCPItemStraightLine* used = nullptr;
    QCPItemStraightLine* hint = nullptr;
    QCPItemStraightLine* lower_bound = nullptr;
    QCPItemText* hint_marker = nullptr;  // at the chart's top or bottom edge while the hint line is outside the view
    ModelBands models;                   // per model of a firmware file: its ticks, shaded, and its name
  };
  enum class DragKind { kNone, kBox, kHint };

  void rebuild_layout();
  PoolView pool_axes(size_t p, QCPMarginGroup* margins, const QSharedPointer<QCPAxisTicker>& bytes,
                     const QSharedPointer<QCPAxisTicker>& ticks);
  void add_pool_marks(PoolView& view);
  void fill_pool(size_t p);
  void set_line(QCPItemStraightLine* line, double y, bool visible);
  void sync_time_axes(const struct QCPRange& range);
  void on_press(QMouseEvent* event);
  void on_move(QMouseEvent* event);
  void on_release(QMouseEvent* event);
  void show_tooltip(QMouseEvent* event);
  void set_range_drag(bool enabled);
  int on_hint_line(const QPoint& pixel) const;  // the pool whose size-hint line is under the pixel, or -1
  QString title_text(const PoolChartData& pool) const;
  QString fitted_title(const QString& text) const;
  void update_legend();
  void update_hint_marker(size_t p);
  double value_top(size_t p) const;  // the byte axis' top when fitted (chart/view_limits.h)
  // A zoom or pan beyond what the axes may show (chart/view_limits.h) is brought back.
  void keep_time_in_data(QCPAxis* axis, const QCPRange& range);
  void keep_offsets_in_data(size_t p, const QCPRange& range);

  QCustomPlot* plot_;
  bool interactive_;
  ChartData data_;
  std::vector<PoolView> pools_;
  std::unordered_set<int> selection_;
  std::optional<std::unordered_set<int>> matches_;
  std::function<QString(int)> tooltip_;
  std::function<QString(int64_t)> tick_label_;
  QCPItemRect* ghost_ = nullptr;
  DragKind drag_ = DragKind::kNone;
  int drag_buffer_ = -1;
  int drag_pool_ = -1;
  QPoint press_pos_;
  QPointF grab_offset_;  // from the box's bottom-left corner to the mouse, in pixels
  bool syncing_ = false;
  bool show_reference_ = false;
  std::vector<qint64> value_tops_;
  bool zoomed_by_hand_ = false;  // wheel, background drag or a reveal since the last fit
};

}  // namespace usmpx::views
