// The explorer, round 5 (issue 34), as a user meets it: a report describes one state of the model,
// no saving is claimed for a plan that does not fit, the arena figure comes first, status messages
// never cut a reason, the bound is the problem's, .pte legends name ExecuTorch, a re-plan shows its
// result whole, and refusals say why.
#include <QAction>
#include <QLabel>
#include <QListView>
#include <QMenu>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTableWidget>
#include <QTextDocument>
#include <QWheelEvent>
#include <QtTest>

#include "base/size_text.h"
#include "base/text_file.h"
#include "chart/pool_chart_widget.h"
#include "chart/qcustomplot_include.h"
#include "compare_dialog.h"
#include "explorer_controller.h"
#include "explorer_window_fixture.h"
#include "export_dialog.h"
#include "main_window.h"
#include "model/problem_json_writer.h"
#include "planners/lower_bound.h"
#include "planners/registry.h"
#include "report_writer.h"
#include "tables/diagnostics_model.h"
#include "test_support.h"
#include "window_fit.h"

using namespace usmpx;

namespace {

QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

}  // namespace

class TestExplorerRound5 : public ExplorerWindowFixture {
  Q_OBJECT

  // Writes the review report as Export Report does and returns report.html.
  QString report(const QString& name) {
    const QString folder = QStringLiteral(USMPX_ARTEFACTS_DIR "/") + name;
    QDir(folder).removeRecursively();
    QString error;
    if (app::write_review_report(*controller(), *window_->chart(), folder, &error).isEmpty()) return error;
    return qs(read_text_file(QDir(folder).filePath(QStringLiteral("report.html")).toStdString()));
  }

  void compare(const QStringList& algorithms) {
    QSignalSpy ready(controller(), &app::ExplorerController::comparison_ready);
    controller()->compare(algorithms);
    QVERIFY(ready.wait(60000));
  }

  // Pins the first buffer to the pool it is in: an edit that changes the problem, not the plan.
  void pin_first_buffer() {
    SessionEdits next = controller()->edits();
    const Buffer& b = controller()->problem().buffers.front();
    const int pool = controller()->plan().allocations.front().pool;
    QVERIFY(pool >= 0);
    next.pins.push_back(PinSpec{b.name, controller()->problem().pools[static_cast<size_t>(pool)].name, std::nullopt});
    QVERIFY(controller()->apply_edit(QStringLiteral("pin"), next));
    controller()->wait_idle();
  }

