// The explorer as a new user meets it, driven with mouse and keyboard: each input starts clean,
// Export Sources is offered only when it can succeed, Save after crash recovery writes the user's
// session file, an edit keeps the pools it did not change (and their proofs) with no unplaced rows
// between passes, and the report's charts show the whole plan.
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
#include "explorer_window_fixture.h"
#include "export_dialog.h"
#include "frontends/problem_files/problem_json.h"
#include "inputs/input_file.h"
#include "main_window.h"
#include "model_problems.h"
#include "panels/pool_editor_widget.h"
#include "planners/clique_pool.h"
#include "planners/lower_bound.h"
#include "report_writer.h"
#include "session/session_file.h"
#include "tables/buffer_table_model.h"
#include "test_support.h"

using namespace usmpx;

namespace {

// The status bar names the file written: whole where it fits, else with the path elided in the
// middle (its file name kept), whole in the status bar's tooltip.
bool says_written(QMainWindow& window, const QString& target) {
  const QString message = window.statusBar()->currentMessage();
  if (message.startsWith(QStringLiteral("Wrote ") + target)) return true;
  return message.startsWith(QStringLiteral("Wrote ")) && message.contains(QFileInfo(target).fileName()) &&
         window.statusBar()->toolTip().startsWith(QStringLiteral("Wrote ") + target);
}

constexpr int kPoolHintColumn = 2;

QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

std::vector<Allocation> allocations_in(const Plan& plan, int pool) {
  std::vector<Allocation> out;
  for (const Allocation& a : plan.allocations)
    out.push_back(a.pool == pool ? a : Allocation{});
  return out;
}

const Diagnostic* note_about(const Plan& plan, int pool) {
  for (const Diagnostic& d : plan.diagnostics) {
    if (d.code == "exact-search" && d.pool == pool) return &d;
  }
  return nullptr;
}

// The extents the charts show for the whole plan: every tick, and each pool up to the largest of
// its size, hint and bound (PoolChartWidget::reset_view adds 2 % and 8 % of margin).
void verify_whole_plan_ranges(views::PoolChartWidget& chart) {
  const views::ChartData& data = chart.data();
  const double span = std::max(1.0, data.tick_end - data.tick_first);
  QVERIFY(chart.pool_count() == static_cast<int>(data.pools.size()));
  QCustomPlot* plot = chart.plot();
  for (size_t p = 0; p < data.pools.size(); ++p) {
    // Axis rects alternate with title rows; the plot's axis rects are the pools' in order.
    QCPAxisRect* rect = plot->axisRects().at(static_cast<int>(p));
    const QCPRange x = rect->axis(QCPAxis::atBottom)->range();
    const QCPRange y = rect->axis(QCPAxis::atLeft)->range();
    QCOMPARE(x.lower, data.tick_first - 0.02 * span);
    QCOMPARE(x.upper, data.tick_end + 0.02 * span);
    const views::PoolChartData& pool = data.pools[p];
    const double top =
        std::max<double>({static_cast<double>(pool.size_bytes), static_cast<double>(pool.size_hint_bytes),
                          static_cast<double>(pool.lower_bound_bytes), 16.0});
    QCOMPARE(y.lower, 0.0);
    QCOMPARE(y.upper, top * 1.08);
  }
}

}  // namespace

class TestExplorerRound3 : public ExplorerWindowFixture {
  Q_OBJECT

 private:
  QString large_path_;  // 800 buffers, 4 MiB of constants
  QString small_path_;  // 80 buffers, 52 KiB of constants: the same pools, far smaller
  QString mixed_path_;  // 650 buffers, constants of unrounded sizes

  void use_best() {
    window_->algorithm_box()->setCurrentText(QStringLiteral("best"));
    controller()->wait_idle();
    QCOMPARE(controller()->plan().algorithm, std::string("best"));
  }

  void use_time_limit(const QString& seconds) {
    window_->time_limit_box()->clear();
    QTest::keyClicks(window_->time_limit_box(), seconds);
    QTest::keyClick(window_->time_limit_box(), Qt::Key_Return);
    controller()->wait_idle();
  }

