// The review report (Export Report): its charts show the whole plan, it describes one state of the
// model, and it claims no saving for a plan that does not fit.
#include <QAction>
#include <QDirIterator>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMainWindow>
#include <QMenu>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTableWidget>
#include <QTextDocument>
#include <QToolTip>
#include <QWheelEvent>
#include <QtTest>

#include "base/size_text.h"
#include "base/text_file.h"
#include "chart/byte_ticker.h"
#include "chart/pool_chart_widget.h"
#include "chart/qcustomplot_include.h"
#include "checks/as_built_check.h"
#include "compare_dialog.h"
#include "explorer_controller.h"
#include "explorer_test_support.h"
#include "explorer_window_fixture.h"
#include "export_dialog.h"
#include "frontends/problem_files/problem_json.h"
#include "inputs/input_file.h"
#include "main_window.h"
#include "model/problem_json_writer.h"
#include "model_problems.h"
#include "panels/pool_editor_widget.h"
#include "planners/exact/clique_pool.h"
#include "planners/exact/lower_bound.h"
#include "planners/registry.h"
#include "report_writer.h"
#include "session/session_file.h"
#include "tables/buffer_table_model.h"
#include "tables/diagnostics_model.h"
#include "test_support.h"
#include "window_fit.h"

using namespace usmpx;
using namespace explorer_test;

class TestExplorerReport : public ExplorerTestFixture {
  Q_OBJECT

 private slots:
  void initTestCase() { start_test_case("report"); }

  void init() { start_test(); }

  void cleanup() { window_.reset(); }

  void report_charts_show_the_whole_plan() {
    open(large_path());
    find_exactly(QStringLiteral("sid_1"));  // the window is zoomed in on one selected buffer
    const QCPRange zoomed = window_->chart()->plot()->axisRects().at(0)->axis(QCPAxis::atBottom)->range();
    QVERIFY(zoomed.size() < controller()->problem().buffers.size() / 2.0);
    std::unique_ptr<views::PoolChartWidget> chart = app::report_chart(*window_->chart(), QSize(1600, 900));
    verify_whole_plan_ranges(*chart);
    QVERIFY(chart->data().pools.size() == 3);

    const QString folder = QStringLiteral(USMPX_ARTEFACTS_DIR "/report_report");
    QDir(folder).removeRecursively();
    QString error;
    const QStringList files = app::write_review_report(*controller(), *window_->chart(), folder, &error);
    QVERIFY2(files.contains(QStringLiteral("charts.pdf")), qPrintable(error));
    // The window's zoom is untouched by the report.
    QCOMPARE(window_->chart()->plot()->axisRects().at(0)->axis(QCPAxis::atBottom)->range().upper, zoomed.upper);
    // The PDF: a summary page, all pools, then one page per pool (three pools: five pages).
    QFile pdf(QDir(folder).filePath(QStringLiteral("charts.pdf")));
    QVERIFY(pdf.open(QIODevice::ReadOnly));
    const QByteArray bytes = pdf.readAll();
    QCOMPARE(bytes.count("/Type /Page\n") + bytes.count("/Type /Page\r") + bytes.count("/Type /Page "), 5);
    // The summary names the model, the pools, the totals and the bounds.
    const QString summary = app::report_summary_html(*controller(), *window_->chart());
    QVERIFY(summary.contains(QStringLiteral("usmpx_report_large.json")));
    for (const char* pool : {"dtcm", "sram", "flash"})
      QVERIFY(summary.contains(QStringLiteral("<td>%1</td>").arg(QLatin1String(pool))));
    QVERIFY(summary.contains(qs(format_size_exact(controller()->plan().total_size()))));
    // The total's lower bound is the plan's, as in the status bar.
    QVERIFY(summary.contains(
        QStringLiteral("<th align=right>%1</th>").arg(qs(format_size_exact(controller()->plan().lower_bound_bytes)))));
    QVERIFY(window_->status_totals()->text().contains(
        QStringLiteral("lower bound %1").arg(views::format_byte_count(controller()->plan().lower_bound_bytes))));
  }

