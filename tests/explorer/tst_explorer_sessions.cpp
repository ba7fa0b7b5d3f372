// Sessions as a user meets them: each input opened starts clean (no filter, selection or zoom left),
// Save after crash recovery writes the user's session file, column widths are kept per session, and
// edits keep the zoom.
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
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTableWidget>
#include <QTextBrowser>
#include <QToolTip>
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
#include "test_support.h"
#include "window_fit.h"

using namespace usmpx;
using namespace explorer_test;

class TestExplorerSessions : public ExplorerTestFixture {
  Q_OBJECT

 private slots:
  void initTestCase() { start_test_case("sessions"); }

  void init() { start_test(); }

  void cleanup() { window_.reset(); }

  void opening_another_input_starts_clean() {
    open(large_path());
    // Zoomed in on one buffer through the filter, with it selected.
    find_exactly(QStringLiteral("sid_1"));
    QCOMPARE(window_->buffer_table()->model()->rowCount(), 1);
    QCOMPARE(window_->selected_buffers().size(), size_t{1});
    const QCPRange zoomed = window_->chart()->plot()->axisRects().at(0)->axis(QCPAxis::atBottom)->range();
    QVERIFY(zoomed.size() < controller()->problem().buffers.size() / 2.0);

    open(small_path());
    QCOMPARE(controller()->problem().buffers.size(), size_t{80});
    // The table shows every buffer of the new input; no filter, no selection is left.
    QCOMPARE(window_->filter_box()->text(), QString());
    QCOMPARE(window_->buffer_table()->model()->rowCount(), 80);
    QVERIFY(window_->selected_buffers().empty());
    QVERIFY(!window_->chart()->showing_reference());
    // The charts span the new, smaller model: its 40 ticks and its pools' sizes.
    QCOMPARE(window_->chart()->data().tick_end, 40.0);
    const int flash = pool_row("flash");
    QCOMPARE(window_->chart()->data().pools[static_cast<size_t>(flash)].size_bytes, 10 * (52 * 1024 / 10 / 16 * 16));
    verify_whole_plan_ranges(*window_->chart());
    // No planning left running, and its progress gone.
    QVERIFY(!controller()->planning());
    save_artefact(window_.get(), QStringLiteral("sessions_second_model.png"));
  }

  void save_after_recovery_writes_the_users_session_file() {
    open(qs(testing::fixture_path("mlf/usmp_default_pools")));
    const QString user_file = QDir::temp().filePath(QStringLiteral("usmpx_sessions_user.usmpx.json"));
    QFile::remove(user_file);
    QString error;
    QVERIFY2(controller()->save_session(user_file, &error), qPrintable(error));
    const QString saved_before = qs(read_text_file(user_file.toStdString()));
    // An edit, autosaved after a moment; then the window goes without closing (a crash).
    type_into_pool_cell(pool_row("global_workspace"), kPoolHintColumn, QStringLiteral("300"));
    controller()->wait_idle();
    const QString autosave = app::ExplorerController::autosave_path();
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(autosave), 5000);
    window_.reset();
    QVERIFY(QFile::exists(autosave));

    make_window(1600, 1000, true);
    QVERIFY(window_->restore_autosave());
    controller()->wait_idle();
    QCOMPARE(controller()->problem().pools[static_cast<size_t>(pool_row("global_workspace"))].size_hint_bytes, 300);
    QCOMPARE(controller()->session_path(), QFileInfo(user_file).absoluteFilePath());
    QVERIFY(controller()->modified());
    QVERIFY(window_->isWindowModified());
    // Ctrl+S writes the user's file, with the recovered edit, and the autosave goes.
    QTest::keySequence(window_.get(), QKeySequence::Save);
    const std::string written = read_text_file(user_file.toStdString());
    QVERIFY(qs(written) != saved_before);
    const SessionFile session = read_session_json(written, user_file.toStdString());
    bool found = false;
    for (const PoolSetting& pool : session.edits.pools)
      found = found || (pool.pool.name == "global_workspace" && pool.pool.size_hint_bytes == 300);
    QVERIFY(found);
    QVERIFY(!QFile::exists(autosave));
    QVERIFY(!controller()->modified());

