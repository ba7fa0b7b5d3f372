#include "window_fit.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>
#include <algorithm>

namespace usmpx::app {
namespace {

QRect& fixed_area() {
  static QRect area;
  return area;
}

// What a window manager's frame takes: a title bar and thin borders (Qt knows it only once shown).
constexpr int kFrameWidth = 8;
constexpr int kFrameHeight = 36;

}  // namespace

QRect available_area(const QWidget* widget) {
  if (!fixed_area().isEmpty()) return fixed_area();
  const QScreen* screen = widget && widget->screen() ? widget->screen() : QGuiApplication::primaryScreen();
  return screen ? screen->availableGeometry() : QRect(0, 0, 1280, 720);
}

void set_available_area(const QRect& area) {
  fixed_area() = area;
}

QSize fitted_size(const QSize& wanted, const QRect& area) {
  return QSize(std::max(1, std::min(wanted.width(), area.width() - kFrameWidth)),
               std::max(1, std::min(wanted.height(), area.height() - kFrameHeight)));
}

QRect clamped_geometry(const QRect& geometry, const QRect& area) {
  QRect out(geometry.topLeft(), fitted_size(geometry.size(), area));
  // The frame's top-left corner within the area, the frame's bottom-right corner too.
  const int left = area.left() + kFrameWidth / 2;
  const int top = area.top() + kFrameHeight - kFrameWidth / 2;
  const int right = area.right() - kFrameWidth / 2;
  const int bottom = area.bottom() - kFrameWidth / 2;
  if (out.right() > right) out.moveRight(right);
  if (out.bottom() > bottom) out.moveBottom(bottom);
  if (out.left() < left) out.moveLeft(left);
  if (out.top() < top) out.moveTop(top);
  return out;
}

void fit_window(QWidget* window, const QSize& wanted) {
  const QRect area = available_area(window);
  window->resize(fitted_size(wanted, area));
  if (window->isVisible() || window->testAttribute(Qt::WA_Moved))
    window->setGeometry(clamped_geometry(window->geometry(), area));
}

void place_over_parent(QWidget* dialog) {
  const QWidget* parent = dialog->parentWidget() ? dialog->parentWidget()->window() : nullptr;
  if (!parent || !parent->isVisible()) return;
  QRect geometry(QPoint(0, 0), dialog->size());
  geometry.moveCenter(parent->geometry().center());
  dialog->setGeometry(clamped_geometry(geometry, available_area(parent)));
}

void clamp_window(QWidget* window) {
  window->setGeometry(clamped_geometry(window->geometry(), available_area(window)));
}

}  // namespace usmpx::app
