#include "box_colors.h"

namespace usmpx::views {

QColor role_color(BufferRole role) {
  switch (role) {
    case BufferRole::kIntermediate:
      return QColor(0x4C, 0x78, 0xA8);
    case BufferRole::kOperatorInternal:
      return QColor(0xF5, 0x85, 0x18);
    case BufferRole::kConstant:
      return QColor(0x54, 0xA2, 0x4B);
    case BufferRole::kInputOutput:
      return QColor(0xB2, 0x79, 0xA2);
    case BufferRole::kReserved:  // bytes unreadable code may use: neutral grey, not a tensor
      return QColor(0x9D, 0x9D, 0x9D);
  }
  return Qt::gray;
}

}  // namespace usmpx::views
