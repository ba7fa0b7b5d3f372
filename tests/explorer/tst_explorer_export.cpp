// Export Sources in the explorer: offered only when it can succeed (with the reason in its tooltip
// and dialog otherwise); a .tflite and a .pte are measured against their runtime's own plan and
// export the plan into a copy that reads back with the same offsets.
#include <QAction>
#include <QDirIterator>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTableWidget>
#include <QToolTip>
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
#include "model_problems.h"
#include "panels/pool_editor_widget.h"
#include "planners/exact/clique_pool.h"
#include "planners/exact/lower_bound.h"
#include "report_writer.h"
#include "session/session_file.h"
#include "tables/buffer_table_model.h"
#include "test_support.h"

using namespace usmpx;
using namespace explorer_test;

class TestExplorerExport : public ExplorerTestFixture {
  Q_OBJECT

 private slots:
  void initTestCase() { start_test_case("export"); }

  void init() { start_test(); }

  void cleanup() { window_.reset(); }

  void export_is_offered_only_when_it_can_succeed() {
    // A problem file carries no code.
    open(small_path());
    QAction* action = window_->export_action();
    QVERIFY(!action->isEnabled());
    QVERIFY2(action->toolTip().contains(QStringLiteral("Sources are exported for Model Library Format inputs")),
             qPrintable(action->toolTip()));
    // TVM's model with its code: offered. Its plan is shown with the fidelity check.
    open(qs(testing::fixture_path("mlf/usmp_default_pools")));
    const AsBuiltMatch match = match_as_built(controller()->input().problem, *controller()->input().as_built);
    const QString fidelity =
        QStringLiteral("%1 reproduces %2 of %3 offsets").arg(qs(match.algorithm)).arg(match.matching).arg(match.total);
    QCOMPARE(controller()->reference_fidelity(), fidelity);
    QVERIFY2(window_->status_totals()->text().contains(fidelity), qPrintable(window_->status_totals()->text()));
    QVERIFY(action->isEnabled());
    QCOMPARE(action->toolTip(), QStringLiteral("Write firmware sources for the current plan"));
    {
      app::ExportDialog dialog(*controller(), window_.get());
      QVERIFY(!dialog.note()->text().contains(QStringLiteral("Cannot export")));
    }
    // A plan that does not fit: not offered, and the tooltip and the dialog say why.
    type_into_pool_cell(pool_row("global_workspace"), kPoolHintColumn, QStringLiteral("64"));
    controller()->wait_idle();
    QVERIFY(!plan_fits(controller()->problem(), controller()->plan()));
    QVERIFY(!action->isEnabled());
    QCOMPARE(action->toolTip(), QStringLiteral("The plan does not fit or is invalid; see the diagnostics."));
    {
      app::ExportDialog dialog(*controller(), window_.get());
      QVERIFY2(dialog.note()->text().contains(QStringLiteral("The plan does not fit")),
               qPrintable(dialog.note()->text()));
    }
    // Undo: offered again; exporting ends with a status saying where it went.
    QTest::keySequence(window_.get(), QKeySequence::Undo);
    controller()->wait_idle();
    QVERIFY(action->isEnabled());
    const QString target = QDir::temp().filePath(QStringLiteral("usmpx_export_export"));
    QDir(target).removeRecursively();
    window_->start_export(target, false);
    controller()->wait_idle();
    QVERIFY2(says_written(*window_, target), qPrintable(window_->statusBar()->currentMessage()));
    // Again into the same, now non-empty folder: refused, and the status says so.
    window_->start_export(target, false);
    controller()->wait_idle();
    QVERIFY2(window_->statusBar()->currentMessage().startsWith(QStringLiteral("Sources not exported: ")),
             qPrintable(window_->statusBar()->currentMessage()));
    QDir(target).removeRecursively();

    // The same model with its default_lib0.c missing opens (its plan is known from the other
    // files): TVM's plan exports (the operators' lets only; the pools stay in the firmware's
    // lib0.c), but a plan that moves a constant does not (its data is in that lib0.c): Export is
    // then not offered, and says why.
    const QString copy = QDir::temp().filePath(QStringLiteral("usmpx_export_no_lib0"));
    QDir(copy).removeRecursively();
    QVERIFY(QDir().mkpath(copy));
    const QString fixture = qs(testing::fixture_path("mlf/usmp_default_pools"));
    QDirIterator files(fixture, QDir::Files, QDirIterator::Subdirectories);
    while (files.hasNext()) {
      const QString file = files.next();
      if (file.endsWith(QStringLiteral("default_lib0.c"))) continue;
      const QString to = copy + file.mid(fixture.size());
      QVERIFY(QDir().mkpath(QFileInfo(to).absolutePath()));
      QVERIFY(QFile::copy(file, to));
    }
    open(copy);
    QCOMPARE(controller()->plan().algorithm, std::string("as-built"));
    QVERIFY(action->isEnabled());
    SessionEdits moved = controller()->edits();
    moved.pins.push_back(PinSpec{"fused_constant", "global_const_workspace", 512});
    QVERIFY(controller()->apply_edit(QStringLiteral("pin"), moved));
    controller()->wait_idle();
    QVERIFY(!action->isEnabled());
    QCOMPARE(action->toolTip(),
             QStringLiteral("The export would fail: the plan moves constant 'fused_constant' to offset 512 of pool "
                            "'global_const_workspace', but its data is in default_lib0.c, which the input does not "
                            "hold: pin the constants where TVM put them (as-built offsets) or give the whole "
                            "codegen/host/src TVM wrote"));
    {
      app::ExportDialog dialog(*controller(), window_.get());
      QVERIFY2(dialog.note()->text().contains(QStringLiteral("the plan moves constant")),
               qPrintable(dialog.note()->text()));
    }
    QDir(copy).removeRecursively();
  }