    // Recovered work that was never saved has no session file: Save asks where (Save As).
    type_into_pool_cell(pool_row("global_workspace"), kPoolHintColumn, QStringLiteral("400"));
    controller()->wait_idle();
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(autosave), 5000);
    QFile::remove(app::ExplorerController::autosave_origin_path());
    window_.reset();
    make_window(1600, 1000, true);
    QVERIFY(window_->restore_autosave());
    controller()->wait_idle();
    QVERIFY(controller()->session_path().isEmpty());
    QVERIFY(controller()->modified());
    QFile::remove(user_file);
  }

  // Column widths are the user's: a column dragged wider keeps its width in the saved session, and
  // reopening the session restores it; a plain input opens with columns sized to content.
  void column_widths_are_kept_per_session() {
    open(qs(testing::fixture_path("mlf/usmp_default_pools")));
    QTableView* table = window_->buffer_table();
    QHeaderView* header = table->horizontalHeader();
    const int column = views::BufferTableModel::kPool;
    const int fitted = header->sectionSize(column);
    // Drag the column's right edge 90 px to the right, as a user does.
    const int edge = header->sectionViewportPosition(column) + header->sectionSize(column) - 1;
    const QPoint from(edge, header->height() / 2);
    QTest::mousePress(header->viewport(), Qt::LeftButton, {}, from);
    for (int dx = 10; dx <= 90; dx += 10) {
      QMouseEvent move(QEvent::MouseMove, QPointF(from + QPoint(dx, 0)),
                       header->viewport()->mapToGlobal(QPointF(from + QPoint(dx, 0))), Qt::LeftButton, Qt::LeftButton,
                       Qt::NoModifier);
      QApplication::sendEvent(header->viewport(), &move);
    }
    QTest::mouseRelease(header->viewport(), Qt::LeftButton, {}, from + QPoint(90, 0));
    const int dragged = header->sectionSize(column);
    QCOMPARE(dragged, fitted + 90);
    const QString file = QDir::temp().filePath(QStringLiteral("usmpx_sessions_columns.usmpx.json"));
    QFile::remove(file);
    QString error;
    QVERIFY2(controller()->save_session(file, &error), qPrintable(error));
    const SessionFile saved = read_session_json(read_text_file(file.toStdString()), file.toStdString());
    QCOMPARE(saved.view.column_widths.size(), size_t{1});
    QCOMPARE(saved.view.column_widths[0], (std::pair<std::string, int>{"Pool", dragged}));

    open(small_path());  // another input: sized to its content again
    QVERIFY(window_->buffer_table()->horizontalHeader()->sectionSize(column) != dragged);
    QVERIFY(window_->open_path(file));
    controller()->wait_idle();
    QCOMPARE(window_->buffer_table()->horizontalHeader()->sectionSize(column), dragged);
    QFile::remove(file);
  }

  // An edit keeps the zoom a selection set; the Pools selection starts afresh with each model.
  void edits_keep_the_zoom_and_models_start_clean() {
    open(qs(testing::source_path("resources/examples/kws_dscnn.tvmscript.py")));
    const Problem& problem = controller()->problem();
    const Plan& plan = controller()->plan();
    // The smallest buffer well below its pool's top: zoomed in on, the pool's top is out of view.
    int chosen = -1;
    for (size_t b = 0; b < problem.buffers.size(); ++b) {
      const Allocation& a = plan.allocations[b];
      const int64_t size = problem.buffers[b].size_bytes;
      if (!a.placed() || a.offset + 20 * size >= plan.pool_sizes[static_cast<size_t>(a.pool)]) continue;
      if (chosen < 0 || size < problem.buffers[static_cast<size_t>(chosen)].size_bytes) chosen = int(b);
    }
    QVERIFY(chosen >= 0);
    window_->select_buffers({chosen}, true);  // zooms in on it
    const int pool = controller()->plan().allocations[static_cast<size_t>(chosen)].pool;
    QCPAxis* y = window_->chart()->plot()->axisRects().at(pool)->axis(QCPAxis::atLeft);
    const QCPRange zoomed = y->range();
    QVERIFY(zoomed.upper < static_cast<double>(controller()->plan().pool_sizes[static_cast<size_t>(pool)]));
    // Pin it where it is: an edit, re-planned.
    SessionEdits next = controller()->edits();
    next.pins.push_back({problem.buffers[static_cast<size_t>(chosen)].name,
                         problem.pools[static_cast<size_t>(pool)].name,
                         controller()->plan().allocations[static_cast<size_t>(chosen)].offset});
    QVERIFY(controller()->apply_edit(QStringLiteral("pin"), next));
    controller()->wait_idle();
    QCOMPARE(y->range().lower, zoomed.lower);
    QCOMPARE(y->range().upper, zoomed.upper);
    // Pools: a selected row does not carry over to the next model.
    QTableWidget* pools = window_->pool_editor()->table();
    pools->selectRow(0);
    QCOMPARE(pools->selectionModel()->selectedRows().size(), 1);
    open(qs(testing::fixture_path("mlf/usmp_default_pools")));
    QCOMPARE(pools->selectionModel()->selectedRows().size(), 0);
    QCOMPARE(pools->currentRow(), -1);
  }
};

QTEST_MAIN(TestExplorerSessions)
#include "tst_explorer_sessions.moc"