  // Item 1: Compare, apply best, then an edit: the report leaves the old comparison out and says
  // why; compared again, the table is back and TVM's plan is "not comparable" in it.
  void the_report_describes_one_state_of_the_model() {
    open(qs(testing::fixture_path("mlf/usmp_default_pools")));
    compare({QStringLiteral("as-built"), QStringLiteral("greedy_by_size"), QStringLiteral("best")});
    use_algorithm("best");  // Apply best
    QVERIFY(controller()->comparison_current());
    QString html = report(QStringLiteral("report_report_current"));
    QVERIFY2(html.contains(QStringLiteral("<th>not ranked because</th>")), qPrintable(html));
    QVERIFY(html.contains(QStringLiteral("(chosen)")));
    pin_first_buffer();
    QVERIFY(!controller()->comparison_current());
    html = report(QStringLiteral("report_report_after_edit"));
    QVERIFY2(!html.contains(QStringLiteral("<th>not ranked because</th>")), qPrintable(html));
    QVERIFY(!html.contains(QStringLiteral("(chosen)")));
    QVERIFY2(html.contains(QStringLiteral("Left out: the last comparison (Plan ▸ Compare Algorithms) was made before "
                                          "the pools, pins or time limit were edited")),
             qPrintable(html));
    compare({QStringLiteral("as-built"), QStringLiteral("best")});
    html = report(QStringLiteral("report_report_compared_again"));
    QVERIFY(html.contains(QStringLiteral("<th>not ranked because</th>")));
    QVERIFY(html.contains(QStringLiteral("not comparable: ")));
    QVERIFY(!html.contains(QStringLiteral("Left out:")));
  }

  // Item 2: with a hint no plan meets, no output claims a saving against TVM's plan.
  void no_saving_is_claimed_for_a_plan_that_does_not_fit() {
    open(qs(testing::fixture_path("mlf/usmp_default_pools")));
    const int workspace = *controller()->problem().find_pool("global_workspace");
    const int64_t bound = pool_lower_bounds(controller()->problem())[static_cast<size_t>(workspace)];
    SessionEdits next = controller()->edits();
    next.algorithm = "best";
    next.pools[static_cast<size_t>(workspace)].pool.size_hint_bytes = bound / 2;
    QVERIFY(controller()->apply_edit(QStringLiteral("hint"), next));
    controller()->wait_idle();
    QVERIFY(!plan_fits(controller()->problem(), controller()->plan()));
    QVERIFY(controller()->has_reference());
    const QString status = window_->status_totals()->text();
    QVERIFY2(!status.contains(QStringLiteral(" vs TVM")), qPrintable(status));
    QVERIFY2(!window_->chart()->pool_title(workspace).contains(QStringLiteral(" vs TVM")),
             qPrintable(window_->chart()->pool_title(workspace)));
    const QString html = report(QStringLiteral("report_report_not_fitting"));
    QVERIFY2(!html.contains(QStringLiteral("vs TVM's plan</b>")), qPrintable(html));
    QVERIFY(html.contains(QStringLiteral("No saving is claimed against TVM's plan")));
    QVERIFY(html.contains(QStringLiteral("none: does not fit")));
    const QString pdf = app::report_summary_html(*controller(), *window_->chart());
    QVERIFY2(pdf.contains(QStringLiteral("none: does not fit")), qPrintable(pdf));
    const int64_t delta = controller()->plan().total_size() - controller()->reference().total_size();
    QVERIFY(!pdf.contains(qs(format_size_delta(delta))));
    QVERIFY(!html.contains(qs(format_size_delta(delta)).toHtmlEscaped()));
  }
};

QTEST_MAIN(TestExplorerReport)
#include "tst_explorer_report.moc"