  QString diagnostics_row(int row) { return window_->diagnostics_view()->model()->index(row, 0).data().toString(); }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("usmpx-round5-tests"));
  }
  void init() {
    QSettings().clear();
    make_window();
  }
  void cleanup() { window_.reset(); }

  // Item 1: Compare, apply best, then an edit: the report leaves the old comparison out and says
  // why; compared again, the table is back and TVM's plan is "not comparable" in it.
  void the_report_describes_one_state_of_the_model() {
    open(qs(testing::fixture_path("mlf/usmp_default_pools")));
    compare({QStringLiteral("as-built"), QStringLiteral("greedy_by_size"), QStringLiteral("best")});
    use_algorithm("best");  // Apply best
    QVERIFY(controller()->comparison_current());
    QString html = report(QStringLiteral("round5_report_current"));
    QVERIFY2(html.contains(QStringLiteral("<th>not ranked because</th>")), qPrintable(html));
    QVERIFY(html.contains(QStringLiteral("(chosen)")));
    pin_first_buffer();
    QVERIFY(!controller()->comparison_current());
    html = report(QStringLiteral("round5_report_after_edit"));
    QVERIFY2(!html.contains(QStringLiteral("<th>not ranked because</th>")), qPrintable(html));
    QVERIFY(!html.contains(QStringLiteral("(chosen)")));
    QVERIFY2(html.contains(QStringLiteral("Left out: the last comparison (Plan ▸ Compare Algorithms) was made before "
                                          "the pools, pins or time limit were edited")),
             qPrintable(html));
    compare({QStringLiteral("as-built"), QStringLiteral("best")});
    html = report(QStringLiteral("round5_report_compared_again"));
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
    const QString html = report(QStringLiteral("round5_report_not_fitting"));
    QVERIFY2(!html.contains(QStringLiteral("vs TVM's plan</b>")), qPrintable(html));
    QVERIFY(html.contains(QStringLiteral("No saving is claimed against TVM's plan")));
    QVERIFY(html.contains(QStringLiteral("none: does not fit")));
    const QString pdf = app::report_summary_html(*controller(), *window_->chart());
    QVERIFY2(pdf.contains(QStringLiteral("none: does not fit")), qPrintable(pdf));
    const int64_t delta = controller()->plan().total_size() - controller()->reference().total_size();
    QVERIFY(!pdf.contains(qs(format_size_delta(delta))));
    QVERIFY(!html.contains(qs(format_size_delta(delta)).toHtmlEscaped()));
  }

  // Item 3: the arena line comes first in the status tooltip, the Diagnostics panel, the PDF
  // summary and the HTML review.
  void the_arena_figure_comes_first() {
    // An Ethos-U model: its custom operator's persistent data is not modelled, so "at least".
    const std::string model = testing::shared_path("tflite/models/person_detect_vela.tflite");
    if (model.empty()) QSKIP("shared data not found: tflite/models/person_detect_vela.tflite");
    open(qs(model));
    const QString line = controller()->runtime_memory_text();
    QVERIFY2(line.startsWith(QStringLiteral("kTensorArenaSize >= ")), qPrintable(line));
    QVERIFY2(line.contains(QStringLiteral("ethos-u")), qPrintable(line));  // what is not modelled is said
    QVERIFY2(window_->status_totals()->toolTip().startsWith(line + QStringLiteral("\n")),
             qPrintable(window_->status_totals()->toolTip()));
    // The Diagnostics panel's first row: the figure, then why it is only "at least".
    QCOMPARE(diagnostics_row(0), QStringLiteral("Memory the firmware needs: ") +
                                     QString(line).replace(QLatin1Char('\n'), QStringLiteral("; ")));
    QVERIFY(diagnostics_row(0).contains(QStringLiteral("ethos-u")));
    const QString pdf = app::report_summary_html(*controller(), *window_->chart());
    QVERIFY(pdf.indexOf(QStringLiteral("Memory the firmware needs")) < pdf.indexOf(QStringLiteral("<table")));
    const QString html = report(QStringLiteral("round5_report_tflite"));
    QVERIFY(html.indexOf(QStringLiteral("Memory the firmware needs")) < html.indexOf(QStringLiteral("<h2>Pools")));
    // Vela's offline plan overlaps tensors on purpose: the header says the plan is invalid, not only "fits".
    QVERIFY(html.contains(QStringLiteral("fits, <span class=\"bad\">invalid (see the errors below)</span>.")));
    // Item 9: headers and numbers never wrap, nothing breaks inside a word anywhere; names break
    // after '/' and '_' and are whole on hover.
    QVERIFY(html.contains(QStringLiteral("th{background:#f0f0f0;white-space:nowrap}")));
    QVERIFY(!html.contains(QStringLiteral("overflow-wrap:anywhere")));
    QVERIFY2(html.contains(QStringLiteral("<td class=\"name\" title=\"_split_1_scratch_fast\">_<wbr>split_<wbr>1_<wbr>"
                                          "scratch_<wbr>fast</td>")),
             qPrintable(html));
    window_->resize(1280, 720);
    save_artefact(window_.get(), QStringLiteral("round5_tflite_1280x720.png"));
  }

  // Item 3: the input's warnings that say the same at several places are one row with the count;
  // the firmware's memory line heads the list.
  void diagnostics_group_identical_warnings() {
    views::DiagnosticsModel model;
    std::vector<Diagnostic> warnings;
    for (int line : {3, 9, 14, 14})
      warnings.push_back({Severity::kWarning,
                          "unknown-op",
                          "STRIDED_SLICE: its persistent data is not modelled",
                          {},
                          -1,
                          {"model.tflite", line, 1}});
    warnings.push_back({Severity::kWarning, "unknown-op", "MUL: its persistent data is not modelled", {}, -1, {}});
    model.set_diagnostics(warnings, {},
                          QStringLiteral("kTensorArenaSize >= 134276 bytes (not modelled: STRIDED_SLICE x3, "
                                         "MUL x1)"));
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(
        model.index(0).data().toString(),
        QStringLiteral("Memory the firmware needs: kTensorArenaSize >= 134276 bytes (not modelled: STRIDED_SLICE x3, "
                       "MUL x1)"));
    QCOMPARE(model.index(1).data().toString(), QStringLiteral("Reading the input (2):"));
    QCOMPARE(model.index(2).data().toString(),
             QStringLiteral("model.tflite:3:1: STRIDED_SLICE: its persistent data is not modelled (3 times)"));
    QCOMPARE(model.index(3).data().toString(), QStringLiteral("MUL: its persistent data is not modelled"));
  }

  // Item 4: at 1280x720 the summary fits the bar, shortened by whole parts; a refused drop gives
  // its reason in full in the Diagnostics panel, and the status bar never cuts it mid-word.
  void status_messages_never_cut_a_reason() {
    window_->resize(1280, 720);
    open(qs(testing::fixture_path("mlf/usmp_default_pools")));
    QTest::qWait(50);
    QLabel* summary = window_->status_totals();
    QStatusBar* bar = window_->statusBar();
    QTextDocument doc;
    doc.setDefaultFont(summary->font());
    doc.setDocumentMargin(0);
    doc.setHtml(summary->text());
    QVERIFY2(doc.idealWidth() <= bar->width(), qPrintable(summary->text()));
    QVERIFY(summary->text().contains(QStringLiteral(" · total ")));
    QVERIFY(summary->text().contains(QStringLiteral("fits")));
    // A constant dropped onto a workspace pool is refused; the reason is in the Diagnostics panel.
    const Problem& problem = controller()->problem();
    int constant = -1;
    for (size_t b = 0; b < problem.buffers.size() && constant < 0; ++b)
      constant = problem.buffers[b].kind == BufferKind::kConstant ? static_cast<int>(b) : -1;
    QVERIFY(constant >= 0);
    const int workspace = *problem.find_pool("global_workspace");
    emit window_->chart()->pin_requested(constant, workspace, -1);
    const QString row = diagnostics_row(0);
    QVERIFY2(row.startsWith(QStringLiteral("Not done: ") + qs(problem.buffers[static_cast<size_t>(constant)].name) +
                            QStringLiteral(" cannot go into workspace pool global_workspace: it is a constant")),
             qPrintable(row));
    const QString message = bar->currentMessage();
    QVERIFY2(message.startsWith(QStringLiteral("Not done (reason in Diagnostics)")), qPrintable(message));
    const int room = bar->width() - summary->width();
    QVERIFY2(bar->fontMetrics().horizontalAdvance(message) < room, qPrintable(message));
    if (!row.endsWith(message.section(QLatin1Char(':'), 1).trimmed())) {
      // Shortened after a whole word, the message in full in the bar's tooltip.
      QVERIFY2(message.endsWith(QStringLiteral(" …")), qPrintable(message));
      QVERIFY2(bar->toolTip().contains(row.mid(10)), qPrintable(bar->toolTip()));
    }
    // The next edit clears the refusal.
    pin_first_buffer();
    QVERIFY(!diagnostics_row(0).startsWith(QStringLiteral("Not done: ")));
  }

  // Item 5: the window's bound is the problem's: the same with two time limits, and as usmpx gives it.
  void the_bound_does_not_depend_on_the_time_limit() {
    open(qs(testing::source_path("resources/examples/kws_cnn.problem.json")));
    SessionEdits next = controller()->edits();
    next.algorithm = "best";
    next.time_limit_seconds = 0.05;
    QVERIFY(controller()->apply_edit(QStringLiteral("quick"), next));
    controller()->wait_idle();
    const int64_t quick = controller()->plan().lower_bound_bytes;
    next.time_limit_seconds = 1.0;
    QVERIFY(controller()->apply_edit(QStringLiteral("longer"), next));
    controller()->wait_idle();
    QCOMPARE(controller()->plan().lower_bound_bytes, quick);
    QCOMPARE(testing::plan_with("greedy_by_size", controller()->problem()).lower_bound_bytes, quick);
  }

  // Item 6: a freshly opened .pte names ExecuTorch's plan in the legend; paper never says "View menu".
  void pte_legends_name_executorch() {
    open(qs(testing::source_path("resources/examples/six_step_chain.pte")));
    QLabel* legend = nullptr;
    for (QLabel* label : window_->chart()->findChildren<QLabel*>())
      legend = label->text().contains(QStringLiteral("size&nbsp;hint")) ? label : legend;
    QVERIFY(legend);
    QVERIFY2(legend->text().contains(QStringLiteral("ExecuTorch's&nbsp;plan")), qPrintable(legend->text()));
    QVERIFY(!legend->text().contains(QStringLiteral("TVM's")));
    QVERIFY(window_->getting_started_html().contains(QStringLiteral("ExecuTorch program (<code>.pte</code>)")));
    const QString pdf = app::report_summary_html(*controller(), *window_->chart());
    QVERIFY2(!pdf.contains(QStringLiteral("View&nbsp;menu")) && !pdf.contains(QStringLiteral("View menu")),
             qPrintable(pdf));
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
    save_artefact(&dialog, QStringLiteral("round5_compare_13_rows_1600x1000.png"));
    app::set_available_area(QRect());
  }

  // Item 10: no silent switch, refusals proven, exports start where the last one went, a new model
  // starts at the top of the buffer table.
  void no_silent_changes_and_proven_refusals() {
    open(qs(testing::source_path("resources/examples/tiny_classifier.tflite")));
    auto* menu = window_->findChild<QMenu*>(QStringLiteral("tflmBuildMenu"));
    QVERIFY(menu);
    auto action = [&](const QString& starts) {
      for (QAction* a : menu->actions()) {
        if (a->text().remove(QLatin1Char('&')).startsWith(starts)) return a;
      }
      return static_cast<QAction*>(nullptr);
    };
    action(QStringLiteral("CMSIS-NN"))->trigger();
    controller()->wait_idle();
    action(QStringLiteral("x86-64"))->trigger();
    controller()->wait_idle();
    const QString said = window_->statusBar()->currentMessage() + window_->statusBar()->toolTip();
    QVERIFY2(said.contains(QStringLiteral("reference kernels")), qPrintable(said));
    QCOMPARE(controller()->runtime_kernels(), QStringLiteral("reference"));
    // tflm_greedy in an arena below the bound: the diagnostics prove that no plan fits.
    const int64_t bound = controller()->plan().lower_bound_bytes;
    SessionEdits next = controller()->edits();
    next.algorithm = "tflm_greedy";
    next.pools[0].pool.size_hint_bytes = bound - 16;
    QVERIFY(controller()->apply_edit(QStringLiteral("small arena"), next));
    controller()->wait_idle();
    bool proven = false;
    for (const Diagnostic& d : controller()->plan().diagnostics)
      proven = proven || d.message.find("cannot fit in it together, whatever the placement") != std::string::npos;
    QVERIFY2(proven, controller()->plan().diagnostics.front().message.c_str());
    // Export dialogs start in the home folder, then where the last export went.
    QSettings().remove(QStringLiteral("lastExportDir"));
    QCOMPARE(app::export_folder(), QDir::homePath());
    app::remember_export(QDir::temp().filePath(QStringLiteral("usmpx_round5_out.tflite")));
    QCOMPARE(app::export_folder(), QDir::tempPath());
    {
      app::ExportDialog dialog(*controller(), window_.get());
      QCOMPARE(QFileInfo(dialog.target()).absolutePath(), QDir::tempPath());
    }
    // The buffer table of a new model starts at its top.
    open(qs(testing::source_path("resources/examples/kws_cnn.problem.json")));
    window_->buffer_table()->scrollToBottom();
    open(qs(testing::source_path("resources/examples/kws_dscnn.tvmscript.py")));
    QCOMPARE(window_->buffer_table()->verticalScrollBar()->value(), 0);
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
    const QString path = QDir::temp().filePath(QStringLiteral("usmpx_round5_zoom.json"));
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
    save_artefact(window_.get(), QStringLiteral("round5_hint_above_view_1600x1000.png"));
  }
};

QTEST_MAIN(TestExplorerRound5)
#include "tst_explorer_round5.moc"
