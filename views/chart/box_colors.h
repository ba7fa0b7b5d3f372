#pragma once

#include <QColor>

#include "checks/plan_profile.h"

namespace usmpx::views {

// Fill colour of a buffer box by role (colour-blind friendly palette).
QColor role_color(BufferRole role);

// The hue of model `model` of an input holding several (a firmware file): its swatch in the legend.
QColor model_color(int model);
// Fill colour of a buffer box of model `model` (-1: the input holds one model, role_color): the
// model's hue, the role told apart by lightness (constants darkest, buffers an operator allocates
// for itself lightest); reserved bytes stay grey.
QColor box_color(int model, BufferRole role);

}  // namespace usmpx::views
