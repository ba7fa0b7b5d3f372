// Editing pools in the explorer: an edit keeps the pools it did not change (placement and proof),
// the hint line shows the value committed, size hints accept what the app prints, and a re-plan
// shows its result whole.
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

namespace {

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

}  // namespace

class TestExplorerEditing : public ExplorerTestFixture {
  Q_OBJECT

 private slots:
  void initTestCase() { start_test_case("editing"); }

  void init() { start_test(); }

  void cleanup() { window_.reset(); }

  void an_edit_keeps_untouched_pools_their_placement_and_proof() {
    open(mixed_path());
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
    open(small_path());
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

  // Size hints read back what the app prints: KiB and MiB, decimals, separators; shown one way.
  void size_hints_accept_what_the_app_prints() {
    QCOMPARE(parse_byte_count("hint", "4.6M"), int64_t{4'823'450});  // 4.6 × 1,048,576 = 4,823,449.6
    QCOMPARE(parse_byte_count("hint", "40k"), int64_t{40'960});
    QCOMPARE(parse_byte_count("hint", "4.57 MiB"), int64_t{4'791'992});  // 4.57 × 1,048,576 = 4,791,992.3
    QCOMPARE(parse_byte_count("hint", "96 KiB"), int64_t{98'304});
    QCOMPARE(parse_byte_count("hint", "9,999 B"), int64_t{9'999});
    QCOMPARE(parse_byte_count("hint", "262144"), int64_t{262'144});
    QCOMPARE(parse_byte_count("hint", "-1"), int64_t{-1});
    for (const char* bad : {"4.6", "1.2.3M", ".5M", "4.6X", "", "-5", "4.M"}) {
      bool refused = false;
      try {
        parse_byte_count("hint", bad);
      } catch (const ConfigError&) {
        refused = true;
      }
      QVERIFY2(refused, bad);
    }
    open(qs(testing::fixture_path("mlf/usmp_default_pools")));
    const int workspace = *controller()->problem().find_pool("global_workspace");
    QTableWidget* table = window_->pool_editor()->table();
    const QString typed[] = {QStringLiteral("4700k"), QStringLiteral("40k"), QStringLiteral("4.6M")};
    const int64_t bytes[] = {4'812'800, 40'960, 4'823'450};
    for (int i = 0; i < 3; ++i) {
      table->item(workspace, 2)->setText(typed[i]);
      controller()->wait_idle();
      QCOMPARE(controller()->problem().pools[static_cast<size_t>(workspace)].size_hint_bytes, bytes[i]);
      // Shown as every size is shown, exact in the tooltip.
      QCOMPARE(table->item(workspace, 2)->text(), views::format_byte_count(bytes[i]));
      QCOMPARE(table->item(workspace, 2)->toolTip(), QStringLiteral("%1 bytes").arg(qs(with_separators(bytes[i]))));
    }
    QCOMPARE(table->item(workspace, 2)->text(), QStringLiteral("4.6 MiB"));
  }

  // Item 8: a re-plan that changes a pool's extent fits the view unless the user zoomed by hand;
  // a hint line outside a zoomed view is named at the chart's edge.
  void a_replan_shows_its_result_whole() {
    // One pool: a large buffer, then small ones (a selected small one is zoomed in on).
    Problem problem;
    Pool sram;
    sram.name = "sram";
    problem.pools.push_back(sram);
    problem.conflict_source = ConflictSource::kLifetimes;
    for (int i = 0; i < 6; ++i) {
      Buffer b;
      b.name = "t" + std::to_string(i);
      b.size_bytes = i == 0 ? 65536 : 16;
      b.pool_candidates = {0};
      b.lifetime = Lifetime::closed(i, i + 1);
      problem.buffers.push_back(b);
    }
    const QString path = QDir::temp().filePath(QStringLiteral("usmpx_editing_zoom.json"));
    write_file_atomically(path.toStdString(), write_problem_json(problem));
    open(path);
    const int workspace = 0;
    QCPAxis* y = window_->chart()->plot()->axisRects().at(workspace)->axis(QCPAxis::atLeft);
    // A 2 MiB hint without zooming: the view fits it.
    SessionEdits next = controller()->edits();
    next.algorithm = "best";
    next.pools[static_cast<size_t>(workspace)].pool.size_hint_bytes = 2 << 20;
    QVERIFY(controller()->apply_edit(QStringLiteral("hint"), next));
    controller()->wait_idle();
    QVERIFY2(y->range().upper >= 2 << 20, qPrintable(QString::number(y->range().upper)));
    QCOMPARE(window_->chart()->hint_marker_text(workspace), QString());
    // Back to a small hint: the view follows down.
    next.pools[static_cast<size_t>(workspace)].pool.size_hint_bytes = -1;
    QVERIFY(controller()->apply_edit(QStringLiteral("no hint"), next));
    controller()->wait_idle();
    const double top = static_cast<double>(controller()->plan().pool_sizes[static_cast<size_t>(workspace)]);
    QVERIFY2(y->range().upper < 1.2 * top, qPrintable(QString::number(y->range().upper)));
    // Zoomed in on a buffer, then a 2 MiB hint: the zoom stays, and the hint is named at the edge.
    // Zoomed in on the small buffer lowest in the pool: the pool's top is out of view.
    int chosen = -1;
    for (size_t b = 1; b < controller()->problem().buffers.size(); ++b) {
      if (chosen < 0 || controller()->plan().allocations[b].offset <
                            controller()->plan().allocations[static_cast<size_t>(chosen)].offset)
        chosen = static_cast<int>(b);
    }
    window_->select_buffers({chosen}, true);
    QVERIFY2(y->range().upper < top, qPrintable(QString::number(y->range().upper)));
    QVERIFY(window_->chart()->zoomed_by_hand());
    const double zoomed = y->range().upper;
    next.pools[static_cast<size_t>(workspace)].pool.size_hint_bytes = 2 << 20;
    QVERIFY(controller()->apply_edit(QStringLiteral("hint again"), next));
    controller()->wait_idle();
    QCOMPARE(y->range().upper, zoomed);
    QVERIFY2(window_->chart()->hint_marker_text(workspace).startsWith(QStringLiteral("▲ size hint 2 MiB")),
             qPrintable(window_->chart()->hint_marker_text(workspace)));
    save_artefact(window_.get(), QStringLiteral("editing_hint_above_view_1600x1000.png"));
  }
};

QTEST_MAIN(TestExplorerEditing)
#include "tst_explorer_editing.moc"
