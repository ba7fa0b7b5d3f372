#include "report_writer.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPdfWriter>
#include <QSvgGenerator>

#include "chart/pool_chart_widget.h"
#include "chart/qcustomplot_include.h"
#include "explorer_controller.h"
#include "io/text_file.h"
#include "report/html_report.h"

namespace usmpx::app {
namespace {

constexpr int kImageWidth = 1600;
constexpr int kPdfDpi = 96;  // the screen's: fonts measure as the layout measured them

// Renders to `name`.tmp through `save`, then renames over `name`.
bool save_via_temp(const QString& path, const std::function<bool(const QString&)>& save) {
  const QString temp = path + QStringLiteral(".tmp");
  if (!save(temp)) {
    QFile::remove(temp);
    return false;
  }
  QFile::remove(path);
  return QFile::rename(temp, path);
}

// The charts as a PDF to read page by page: all pools on the first page, then one page per pool,
// each A4 landscape at a size where labels stay readable.
bool write_pdf(const views::PoolChartWidget& chart, const QString& path) {
  QPdfWriter writer(path);
  writer.setPageSize(QPageSize(QPageSize::A4));
  writer.setPageOrientation(QPageLayout::Landscape);
  writer.setPageMargins(QMarginsF(10, 10, 10, 10), QPageLayout::Millimeter);
  writer.setResolution(kPdfDpi);
  writer.setTitle(QStringLiteral("USMP Explorer pool charts"));
  QCPPainter painter;
  if (!painter.begin(&writer)) return false;
  const QRect page = writer.pageLayout().paintRectPixels(kPdfDpi);
  // Laid out at the page's size in screen pixels, so labels have the size they have on screen.
  const QSize canvas = page.size();
  auto render = [&](views::PoolChartWidget& source) {
    // Laid out at the canvas size first: axis margins follow the labels at that size.
    source.plot()->setGeometry(QRect(QPoint(0, 0), canvas));
    source.plot()->replot(QCustomPlot::rpImmediateRefresh);
    source.plot()->toPainter(&painter, canvas.width(), canvas.height());
  };
  views::PoolChartWidget all(nullptr, true);
  all.set_data(chart.data());
  all.set_show_reference(chart.showing_reference());
  all.resize(canvas);
  render(all);
  for (const views::PoolChartData& pool : chart.data().pools) {
    if (chart.data().pools.size() < 2) break;
    views::ChartData one = chart.data();
    one.pools = {pool};
    views::PoolChartWidget single(nullptr, true);
    single.set_data(std::move(one));
    single.set_show_reference(chart.showing_reference());
    single.resize(canvas);
    if (!writer.newPage()) return false;
    render(single);
  }
  painter.end();
  return QFileInfo(path).size() > 0;
}

}  // namespace

QStringList write_review_report(const ExplorerController& controller, views::PoolChartWidget& chart,
                                const QString& folder, QString* error) {
  QDir dir(folder);
  if (!dir.exists() && !dir.mkpath(QStringLiteral("."))) {
    if (error) *error = QObject::tr("cannot create %1").arg(folder);
    return {};
  }
  QCustomPlot* plot = chart.plot();
  const int height = std::max(400, 260 * chart.pool_count());
  QStringList written;
  auto fail = [&](const QString& file) {
    if (error) *error = QObject::tr("cannot write %1").arg(dir.filePath(file));
    return QStringList{};
  };
  if (!save_via_temp(dir.filePath(QStringLiteral("charts.png")), [&](const QString& p) {
        return plot->savePng(p, kImageWidth, height, 1.0, -1, -1, QCP::ruDotsPerInch);
      })) {
    return fail(QStringLiteral("charts.png"));
  }
  written << QStringLiteral("charts.png");
  if (!save_via_temp(dir.filePath(QStringLiteral("charts.pdf")),
                     [&](const QString& p) { return write_pdf(chart, p); })) {
    return fail(QStringLiteral("charts.pdf"));
  }
  written << QStringLiteral("charts.pdf");
  const bool svg_ok = save_via_temp(dir.filePath(QStringLiteral("charts.svg")), [&](const QString& p) {
    QSvgGenerator generator;
    generator.setFileName(p);
    generator.setSize(QSize(kImageWidth, height));
    generator.setViewBox(QRect(0, 0, kImageWidth, height));
    generator.setTitle(QStringLiteral("USMP Explorer pool charts"));
    QCPPainter painter;
    if (!painter.begin(&generator)) return false;
    plot->toPainter(&painter, kImageWidth, height);
    painter.end();
    return QFileInfo(p).size() > 0;
  });
  if (!svg_ok) return fail(QStringLiteral("charts.svg"));
  written << QStringLiteral("charts.svg");

  ReportContent content;
  content.title = "Memory plan review: " + QFileInfo(controller.input_path()).fileName().toStdString();
  content.input = controller.input_path().toStdString();
  content.problem = controller.problem();
  content.chosen = controller.plan();
  content.compared = controller.comparison();
  content.images = {"charts.svg"};
  content.warnings = controller.input().warnings;
  if (controller.has_reference()) {
    std::vector<int64_t> bytes;
    for (qint64 b : controller.reference_pool_bytes())
      bytes.push_back(b);
    content.reference_pool_bytes = bytes;
    content.reference_total_bytes = controller.reference().total_size();
  }
  try {
    write_file_atomically(dir.filePath(QStringLiteral("report.html")).toStdString(), html_report(content));
  } catch (const std::exception&) {
    return fail(QStringLiteral("report.html"));
  }
  written << QStringLiteral("report.html");
  return written;
}

}  // namespace usmpx::app
