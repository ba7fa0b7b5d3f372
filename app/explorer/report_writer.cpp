#include "report_writer.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <QTextDocument>

#include "base/size_text.h"
#include "base/text_file.h"
#include "chart/pool_chart_widget.h"
#include "chart/qcustomplot_include.h"
#include "explorer_controller.h"
#include "panels/models_panel.h"
#include "report/html_report.h"

namespace usmpx::app {
namespace {

constexpr int kImageWidth = 1600;
constexpr int kPdfDpi = 96;  // the screen's: fonts measure as the layout measured them

// The charts as SVG for the HTML review. Qt writes font sizes in points at its 72 dpi default and
// names its generic family ("Sans Serif"), which a browser does not know: at 96 dpi the text is
// the size of charts.png's, and a CSS generic family after each name keeps it sans-serif.
bool write_svg(QCustomPlot& plot, const QString& path, QSize size) {
  QSvgGenerator generator;
  generator.setFileName(path);
  generator.setResolution(96);
  generator.setSize(size);
  generator.setViewBox(QRect(QPoint(0, 0), size));
  generator.setTitle(QStringLiteral("USMP Explorer pool charts"));
  QCPPainter painter;
  if (!painter.begin(&generator)) return false;
  plot.toPainter(&painter, size.width(), size.height());
  painter.end();
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return false;
  QString svg = QString::fromUtf8(file.readAll());
  file.close();
  svg.replace(QRegularExpression(QStringLiteral("font-family=\"([^\"]*)\"")),
              QStringLiteral("font-family=\"\\1, sans-serif\""));
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
  return file.write(svg.toUtf8()) > 0;
}

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

QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

QString gap_text(int64_t size, int64_t bound) {
  return qs(format_gap(size, bound)).toHtmlEscaped();
}

// The charts as a PDF to read page by page: a summary first, all pools on the next page, then one
// page per pool, each A4 landscape at a size where labels stay readable.
bool write_pdf(const ExplorerController& controller, const views::PoolChartWidget& chart, const QString& path) {
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
  QTextDocument summary;
  summary.setHtml(report_summary_html(controller, chart));
  summary.setTextWidth(canvas.width());
  summary.drawContents(&painter);
  if (!writer.newPage()) return false;
  auto render = [&](views::PoolChartWidget& source) {
    // Laid out at the canvas size first: axis margins follow the labels at that size.
    source.plot()->setGeometry(QRect(QPoint(0, 0), canvas));
    source.plot()->replot(QCustomPlot::rpImmediateRefresh);
    source.plot()->toPainter(&painter, canvas.width(), canvas.height());
  };
  render(*report_chart(chart, canvas));
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

// A firmware file's shared pools on the first page: what sharing saves and the number to paste.
QString sharing_summary_html(const ExplorerController& controller) {
  if (!controller.has_input() || !controller.input().details) return {};
  const std::vector<SharedPoolFigures> sharing =
      controller.input().details->sharing(controller.problem(), controller.plan());
  if (sharing.empty()) return {};
  return QObject::tr("<p><b>Sharing between the models</b></p>") + views::ModelsPanel::sharing_html(sharing);
}

}  // namespace

std::unique_ptr<views::PoolChartWidget> report_chart(const views::PoolChartWidget& chart, QSize size) {
  auto whole = std::make_unique<views::PoolChartWidget>(nullptr, true);
  whole->set_data(chart.data());
  whole->set_show_reference(chart.showing_reference());
  whole->resize(size);
  whole->plot()->setGeometry(QRect(QPoint(0, 0), size));
  whole->reset_view();
  whole->plot()->replot(QCustomPlot::rpImmediateRefresh);
  return whole;
}

namespace {

// The figure a firmware needs beyond the pools (TFLM's kTensorArenaSize line), one row per figure.
QString runtime_memory_html(const ExplorerController& controller) {
  QString html;
  const QStringList runtime = controller.runtime_memory_text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  if (runtime.size() == 1) {
    html += QObject::tr("<p><b>Memory the firmware needs:</b> %1</p>").arg(runtime.front().toHtmlEscaped());
  } else if (!runtime.isEmpty()) {
    // One row per figure (an ExecuTorch program's methods), never one run-on paragraph.
    html += QObject::tr("<p><b>Memory the firmware needs:</b></p>") +
            QStringLiteral("<table border=1 cellspacing=0 cellpadding=3>");
    for (const QString& row : runtime)
      html += QStringLiteral("<tr><td>%1</td></tr>").arg(row.toHtmlEscaped());
    html += QStringLiteral("</table>");
  }
  return html;
}

// Per pool and in total: used, size hint, lower bound, gap, and against the reference plan.
QString pools_table_html(const ExplorerController& controller, const views::PoolChartWidget& chart) {
  const Plan& plan = controller.plan();
  const std::vector<qint64> tvm = controller.reference_pool_bytes();
  const bool compare_tvm = controller.has_reference() && plan.algorithm != "as-built";
  // A saving is claimed only for a plan that fits (the status bar's and the charts' rule).
  const bool fits = plan_fits(controller.problem(), plan);
  QString html;
  html += QStringLiteral(
      "<table border=1 cellspacing=0 cellpadding=4><tr><th>pool</th><th>used</th><th>size "
      "hint</th><th>lower bound</th><th>gap</th>");
  if (compare_tvm)
    html += QStringLiteral("<th>%1's plan</th><th>difference</th>").arg(controller.reference_name().toHtmlEscaped());
  html += QStringLiteral("</tr>");
  for (size_t p = 0; p < chart.data().pools.size(); ++p) {
    const views::PoolChartData& pool = chart.data().pools[p];
    html += QStringLiteral("<tr><td>%1</td><td align=right>%2</td><td align=right>%3</td><td align=right>%4</td>")
                .arg(pool.name.toHtmlEscaped(), qs(format_size_exact(pool.size_bytes)),
                     pool.size_hint_bytes >= 0 ? qs(format_size_exact(pool.size_hint_bytes)) : QObject::tr("unlimited"),
                     qs(format_size_exact(pool.lower_bound_bytes)));
    html += QStringLiteral("<td align=right>%1</td>").arg(gap_text(pool.size_bytes, pool.lower_bound_bytes));
    if (compare_tvm) {
      const qint64 ref = p < tvm.size() ? tvm[p] : -1;
      html += ref >= 0 ? QStringLiteral("<td align=right>%1</td><td align=right>%2</td>")
                             .arg(qs(format_size_exact(ref)),
                                  fits ? qs(format_size_delta(pool.size_bytes - ref)) : QStringLiteral("-"))
                       : QStringLiteral("<td>-</td><td>-</td>");
    }
    html += QStringLiteral("</tr>");
  }
  html +=
      QStringLiteral("<tr><th>total</th><th align=right>%1</th><th></th><th align=right>%2</th><th align=right>%3</th>")
          .arg(qs(format_size_exact(plan.total_size())), qs(format_size_exact(plan.lower_bound_bytes)),
               gap_text(plan.total_size(), plan.lower_bound_bytes));
  if (compare_tvm) {
    html += QStringLiteral("<th align=right>%1</th><th align=right>%2</th>")
                .arg(qs(format_size_exact(controller.reference().total_size())),
                     fits ? qs(format_size_delta(plan.total_size() - controller.reference().total_size()))
                          : QObject::tr("none: does not fit"));
  }
  html += QStringLiteral("</tr></table>");
  return html;
}

}  // namespace

QString report_summary_html(const ExplorerController& controller, const views::PoolChartWidget& chart) {
  const Plan& plan = controller.plan();
  const Problem& problem = controller.problem();
  QString html =
      QStringLiteral(
          "<h1>Memory plan review</h1><p><b>%1</b><br>%2 buffers in %3, planned with "
          "<b>%4</b>.</p>")
          .arg(QFileInfo(controller.input_path()).fileName().toHtmlEscaped())
          .arg(problem.buffers.size())
          .arg(problem.pools.size() == 1 ? QObject::tr("1 pool") : QObject::tr("%1 pools").arg(problem.pools.size()))
          .arg(qs(plan.algorithm).toHtmlEscaped());
  html += runtime_memory_html(controller);
  html += pools_table_html(controller, chart);
  html += QObject::tr(
      "<p>A lower bound is what no valid plan of these buffers in these pools can go below (as <code>usmpx "
      "plan</code> reports it); the gap is how far this plan is above it. A pool's bound counts the buffers that "
      "can go into no other pool; the total's is at least the sum of the pools'.</p>");
  if (!controller.reference_fidelity().isEmpty())
    html += QObject::tr("<p>%1's plan as read from the model; fidelity check: %2.</p>")
                .arg(controller.reference_name().toHtmlEscaped(), controller.reference_fidelity().toHtmlEscaped());
  if (!plan_fits(problem, plan)) html += QObject::tr("<p><b>The plan does not fit its pools' size hints.</b></p>");
  // The charts on the next pages carry no legend of their own.
  // A firmware file's models: their spans on the time axis, each in the hue its boxes have.
  const std::vector<views::ModelBand>& models = chart.data().models;
  if (!models.empty()) {
    html += QObject::tr("<p><b>Models</b>, one after the other on the time axis:");
    for (const views::ModelBand& model : models) {
      html += QObject::tr("<br>%1: ticks %2–%3")
                  .arg(model.name.toHtmlEscaped())
                  .arg(static_cast<qint64>(model.x0))
                  .arg(static_cast<qint64>(model.x1) - 1);
    }
    html += QStringLiteral("</p>");
  }
  html += sharing_summary_html(controller);
  html += QObject::tr("<p><b>Colour key</b><br>%1</p>")
              .arg(views::chart_legend_html(controller.reference_name(), false, true, models));
  return html;
}

QStringList write_review_report(const ExplorerController& controller, views::PoolChartWidget& chart,
                                const QString& folder, QString* error) {
  QDir dir(folder);
  if (!dir.exists() && !dir.mkpath(QStringLiteral("."))) {
    if (error) *error = QObject::tr("cannot create %1").arg(folder);
    return {};
  }
  const int height = std::max(400, 260 * chart.pool_count());
  // The whole plan, never the window's zoom or selection.
  const std::unique_ptr<views::PoolChartWidget> whole = report_chart(chart, QSize(kImageWidth, height));
  QCustomPlot* plot = whole->plot();
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
                     [&](const QString& p) { return write_pdf(controller, chart, p); })) {
    return fail(QStringLiteral("charts.pdf"));
  }
  written << QStringLiteral("charts.pdf");
  const bool svg_ok = save_via_temp(dir.filePath(QStringLiteral("charts.svg")),
                                    [&](const QString& p) { return write_svg(*plot, p, QSize(kImageWidth, height)); });
  if (!svg_ok) return fail(QStringLiteral("charts.svg"));
  written << QStringLiteral("charts.svg");

