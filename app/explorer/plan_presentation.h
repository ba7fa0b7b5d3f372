#pragma once

#include <QString>
#include <vector>

#include "chart/chart_data.h"

namespace usmpx {
struct PlanSummary;
}

namespace usmpx::app {

class ExplorerController;

// What the window shows of the controller's current plan, in the views' terms.

// A buffer's tooltip in the charts: size, place, lifetime as drawn, kind, origin, pin, and the
// buffers drawn over it that may share its addresses.
QString buffer_tooltip(const ExplorerController& controller, int buffer);

// The charts' data: the plan with the reference plan's outlines, a firmware file's models each in
// its own hue, and the figure to paste heading the pool it sizes.
views::ChartData plan_chart_data(const ExplorerController& controller, const PlanSummary& summary);

// Per pool of the edits, the section an export gives it when it names none (TVM's), as the
// export dialog lists them ("" where the export says nothing).
std::vector<QString> export_sections(const ExplorerController& controller);

}  // namespace usmpx::app
