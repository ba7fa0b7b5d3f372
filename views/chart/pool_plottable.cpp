#include "chart/pool_plottable.h"

#include <algorithm>
#include <array>
#include <vector>

#include "chart/box_colors.h"

namespace usmpx::views {

PoolPlottable::PoolPlottable(QCPAxis* key_axis, QCPAxis* value_axis) : QCPAbstractPlottable(key_axis, value_axis) {
  setSelectable(QCP::stNone);
  setAntialiasedFill(false);
}

void PoolPlottable::set_boxes(std::vector<BufferBox> boxes) {
  boxes_ = std::move(boxes);
}

void PoolPlottable::set_highlighted(const std::unordered_set<int>& buffers) {
  highlighted_ = buffers;
}

std::vector<QRectF> BufferBox::drawn() const {
  if (segments.empty()) return {QRectF(QPointF(x0, y0), QPointF(x1, y1))};
  std::vector<QRectF> out;
  for (const auto& [from, to] : segments)
    out.emplace_back(QPointF(from, y0), QPointF(to, y1));
  return out;
}

QRectF PoolPlottable::to_pixels(const QRectF& coords) const {
  const QPointF a(keyAxis()->coordToPixel(coords.left()), valueAxis()->coordToPixel(coords.top()));
  const QPointF b(keyAxis()->coordToPixel(coords.right()), valueAxis()->coordToPixel(coords.bottom()));
  return QRectF(a, b).normalized();
}

QRectF PoolPlottable::to_pixels(const BufferBox& box) const {
  return to_pixels(QRectF(QPointF(box.x0, box.y0), QPointF(box.x1, box.y1)));
}

int PoolPlottable::buffer_at(const QPointF& pixel) const {
  for (auto it = boxes_.rbegin(); it != boxes_.rend(); ++it) {
    for (const QRectF& part : it->drawn()) {
      // A box at least 3 pixels in each direction, so thin buffers can still be picked.
      QRectF r = to_pixels(part);
      if (r.width() < 3) r.adjust(-(3 - r.width()) / 2, 0, (3 - r.width()) / 2, 0);
      if (r.height() < 3) r.adjust(0, -(3 - r.height()) / 2, 0, (3 - r.height()) / 2);
      if (r.contains(pixel)) return it->buffer;
    }
  }
  return -1;
}

const BufferBox* PoolPlottable::box_of(int buffer) const {
  for (const BufferBox& box : boxes_) {
    if (box.buffer == buffer) return &box;
  }
  return nullptr;
}

QRectF PoolPlottable::pixel_rect(int buffer) const {
  const BufferBox* box = box_of(buffer);
  return box ? to_pixels(*box) : QRectF();
}

double PoolPlottable::selectTest(const QPointF& pos, bool only_selectable, QVariant* /*details*/) const {
  if (only_selectable) return -1;
  return buffer_at(pos) >= 0 ? 0 : -1;
}

QCPRange PoolPlottable::getKeyRange(bool& found_range, QCP::SignDomain /*in_sign_domain*/) const {
  found_range = !boxes_.empty();
  QCPRange range(0, 1);
  for (size_t i = 0; i < boxes_.size(); ++i) {
    if (i == 0) range = QCPRange(boxes_[i].x0, boxes_[i].x1);
    range.expand(QCPRange(boxes_[i].x0, boxes_[i].x1));
  }
  return range;
}

QCPRange PoolPlottable::getValueRange(bool& found_range, QCP::SignDomain /*in_sign_domain*/,
                                      const QCPRange& /*in_key_range*/) const {
  found_range = !boxes_.empty();
  QCPRange range(0, 1);
  for (const BufferBox& box : boxes_)
    range.expand(QCPRange(box.y0, box.y1));
  return range;
}

// The boxes in view as pixel rectangles, sorted into what is drawn how.
struct PoolPlottable::DrawnBoxes {
  static constexpr size_t kRoles = 5;
  // Batched by colour: per model (none, then each model of a firmware file) and role.
  std::vector<QVector<QRectF>> fills;
  std::vector<QVector<QRectF>> faint;  // boxes a filter does not match
  QVector<QRectF> outlines;
  QVector<QRectF> highlighted;
  std::vector<std::pair<QRectF, const BufferBox*>> labelled;
  std::vector<QRectF> pins;
};

PoolPlottable::DrawnBoxes PoolPlottable::boxes_in_view(const QRectF& clip) const {
  DrawnBoxes d;
  int models = 0;
  for (const BufferBox& box : boxes_)
    models = std::max(models, box.model + 1);
  d.fills.resize(DrawnBoxes::kRoles * static_cast<size_t>(models + 1));
  d.faint.resize(d.fills.size());
  for (const BufferBox& box : boxes_) {
    if (!to_pixels(box).intersects(clip) && !clip.contains(to_pixels(box).topLeft())) continue;
    QRectF widest;
    bool first = true;
    for (const QRectF& part : box.drawn()) {
      QRectF r = to_pixels(part);
      if (!r.intersects(clip) && !clip.contains(r.topLeft())) continue;
      // Thin boxes still show as at least one pixel.
      if (r.width() < 1) r.setWidth(1);
      if (r.height() < 1) r.setHeight(1);
      const bool dim = drawn_faint(box.buffer);
      const size_t colour = DrawnBoxes::kRoles * static_cast<size_t>(box.model + 1) + static_cast<size_t>(box.role);
      (dim ? d.faint : d.fills)[colour].push_back(r);
      if (r.width() >= 4 && r.height() >= 4 && !dim) d.outlines.push_back(r);
      if (highlighted_.count(box.buffer)) d.highlighted.push_back(r);
      if (box.pinned && first) d.pins.push_back(r);
      if (r.width() > widest.width()) widest = r;
      first = false;
    }
    if (widest.width() > 40 && widest.height() > 14 && !drawn_faint(box.buffer)) d.labelled.emplace_back(widest, &box);
  }
  return d;
}

void PoolPlottable::draw(QCPPainter* painter) {
  const QRectF clip = clipRect();
  const DrawnBoxes d = boxes_in_view(clip);
  draw_fills(painter, d);
  draw_reference(painter, clip);
  draw_highlights(painter, d.highlighted);
  draw_labels(painter, d.labelled);
}

// The boxes in their colours, white outlines, and a dark corner triangle on pinned buffers.
void PoolPlottable::draw_fills(QCPPainter* painter, const DrawnBoxes& d) const {
  painter->setAntialiasing(false);
  painter->setPen(Qt::NoPen);
  for (size_t colour = 0; colour < d.fills.size(); ++colour) {
    if (d.fills[colour].isEmpty() && d.faint[colour].isEmpty()) continue;
    QColor color = box_color(static_cast<int>(colour / DrawnBoxes::kRoles) - 1,
                             static_cast<BufferRole>(colour % DrawnBoxes::kRoles));
    color.setAlpha(210);  // overlapping boxes (invalid plans) stay visible
    painter->setBrush(color);
    painter->drawRects(d.fills[colour]);
    color.setAlpha(45);
    painter->setBrush(color);
    painter->drawRects(d.faint[colour]);
  }
  painter->setBrush(Qt::NoBrush);
  painter->setPen(QPen(QColor(255, 255, 255, 170), 1));
  painter->drawRects(d.outlines);
  painter->setPen(Qt::NoPen);
  painter->setBrush(QColor(30, 30, 30));
  for (const QRectF& r : d.pins) {
    const double s = std::min({8.0, r.width(), r.height()});
    const QPointF corner = r.topLeft();
    const QPointF triangle[3] = {corner, corner + QPointF(s, 0), corner + QPointF(0, s)};
    painter->drawPolygon(triangle, 3);
  }
}

// Another plan's boxes as dashed outlines.
void PoolPlottable::draw_reference(QCPPainter* painter, const QRectF& clip) const {
  if (reference_.empty()) return;
  QVector<QRectF> reference;
  for (const BufferBox& box : reference_) {
    for (const QRectF& part : box.drawn()) {
      const QRectF r = to_pixels(part);
      if (r.intersects(clip)) reference.push_back(r);
    }
  }
  painter->setBrush(Qt::NoBrush);
  painter->setPen(QPen(QColor(120, 0, 140), 1.2, Qt::DashLine));
  painter->drawRects(reference);
}

// Selected boxes: a wide yellow halo, then a dark and a yellow edge, readable on every colour.
void PoolPlottable::draw_highlights(QCPPainter* painter, const QVector<QRectF>& highlighted) const {
  painter->setBrush(Qt::NoBrush);
  painter->setAntialiasing(true);
  painter->setPen(QPen(QColor(255, 210, 0, 150), 9));
  painter->drawRects(highlighted);
  painter->setPen(QPen(QColor(20, 20, 20), 3));
  painter->drawRects(highlighted);
  painter->setPen(QPen(QColor(255, 230, 0), 1.5));
  painter->drawRects(highlighted);
  painter->setAntialiasing(false);
}

void PoolPlottable::draw_labels(QCPPainter* painter,
                                const std::vector<std::pair<QRectF, const BufferBox*>>& labelled) const {
  painter->setPen(Qt::white);
  const QFontMetrics metrics(painter->font());
  for (const auto& [r, box] : labelled) {
    const QString text = metrics.elidedText(box->label, Qt::ElideRight, static_cast<int>(r.width()) - 6);
    if (text.size() > 1) painter->drawText(r.adjusted(4, 0, -2, 0), Qt::AlignLeft | Qt::AlignVCenter, text);
  }
}

void PoolPlottable::drawLegendIcon(QCPPainter* painter, const QRectF& rect) const {
  painter->setBrush(role_color(BufferRole::kIntermediate));
  painter->setPen(Qt::NoPen);
  painter->drawRect(rect);
}

}  // namespace usmpx::views
