#pragma once

#include <QString>
#include <QStringList>

namespace usmpx::views {
class PoolChartWidget;
}

namespace usmpx::app {

class ExplorerController;

// Writes the review report into `folder`: charts.png, charts.svg, charts.pdf and report.html
// (pools, compared algorithms when a comparison ran, the chosen plan). Each file is written to a
// temporary name first. Returns the files written, or an empty list with `error` set.
QStringList write_review_report(const ExplorerController& controller, views::PoolChartWidget& chart, const QString& folder,
                                QString* error);

}  // namespace usmpx::app
