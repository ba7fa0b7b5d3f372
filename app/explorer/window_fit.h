#pragma once

#include <QRect>
#include <QSize>

class QWidget;

namespace usmpx::app {

// Keeps windows on a laptop's screen: the main window and every dialog open within the screen's
// available geometry (the screen minus panels), a geometry saved on a larger screen is clamped
// into it, and what does not fit scrolls inside the window instead of running off the screen.

// The area windows may use: the available geometry of the widget's screen (or the primary
// screen's), unless a test fixed it with set_available_area.
QRect available_area(const QWidget* widget);
// Fixes the area (tests at 1280x720 and 1600x1000); an empty rectangle returns to the screen's.
void set_available_area(const QRect& area);

// `wanted` shrunk to fit `area`, leaving room for the window frame (title bar and borders).
QSize fitted_size(const QSize& wanted, const QRect& area);
// `geometry` (a window's, without frame) moved and shrunk until it lies within `area` with its frame.
QRect clamped_geometry(const QRect& geometry, const QRect& area);

// Resizes a top-level window to `wanted` shrunk to its available area and, once it has a
// position, keeps it inside that area.
void fit_window(QWidget* window, const QSize& wanted);
// Centres a dialog over its parent window (within the available area), so it never opens at the
// screen's corner under no title bar when the window manager has not placed it yet.
void place_over_parent(QWidget* dialog);
// Clamps a window's current (restored) geometry into its available area.
void clamp_window(QWidget* window);

}  // namespace usmpx::app
