#pragma once

#include <QSize>
#include <QString>
#include <QStringList>
#include <memory>

namespace usmpx::views {
class PoolChartWidget;
}

namespace usmpx::app {

class ExplorerController;

// Writes the review report into `folder`: charts.png, charts.svg, charts.pdf and report.html
// (pools, compared algorithms when a comparison ran, the chosen plan). Each file is written to a
// temporary name first. Returns the files written, or an empty list with `error` set.
// The charts as a report shows them: the whole plan (every pool, all ticks, up to each pool's
// largest size), laid out at `size`, whatever the window's zoom and selection.
std::unique_ptr<views::PoolChartWidget> report_chart(const views::PoolChartWidget& chart, QSize size);

// The first page of charts.pdf, as HTML: the model, its pools with used bytes, size hints and
// lower bounds, the totals and the difference to TVM's plan.
QString report_summary_html(const ExplorerController& controller, const views::PoolChartWidget& chart);

QStringList write_review_report(const ExplorerController& controller, views::PoolChartWidget& chart,
                                const QString& folder, QString* error);

}  // namespace usmpx::app
