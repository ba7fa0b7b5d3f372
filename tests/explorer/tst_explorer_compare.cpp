// The Compare dialog: progress and Cancel, only plans that fit ranked, every row shown.
#include <QAction>
#include <QDialogButtonBox>
#include <QDirIterator>
#include <QDockWidget>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QListWidget>
#include <QMainWindow>
#include <QMenu>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTextDocument>
#include <QToolTip>
#include <QWheelEvent>
#include <QtTest>

#include "base/config_error.h"
#include "base/size_text.h"
#include "base/text_file.h"
#include "chart/byte_ticker.h"
#include "chart/chart_data.h"
#include "chart/pool_chart_widget.h"
#include "chart/qcustomplot_include.h"
#include "checks/as_built_check.h"
#include "checks/plan_summary.h"
#include "checks/shared_addresses.h"
#include "compare_dialog.h"
#include "config/pool_options.h"
#include "explorer_controller.h"
#include "explorer_test_support.h"
#include "explorer_window_fixture.h"
#include "export_dialog.h"
#include "frontends/problem_files/problem_json.h"
#include "inputs/input_file.h"
#include "main_window.h"
#include "model/conflict_graph.h"
#include "model/problem_json_writer.h"
#include "model_problems.h"
#include "panels/inspector_widget.h"
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

class TestExplorerCompare : public ExplorerTestFixture {
  Q_OBJECT

 private slots:
  void initTestCase() { start_test_case("compare"); }

  void init() { start_test(); }

  void cleanup() { window_.reset(); }

  void compare_reports_progress_and_cancels() {
    open(large_path());
    use_time_limit(QStringLiteral("2"));
    app::CompareDialog dialog(controller(), window_.get());
    dialog.resize(1300, 800);
    dialog.show();
    QSignalSpy progress(controller(), &app::ExplorerController::comparison_progress);
    QSignalSpy ready(controller(), &app::ExplorerController::comparison_ready);
    QTest::mouseClick(dialog.run_button(), Qt::LeftButton);
    QCOMPARE(dialog.run_button()->text(), QStringLiteral("Cancel"));
    // Each algorithm is named as it starts; the searching ones take their time limit.
    // Cancelled (with the mouse) as soon as the third algorithm is announced.
    QString announced;
    const QMetaObject::Connection watch =
        connect(controller(), &app::ExplorerController::comparison_progress, this, [&](int done, int, const QString&) {
          if (done != 2 || !announced.isEmpty()) return;
          announced = dialog.progress()->text();
          QTest::mouseClick(dialog.run_button(), Qt::LeftButton);
        });
    QVERIFY(ready.wait(60000));
    disconnect(watch);
    QCOMPARE(announced, QStringLiteral("Running hill_climb (3 of 12)…"));
    QVERIFY(progress.count() >= 3);
    QCOMPARE(dialog.run_button()->text(), QStringLiteral("Run"));
    // Those that ended before the cancel reached the planning thread are listed; the rest are not.
    const int ran = dialog.table()->rowCount();
    QVERIFY2(ran >= 2 && ran < 12, qPrintable(QString::number(ran)));
    QCOMPARE(dialog.progress()->text(), QStringLiteral("Cancelled: %1 of 12 algorithms ran").arg(ran));
    // Every row visible without scrolling.
    int rows = 0;
    for (int r = 0; r < dialog.table()->rowCount(); ++r)
      rows += dialog.table()->rowHeight(r);
    QVERIFY(dialog.table()->viewport()->height() >= rows);
    save_artefact(&dialog, QStringLiteral("compare_compare_cancelled.png"));
  }

