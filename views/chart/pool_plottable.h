#pragma once

#include <QRectF>
#include <QString>
#include <optional>
#include <unordered_set>
#include <utility>
#include <vector>

#include "chart/qcustomplot_include.h"
#include "checks/plan_profile.h"

namespace usmpx::views {

// One buffer drawn as a box: x = lifetime [x0, x1) in ticks, y = [y0, y1) in bytes. A buffer live
// in several separate ranges (the ticks its conflicts come from) is drawn as one box per range.
struct BufferBox {
  int buffer = -1;
  double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
  std::vector<std::pair<double, double>> segments;  // [from, to) ticks within [x0, x1); empty: the whole box
  // The rectangles drawn in chart coordinates (x0, y0, x1, y1 each): the segments, or the box.
  std::vector<QRectF> drawn() const;
  BufferRole role = BufferRole::kIntermediate;
  bool pinned = false;
  int model = -1;  // which model of a firmware file it belongs to (-1: the input holds one)
  QString label;
};

// All buffer boxes of one pool as a single plottable (not one item per box), so that thousands of
// boxes stay cheap: boxes outside the view are culled, the rest are batched by colour into one
// drawRects call each, and labels are drawn only where they fit.
class PoolPlottable : public QCPAbstractPlottable {
  Q_OBJECT

 public:
  PoolPlottable(QCPAxis* key_axis, QCPAxis* value_axis);

  void set_boxes(std::vector<BufferBox> boxes);
  const std::vector<BufferBox>& boxes() const { return boxes_; }
  void set_highlighted(const std::unordered_set<int>& buffers);
  // Buffers a filter matches; the other boxes are drawn faint. nullopt: no filter, all drawn alike.
  void set_matches(const std::optional<std::unordered_set<int>>& buffers) { matches_ = buffers; }
  bool drawn_faint(int buffer) const { return matches_ && !matches_->count(buffer); }
  // Another plan's boxes (TVM's), drawn as dashed outlines over the boxes; empty draws none.
  void set_reference(std::vector<BufferBox> boxes) { reference_ = std::move(boxes); }
  const std::vector<BufferBox>& reference() const { return reference_; }

  // The buffer whose box contains the pixel (the one drawn last when several do), or -1.
  int buffer_at(const QPointF& pixel) const;
  // Pixel rectangle of a buffer's box; empty when the buffer is not in this pool.
  QRectF pixel_rect(int buffer) const;
  const BufferBox* box_of(int buffer) const;

  double selectTest(const QPointF& pos, bool only_selectable, QVariant* details = nullptr) const override;
  QCPRange getKeyRange(bool& found_range, QCP::SignDomain in_sign_domain = QCP::sdBoth) const override;
  QCPRange getValueRange(bool& found_range, QCP::SignDomain in_sign_domain = QCP::sdBoth,
                         const QCPRange& in_key_range = QCPRange()) const override;

 protected:
  void draw(QCPPainter* painter) override;
  void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

 private:
  struct DrawnBoxes;
  DrawnBoxes boxes_in_view(const QRectF& clip) const;
  void draw_fills(QCPPainter* painter, const DrawnBoxes& d) const;
  void draw_reference(QCPPainter* painter, const QRectF& clip) const;
  void draw_highlights(QCPPainter* painter, const QVector<QRectF>& highlighted) const;
  void draw_labels(QCPPainter* painter, const std::vector<std::pair<QRectF, const BufferBox*>>& labelled) const;
  QRectF to_pixels(const BufferBox& box) const;
  QRectF to_pixels(const QRectF& coords) const;

  std::vector<BufferBox> boxes_;
  std::vector<BufferBox> reference_;
  std::unordered_set<int> highlighted_;
  std::optional<std::unordered_set<int>> matches_;
};

}  // namespace usmpx::views
