#pragma once

#include <QColor>

#include "checks/plan_profile.h"

namespace usmpx::views {

// Fill colour of a buffer box by role (colour-blind friendly palette).
QColor role_color(BufferRole role);

}  // namespace usmpx::views