  // Finds a buffer by its exact name through the filter box, as a user does (zooms to it).
  void find_exactly(const QString& name) {
    QLineEdit* filter = window_->filter_box();
    for (QAction* a : filter->actions()) {
      if (a->text() == QStringLiteral("Exact name") && !a->isChecked()) a->trigger();
    }
    filter->setFocus();
    QTest::keyClicks(filter, name);
  }

  int pool_row(const char* name) { return *controller()->problem().find_pool(name); }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("usmpx-round3-tests"));
    large_path_ = QDir::temp().filePath(QStringLiteral("usmpx_round3_large.json"));
    small_path_ = QDir::temp().filePath(QStringLiteral("usmpx_round3_small.json"));
    mixed_path_ = QDir::temp().filePath(QStringLiteral("usmpx_round3_mixed.json"));
    testing::write_model_shaped_problem(large_path_.toStdString(), 800, 4 * 1024 * 1024);
    testing::write_model_shaped_problem(small_path_.toStdString(), 80, 52 * 1024);
    // TVM's constants: 16-byte aligned, sizes in bytes (padding between them unless well ordered).
    Problem tvm_like = testing::model_shaped_mixed_alignment_problem(650, 4'670'000);
    for (Buffer& b : tvm_like.buffers) {
      if (b.kind == BufferKind::kConstant) b.alignment = 16;
    }
    write_file_atomically(mixed_path_.toStdString(), write_problem_json(tvm_like));
  }

  void cleanupTestCase() {
    QFile::remove(large_path_);
    QFile::remove(small_path_);
    QFile::remove(mixed_path_);
  }

  void init() {
    QSettings().clear();
    app::ExplorerController::autosave_path();  // creates the folder
    QFile::remove(app::ExplorerController::autosave_path());
    QFile::remove(app::ExplorerController::autosave_origin_path());
    make_window(1600, 1000, true);
  }

  void cleanup() { window_.reset(); }

  void opening_another_input_starts_clean() {
    open(large_path_);
    // Zoomed in on one buffer through the filter, with it selected.
    find_exactly(QStringLiteral("sid_1"));
    QCOMPARE(window_->buffer_table()->model()->rowCount(), 1);
    QCOMPARE(window_->selected_buffers().size(), size_t{1});
    const QCPRange zoomed = window_->chart()->plot()->axisRects().at(0)->axis(QCPAxis::atBottom)->range();
    QVERIFY(zoomed.size() < controller()->problem().buffers.size() / 2.0);

    open(small_path_);
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
    save_artefact(window_.get(), QStringLiteral("round3_second_model.png"));
  }

  void export_is_offered_only_when_it_can_succeed() {
    // A problem file carries no code.
    open(small_path_);
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
    const QString target = QDir::temp().filePath(QStringLiteral("usmpx_round3_export"));
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
    const QString copy = QDir::temp().filePath(QStringLiteral("usmpx_round3_no_lib0"));
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
      save_artefact(&dialog, QStringLiteral("round3_tflite_export_dialog.png"));
    }
    const QString target = QDir::temp().filePath(QStringLiteral("usmpx_round3_planned.tflite"));
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
    const QString target = QDir::temp().filePath(QStringLiteral("usmpx_round3_planned.pte"));
    QFile::remove(target);
    window_->start_export(target, false);
    controller()->wait_idle();
    QVERIFY2(says_written(*window_, target), qPrintable(window_->statusBar()->currentMessage()));
    const LoadedInput copy = load_input(target.toStdString());
    QVERIFY(copy.as_built.has_value());
    QCOMPARE(copy.as_built->allocations, controller()->plan().allocations);
    QFile::remove(target);
  }

  void save_after_recovery_writes_the_users_session_file() {
    open(qs(testing::fixture_path("mlf/usmp_default_pools")));
    const QString user_file = QDir::temp().filePath(QStringLiteral("usmpx_round3_user.usmpx.json"));
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

  void an_edit_keeps_untouched_pools_their_placement_and_proof() {
    open(mixed_path_);
    QCOMPARE(controller()->problem().buffers.size(), size_t{650});
    use_time_limit(QStringLiteral("1"));
    use_best();  // the searching planner (a model without a plan opens on greedy_by_size)
    const int flash = pool_row("flash");
    const int dtcm = pool_row("dtcm");
    // The constants, of unrounded sizes, are proven optimal at once: their stack meets the bound
    // that counts the padding no order avoids.
    const Plan before = controller()->plan();
    std::vector<int> constants;
    for (size_t b = 0; b < before.allocations.size(); ++b) {
      if (before.allocations[b].pool == flash) constants.push_back(static_cast<int>(b));
    }
    const int64_t bound = clique_lower_bound(controller()->problem(), constants);
    QCOMPARE(before.pool_sizes[static_cast<size_t>(flash)], bound);
    const Diagnostic* proof = note_about(before, flash);
    QVERIFY(proof);
    QCOMPARE(proof->message, "pool 'flash': " + with_separators(bound) + " bytes, proven optimal");
    QVERIFY2(window_->chart()->pool_title(flash).contains(qs(format_size(bound))),
             qPrintable(window_->chart()->pool_title(flash)));

    // Shrink dtcm by typing: between the edit and the next plan no row shows as unplaced.
    QTableView* table = window_->buffer_table();
    int unplaced_rows = -1;
    const QMetaObject::Connection watch = connect(controller(), &app::ExplorerController::problem_changed, this, [&] {
      unplaced_rows = 0;
      for (int r = 0; r < table->model()->rowCount(); ++r) {
        const QString pool = table->model()->index(r, views::BufferTableModel::kPool).data().toString();
        unplaced_rows += pool == QStringLiteral("(unplaced)") ? 1 : 0;
      }
    });
    type_into_pool_cell(dtcm, kPoolHintColumn, QStringLiteral("96k"));
    controller()->wait_idle();
    disconnect(watch);
    QCOMPARE(unplaced_rows, 0);
    QCOMPARE(controller()->problem().pools[static_cast<size_t>(dtcm)].size_hint_bytes, 96 * 1024);
    // The constant pool: same offsets, same proof.
    QCOMPARE(allocations_in(controller()->plan(), flash), allocations_in(before, flash));
    QVERIFY(note_about(controller()->plan(), flash));
    QCOMPARE(note_about(controller()->plan(), flash)->message, proof->message);
    bool kept_note = false;
    for (const Diagnostic& d : controller()->plan().diagnostics)
      kept_note = kept_note || (d.code == "kept-pools" && d.message.find("'flash'") != std::string::npos);
    QVERIFY(kept_note);
  }

  void the_hint_line_shows_the_value_it_commits() {
    open(small_path_);
    views::PoolChartWidget* chart = window_->chart();
    const int dtcm = pool_row("dtcm");
    chart->reset_view();
    chart->plot()->replot();
    const QPoint on_line = chart->hint_line_point(dtcm);
    const QPoint end(on_line.x(), chart->pixel_of(dtcm, 0, 100 * 1024 + 5).y());
    QTest::mousePress(chart->plot(), Qt::LeftButton, {}, on_line);
    QTest::mouseMove(chart->plot(), end);
    const qint64 shown = chart->hint_at(dtcm, end.y());
    QCOMPARE(shown % 16, 0);  // the pool's alignment
    QVERIFY2(QToolTip::text().contains(views::format_byte_count_exact(shown)), qPrintable(QToolTip::text()));
    QTest::mouseRelease(chart->plot(), Qt::LeftButton, {}, end);
    controller()->wait_idle();
    QCOMPARE(controller()->problem().pools[static_cast<size_t>(dtcm)].size_hint_bytes, shown);
  }

  void compare_reports_progress_and_cancels() {
    open(large_path_);
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
    save_artefact(&dialog, QStringLiteral("round3_compare_cancelled.png"));
  }

  void help_lists_getting_started_and_every_shortcut() {
    QVERIFY(window_->getting_started_html().contains(QStringLiteral("Getting started")));
    const QString shortcuts = window_->shortcuts_html();
    // Read from the menus: each action with a shortcut is listed with it.
    int listed = 0;
    for (QAction* a : window_->findChildren<QAction*>()) {
      if (a->shortcut().isEmpty()) continue;
      const QString key = a->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped();
      QVERIFY2(shortcuts.contains(QStringLiteral("<b>%1</b>").arg(key)), qPrintable(key));
      ++listed;
    }
    QVERIFY2(listed >= 12, qPrintable(QString::number(listed)));
    QVERIFY(shortcuts.contains(QStringLiteral("<td>Re-plan</td>")));
    QVERIFY(shortcuts.contains(QStringLiteral("<td>Show TVM's Plan</td>")));
    QAction* help = nullptr;
    for (QAction* a : window_->findChildren<QAction*>()) {
      if (a->text() == QStringLiteral("&Getting Started")) help = a;
    }
    QVERIFY(help);
    QCOMPARE(help->shortcut(), QKeySequence(QKeySequence::HelpContents));
  }

  void report_charts_show_the_whole_plan() {
    open(large_path_);
    find_exactly(QStringLiteral("sid_1"));  // the window is zoomed in on one selected buffer
    const QCPRange zoomed = window_->chart()->plot()->axisRects().at(0)->axis(QCPAxis::atBottom)->range();
    QVERIFY(zoomed.size() < controller()->problem().buffers.size() / 2.0);
    std::unique_ptr<views::PoolChartWidget> chart = app::report_chart(*window_->chart(), QSize(1600, 900));
    verify_whole_plan_ranges(*chart);
    QVERIFY(chart->data().pools.size() == 3);

    const QString folder = QStringLiteral(USMPX_ARTEFACTS_DIR "/report_round3");
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
    QVERIFY(summary.contains(QStringLiteral("usmpx_round3_large.json")));
    for (const char* pool : {"dtcm", "sram", "flash"})
      QVERIFY(summary.contains(QStringLiteral("<td>%1</td>").arg(QLatin1String(pool))));
    QVERIFY(summary.contains(qs(format_size_exact(controller()->plan().total_size()))));
    // The total's lower bound is the plan's, as in the status bar.
    QVERIFY(summary.contains(
        QStringLiteral("<th align=right>%1</th>").arg(qs(format_size_exact(controller()->plan().lower_bound_bytes)))));
    QVERIFY(window_->status_totals()->text().contains(
        QStringLiteral("lower bound %1").arg(views::format_byte_count(controller()->plan().lower_bound_bytes))));
  }

  // One meaning of lower bound and gap: what no valid plan goes below, per pool and in total, the
  // same in the status bar, the pool headers and the report.
  void lower_bound_and_gap_mean_the_same_everywhere() {
    open(mixed_path_);
    use_time_limit(QStringLiteral("1"));
    use_best();  // the searching planner (a model without a plan opens on greedy_by_size)
    const Plan& plan = controller()->plan();
    const Problem& problem = controller()->problem();
    QCOMPARE(plan.pool_lower_bounds.size(), problem.pools.size());
    const int flash = pool_row("flash");
    const int dtcm = pool_row("dtcm");
    const int sram = pool_row("sram");
    // The activations may go into dtcm or sram: neither pool must hold any of them in every plan.
    QCOMPARE(plan.pool_lower_bounds[static_cast<size_t>(dtcm)], 0);
    QCOMPARE(plan.pool_lower_bounds[static_cast<size_t>(sram)], 0);
    // The constants can go nowhere but flash; stacked, they meet its bound.
    QCOMPARE(plan.pool_lower_bounds[static_cast<size_t>(flash)], plan.pool_sizes[static_cast<size_t>(flash)]);
    // The total's bound is at least the pools' (here: flash's plus the activations' peak).
    int64_t pools_bound = 0;
    for (int64_t b : plan.pool_lower_bounds)
      pools_bound += b;
    QVERIFY(plan.lower_bound_bytes > pools_bound);
    QCOMPARE(plan.lower_bound_bytes, total_lower_bound(problem, plan.pool_lower_bounds).bytes);
    for (int p : {flash, dtcm, sram}) {
      const QString title = window_->chart()->pool_title(p);
      const int64_t bound = plan.pool_lower_bounds[static_cast<size_t>(p)];
      // A pool no buffer must go into has no bound of its own: "no bound", not "lower bound 0 B".
      QVERIFY2(title.contains(bound > 0 ? QStringLiteral("lower bound %1").arg(views::format_byte_count(bound))
                                        : QStringLiteral("no bound")),
               qPrintable(title));
      if (bound > 0) {
        QVERIFY2(title.contains(
                     QStringLiteral("gap %1").arg(qs(format_gap(plan.pool_sizes[static_cast<size_t>(p)], bound)))),
                 qPrintable(title));
      }
    }
    QCOMPARE(window_->chart()->pool_title(flash).contains(QStringLiteral("gap 0.0%")), true);
    const QString status = window_->status_totals()->text();
    QVERIFY2(status.contains(QStringLiteral("lower bound %1").arg(views::format_byte_count(plan.lower_bound_bytes))),
             qPrintable(status));
    QVERIFY2(status.contains(QStringLiteral("gap %1").arg(qs(format_gap(plan.total_size(), plan.lower_bound_bytes)))),
             qPrintable(status));
    save_artefact(window_.get(), QStringLiteral("round3_bounds.png"));
    // The report: each pool's bound and gap, and the total's, in exact bytes.
    const QString summary = app::report_summary_html(*controller(), *window_->chart());
    for (int p : {flash, dtcm, sram}) {
      const int64_t bound = plan.pool_lower_bounds[static_cast<size_t>(p)];
      QVERIFY2(
          summary.contains(QStringLiteral("<td align=right>%1</td><td align=right>%2</td>")
                               .arg(qs(format_size_exact(bound)),
                                    qs(format_gap(plan.pool_sizes[static_cast<size_t>(p)], bound)).toHtmlEscaped())),
          qPrintable(summary));
    }
    QVERIFY(summary.contains(QStringLiteral("<th align=right>%1</th><th align=right>%2</th>")
                                 .arg(qs(format_size_exact(plan.lower_bound_bytes)),
                                      qs(format_gap(plan.total_size(), plan.lower_bound_bytes)).toHtmlEscaped())));

    // A pool added for the constants gives them a choice: flash no longer has buffers it must hold,
    // and the total's bound does not rise (more freedom never needs more bytes).
    const int64_t before = plan.lower_bound_bytes;
    QPushButton* add = nullptr;
    for (QPushButton* b : window_->pool_editor()->findChildren<QPushButton*>())
      add = b->text() == QStringLiteral("Add") ? b : add;
    QVERIFY(add && add->menu());
    QAction* constant_pool = nullptr;
    for (QAction* a : add->menu()->actions())
      constant_pool = a->text() == QStringLiteral("Constant pool") ? a : constant_pool;
    QVERIFY(constant_pool);
    constant_pool->trigger();
    controller()->wait_idle();
    QCOMPARE(controller()->problem().pools.size(), size_t{4});
    QCOMPARE(controller()->plan().pool_lower_bounds[static_cast<size_t>(flash)], 0);
    QVERIFY(controller()->plan().lower_bound_bytes <= before);
    QCOMPARE(controller()->plan().lower_bound_bytes,
             total_lower_bound(controller()->problem(), controller()->plan().pool_lower_bounds).bytes);
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
    const QString file = QDir::temp().filePath(QStringLiteral("usmpx_round3_columns.usmpx.json"));
    QFile::remove(file);
    QString error;
    QVERIFY2(controller()->save_session(file, &error), qPrintable(error));
    const SessionFile saved = read_session_json(read_text_file(file.toStdString()), file.toStdString());
    QCOMPARE(saved.view.column_widths.size(), size_t{1});
    QCOMPARE(saved.view.column_widths[0], (std::pair<std::string, int>{"Pool", dragged}));

    open(small_path_);  // another input: sized to its content again
    QVERIFY(window_->buffer_table()->horizontalHeader()->sectionSize(column) != dragged);
    QVERIFY(window_->open_path(file));
    controller()->wait_idle();
    QCOMPARE(window_->buffer_table()->horizontalHeader()->sectionSize(column), dragged);
    QFile::remove(file);
  }
};

QTEST_MAIN(TestExplorerRound3)
#include "tst_explorer_round3.moc"