  void a_tflite_model_is_measured_against_tflm_and_exports_its_plan_into_a_copy() {
    open(qs(testing::source_path("resources/examples/tiny_classifier.tflite")));
    QCOMPARE(controller()->reference_name(), QStringLiteral("TFLM"));
    QVERIFY(controller()->has_reference());
    // TFLM's own plan of the arena is the reference: 256 bytes, as tflm_greedy gives it.
    QCOMPARE(controller()->reference_pool_bytes(), std::vector<qint64>{256});
    QVERIFY2(window_->status_totals()->text().contains(QStringLiteral("vs TFLM")),
             qPrintable(window_->status_totals()->text()));
    QVERIFY(window_->export_action()->isEnabled());
    {
      app::ExportDialog dialog(*controller(), window_.get());
      QVERIFY2(dialog.note()->text().contains(QStringLiteral("OfflineMemoryAllocation")),
               qPrintable(dialog.note()->text()));
      QVERIFY(dialog.target().endsWith(QStringLiteral("tiny_classifier_planned.tflite")));
      dialog.show();
      save_artefact(&dialog, QStringLiteral("export_tflite_export_dialog.png"));
    }
    const QString target = QDir::temp().filePath(QStringLiteral("usmpx_export_planned.tflite"));
    QFile::remove(target);
    window_->start_export(target, false);
    controller()->wait_idle();
    QVERIFY2(says_written(*window_, target), qPrintable(window_->statusBar()->currentMessage()));
    // The copy carries the explorer's plan: read back as-built, every offset is the same.
    const LoadedInput copy = load_input(target.toStdString());
    QVERIFY(copy.as_built.has_value());
    const Plan& shown = controller()->plan();
    QCOMPARE(copy.as_built->allocations.size(), shown.allocations.size());
    for (size_t b = 0; b < shown.allocations.size(); ++b)
      QCOMPARE(copy.as_built->allocations[b].offset, shown.allocations[b].offset);
    QFile::remove(target);
  }

  void an_executorch_program_is_measured_against_its_own_plan_and_exports_a_copy() {
    open(qs(testing::source_path("resources/examples/six_step_chain.pte")));
    QCOMPARE(controller()->reference_name(), QStringLiteral("ExecuTorch"));
    QCOMPARE(controller()->plan().algorithm, std::string("as-built"));
    QCOMPARE(controller()->reference_pool_bytes(), std::vector<qint64>{864});
    const QString status = window_->status_totals()->text();
    QVERIFY2(status.contains(QStringLiteral("et_greedy reproduces all 7 offsets")), qPrintable(status));
    QVERIFY2(status.contains(QStringLiteral("forward: 864 B planned + 536 B allocator (Cortex-M)")),
             qPrintable(status));
    QVERIFY(window_->export_action()->isEnabled());
    {
      app::ExportDialog dialog(*controller(), window_.get());
      QVERIFY2(dialog.note()->text().contains(QStringLiteral("planned buffer sizes")),
               qPrintable(dialog.note()->text()));
      QVERIFY(dialog.target().endsWith(QStringLiteral("six_step_chain_planned.pte")));
    }
    const QString target = QDir::temp().filePath(QStringLiteral("usmpx_export_planned.pte"));
    QFile::remove(target);
    window_->start_export(target, false);
    controller()->wait_idle();
    QVERIFY2(says_written(*window_, target), qPrintable(window_->statusBar()->currentMessage()));
    const LoadedInput copy = load_input(target.toStdString());
    QVERIFY(copy.as_built.has_value());
    QCOMPARE(copy.as_built->allocations, controller()->plan().allocations);
    QFile::remove(target);
  }
};

QTEST_MAIN(TestExplorerExport)
#include "tst_explorer_export.moc"
