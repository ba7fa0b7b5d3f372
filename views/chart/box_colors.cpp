#include "box_colors.h"

#include <array>

namespace usmpx::views {

QColor role_color(BufferRole role) {
  switch (role) {
    case BufferRole::kIntermediate: return QColor(0x4C, 0x78, 0xA8);
    case BufferRole::kOperatorInternal: return QColor(0xF5, 0x85, 0x18);
    case BufferRole::kConstant: return QColor(0x54, 0xA2, 0x4B);
    case BufferRole::kInputOutput: return QColor(0xB2, 0x79, 0xA2);
    case BufferRole::kReserved:  // bytes unreadable code may use: neutral grey, not a tensor
      return QColor(0x9D, 0x9D, 0x9D);
  }
  return Qt::gray;
}

namespace {

// Hues far apart on the colour wheel (blue, orange, green, purple, olive, teal, red, brown), so
// neighbouring models never look alike; more models repeat them.
constexpr std::array<int, 8> kModelHues = {212, 28, 120, 285, 55, 180, 355, 15};

}  // namespace

QColor model_color(int model) {
  const int hue = kModelHues[static_cast<size_t>(model < 0 ? 0 : model) % kModelHues.size()];
  return QColor::fromHsl(hue, 150, 105);
}

QColor box_color(int model, BufferRole role) {
  if (model < 0 || role == BufferRole::kReserved) return role_color(role);
  const int hue = kModelHues[static_cast<size_t>(model) % kModelHues.size()];
  switch (role) {
    case BufferRole::kIntermediate: return QColor::fromHsl(hue, 150, 105);
    case BufferRole::kOperatorInternal: return QColor::fromHsl(hue, 170, 165);
    case BufferRole::kConstant: return QColor::fromHsl(hue, 130, 62);
    case BufferRole::kInputOutput: return QColor::fromHsl(hue, 70, 135);
    case BufferRole::kReserved: break;
  }
  return role_color(role);
}

}  // namespace usmpx::views