  ReportContent content;
  content.title = "Memory plan review: " + QFileInfo(controller.input_path()).fileName().toStdString();
  content.input = controller.input_path().toStdString();
  content.problem = controller.problem();
  // A pool that names no section goes where the export puts it (the export dialog's table says the same).
  for (const ExportedPool& e : controller.exported_pools()) {
    for (Pool& pool : content.problem.pools)
      if (pool.name == e.name && pool.section.empty()) pool.section = e.section;
  }
  content.chosen = controller.plan();
  // One state of the model: a comparison made before the last edit is left out, with the reason.
  if (controller.comparison_current()) {
    content.compared = controller.comparison();
  } else if (!controller.comparison().empty()) {
    content.compared_note = QObject::tr(
                                "Left out: the last comparison (Plan ▸ Compare Algorithms) was made before "
                                "the pools, pins or time limit were edited, so its plans describe another "
                                "model. Run Compare again, then export the report, to include it.")
                                .toStdString();
  }
  content.images = {"charts.svg"};
  content.warnings = controller.input().warnings;
  content.reference_name = controller.reference_name().toStdString();
  content.runtime_memory = controller.runtime_memory_text().toStdString();
  if (controller.input().details) {
    content.models = controller.input().details->models();
    content.sharing = controller.input().details->sharing(controller.problem(), controller.plan());
  }
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