  // Compare ranks only plans that fit and are valid: the others are marked, never bold, have no
  // gap, say why and cannot be applied; TFLM's planner is not offered for a TVM model; the report
  // prints the dialog's words.
  void compare_ranks_only_plans_that_fit() {
    open(qs(testing::fixture_path("mlf/usmp_default_pools")));
    QVERIFY(!controller()->algorithms().contains(QStringLiteral("tflm_greedy")));
    QVERIFY(controller()->algorithms().contains(QStringLiteral("greedy_by_size")));
    const Problem unedited = controller()->problem();
    const int workspace = *unedited.find_pool("global_workspace");
    // The plans' sizes of the workspace pool, to choose a hint only some of them meet.
    std::vector<int64_t> sizes;
    for (const char* name : {"greedy_by_size", "greedy_by_conflicts", "hill_climb", "first_fit", "best_fit_area"})
      sizes.push_back(testing::plan_with(name, unedited).pool_sizes[static_cast<size_t>(workspace)]);
    const int64_t hint = *std::min_element(sizes.begin(), sizes.end());
    QVERIFY2(*std::max_element(sizes.begin(), sizes.end()) > hint, "the planners must differ on this fixture");
    // A hint, as a user tries a smaller part: TVM's plan is no longer comparable.
    SessionEdits next = controller()->edits();
    next.algorithm = "best";
    for (PoolSetting& p : next.pools) {
      if (p.pool.name == "global_workspace") p.pool.size_hint_bytes = hint;
    }
    QVERIFY(controller()->apply_edit(QStringLiteral("hint"), next));
    controller()->wait_idle();

    app::CompareDialog dialog(controller(), window_.get());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QListWidget* choices = dialog.findChild<QListWidget*>();
    QVERIFY(choices->findItems(QStringLiteral("tflm_greedy"), Qt::MatchExactly).isEmpty());
    QSignalSpy ready(controller(), &app::ExplorerController::comparison_ready);
    dialog.run();
    QVERIFY(ready.wait(60000));
    QTableWidget* table = dialog.table();
    const int columns = table->columnCount();
    const int gap_column = columns - 5, fits_column = columns - 3, reason_column = columns - 1;
    QCOMPARE(table->horizontalHeaderItem(gap_column)->text(), QStringLiteral("Gap"));
    QCOMPARE(table->horizontalHeaderItem(reason_column)->text(), QStringLiteral("Not ranked because"));
    QVERIFY(!table->isColumnHidden(reason_column));
    QPushButton* apply = button_named(&dialog, QStringLiteral("Apply Selected"));
    const std::vector<Plan>& plans = controller()->comparison();
    QCOMPARE(table->rowCount(), int(plans.size()));
    int ranked = 0, overflowing = 0, not_comparable = 0, bold = 0;
    QStringList reasons;
    for (int r = 0; r < table->rowCount(); ++r) {
      const Plan& plan = plans[static_cast<size_t>(r)];
      const QString name = table->item(r, 0)->text();
      QCOMPARE(name, qs(plan.algorithm));
      table->selectRow(r);
      const QString reason = table->item(r, reason_column)->text();
      reasons << reason;
      if (name == QStringLiteral("as-built")) {
        ++not_comparable;
        QVERIFY2(reason.startsWith(QStringLiteral("not comparable: ")), qPrintable(reason));
        QVERIFY(!apply->isEnabled());
        continue;
      }
      const bool fits = plan_fits(controller()->problem(), plan) && !plan.has_errors();
      bold += table->item(r, 0)->font().bold() ? 1 : 0;
      if (fits) {
        ++ranked;
        QVERIFY(!table->item(r, gap_column)->text().isEmpty());
        QVERIFY(reason.isEmpty());
        QVERIFY(apply->isEnabled());
      } else {
        ++overflowing;
        QVERIFY2(!table->item(r, 0)->font().bold(), qPrintable(name));
        QCOMPARE(table->item(r, gap_column)->text(), QString());
        QCOMPARE(table->item(r, fits_column)->text(), QStringLiteral("no"));
        QCOMPARE(reason,
                 QStringLiteral("does not fit: global_workspace needs %1 of %2")
                     .arg(qs(format_size(plan.pool_sizes[static_cast<size_t>(workspace)])), qs(format_size(hint))));
        QVERIFY(!apply->isEnabled());
      }
    }
    QVERIFY2(ranked >= 1 && overflowing >= 1 && not_comparable == 1,
             qPrintable(QStringLiteral("%1 ranked, %2 overflowing").arg(ranked).arg(overflowing)));
    QVERIFY(bold >= 1);
    save_artefact(&dialog, QStringLiteral("compare_compare_not_fitting_1600x1000.png"));
    // The report prints the same words, and no gap for the rows that are not ranked.
    const QString folder = QStringLiteral(USMPX_ARTEFACTS_DIR "/compare_report");
    QDir(folder).removeRecursively();
    QString error;
    QVERIFY(!app::write_review_report(*controller(), *window_->chart(), folder, &error).isEmpty());
    const QString html = QString::fromStdString(read_text_file(QDir(folder).filePath("report.html").toStdString()));
    QVERIFY(html.contains(QStringLiteral("<th>not ranked because</th>")));
    for (const QString& reason : reasons) {
      if (!reason.isEmpty()) QVERIFY2(html.contains(reason.toHtmlEscaped()), qPrintable(reason));
    }
    QVERIFY(!html.contains(QStringLiteral("-100.0%")));
  }

  // Item 7: Compare with 13 rows at 1600x1000: every row visible, no sideways scrolling, a cut
  // reason whole in its tooltip.
  void compare_shows_every_row() {
    window_.reset();
    app::set_available_area(QRect(0, 0, 1600, 1000));
    make_window(-1, -1);
    open(qs(testing::fixture_path("mlf/usmp_default_pools")));
    SessionEdits next = controller()->edits();
    next.algorithm = "best";
    for (PoolSetting& p : next.pools) {
      if (p.pool.name == "global_workspace") p.pool.size_hint_bytes = 128;
    }
    QVERIFY(controller()->apply_edit(QStringLiteral("hint"), next));
    controller()->wait_idle();
    app::CompareDialog dialog(controller(), window_.get());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QSignalSpy ready(controller(), &app::ExplorerController::comparison_ready);
    dialog.run();
    QVERIFY(ready.wait(60000));
    QTest::qWait(50);
    QTableWidget* table = dialog.table();
    QVERIFY2(table->rowCount() >= 13, qPrintable(QString::number(table->rowCount())));
    int rows = 0;
    for (int r = 0; r < table->rowCount(); ++r)
      rows += table->rowHeight(r);
    QVERIFY2(table->viewport()->height() >= rows,
             qPrintable(QStringLiteral("%1 px for %2 px of rows").arg(table->viewport()->height()).arg(rows)));
    QVERIFY(!table->horizontalScrollBar()->isVisible());
    QVERIFY(QRect(0, 0, 1600, 1000).contains(dialog.frameGeometry()));
    const int reason = table->columnCount() - 1;
    for (int r = 0; r < table->rowCount(); ++r) {
      QTableWidgetItem* item = table->item(r, reason);
      if (item && !item->text().isEmpty() && item->text() != QStringLiteral("—"))
        QCOMPARE(item->toolTip(), item->text());
    }
    save_artefact(&dialog, QStringLiteral("compare_compare_13_rows_1600x1000.png"));
    app::set_available_area(QRect());
  }
};

QTEST_MAIN(TestExplorerCompare)
#include "tst_explorer_compare.moc"
