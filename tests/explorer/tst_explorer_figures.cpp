// The figures the explorer shows: lower bound and gap mean the same everywhere, the bound does not
// depend on the time limit, tables and labels show their numbers, status messages never cut a
// reason, identical warnings are grouped.
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

// A usmpx problem file of `names`, each 256 bytes, live in turn (two at a time), in one pool.
QString write_named_problem(const QString& file, const QStringList& names) {
  Problem problem;
  Pool pool;
  pool.name = "global_workspace_of_the_model";
  problem.pools.push_back(pool);
  problem.conflict_source = ConflictSource::kLifetimes;
  for (int i = 0; i < names.size(); ++i) {
    Buffer b;
    b.name = names[i].toStdString();
    b.size_bytes = 256 * (1 + i % 3);
    b.pool_candidates = {0};
    b.lifetime = Lifetime::closed(i, i + 1);
    problem.buffers.push_back(b);
  }
  const QString path = QDir::temp().filePath(file);
  write_file_atomically(path.toStdString(), write_problem_json(problem));
  return path;
}

}  // namespace

class TestExplorerFigures : public ExplorerTestFixture {
  Q_OBJECT

 private slots:
  void initTestCase() { start_test_case("figures"); }

  void init() { start_test(); }

  void cleanup() { window_.reset(); }

  // One meaning of lower bound and gap: what no valid plan goes below, per pool and in total, the
  // same in the status bar, the pool headers and the report.
  void lower_bound_and_gap_mean_the_same_everywhere() {
    open(mixed_path());
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
    save_artefact(window_.get(), QStringLiteral("figures_bounds.png"));
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

  // Long names: elided in the middle with the whole name in the tooltip, the scope every name
  // shares left out of the chart labels, and pool, offset and size always in view.
  void tables_and_labels_show_the_numbers() {
    window_.reset();
    make_window(1280, 720);
    QStringList names;
    const QString scope = QStringLiteral("model/");
    for (int i = 0; i < 40; ++i)
      names << scope + QStringLiteral("sequential_%1/conv2d_%1/Conv2D;").arg(i).repeated(8) + QString::number(i);
    // The model's input and output, as TFLite names them, outside the scope.
    names << QStringLiteral("serving_default_input_1:0") << QStringLiteral("StatefulPartitionedCall:0");
    const QString path = write_named_problem(QStringLiteral("usmpx_figures_long_names.json"), names);
    open(path);
    QTest::qWait(50);
    QTableView* table = window_->buffer_table();
    QHeaderView* header = table->horizontalHeader();
    // The name column takes at most two fifths of the table; the numbers stay in view.
    QVERIFY(names[0].size() > 200);
    QVERIFY2(header->sectionSize(views::BufferTableModel::kName) <= table->viewport()->width() * 2 / 5,
             qPrintable(QString::number(header->sectionSize(views::BufferTableModel::kName))));
    for (int c : {int(views::BufferTableModel::kPool), int(views::BufferTableModel::kOffset),
                  int(views::BufferTableModel::kSize)}) {
      QVERIFY2(header->sectionViewportPosition(c) + header->sectionSize(c) <= table->viewport()->width(),
               qPrintable(QStringLiteral("column %1 at %2+%3 of %4")
                              .arg(c)
                              .arg(header->sectionViewportPosition(c))
                              .arg(header->sectionSize(c))
                              .arg(table->viewport()->width())));
    }
    // Every offset fits its column, the largest included (not only the rows on screen).
    int64_t largest = 0;
    for (const Allocation& a : controller()->plan().allocations)
      largest = std::max(largest, a.offset);
    QVERIFY(largest >= 256);
    const QString widest = qs(with_separators(largest));
    QVERIFY(header->sectionSize(views::BufferTableModel::kOffset) >=
            table->fontMetrics().horizontalAdvance(widest) + 8);
    QCOMPARE(table->textElideMode(), Qt::ElideMiddle);
    QVERIFY(!table->wordWrap());
    const QModelIndex first = table->model()->index(0, views::BufferTableModel::kName);
    const int b = first.data(views::BufferTableModel::kBufferRole).toInt();
    QCOMPARE(first.data(Qt::ToolTipRole).toString(), names[b]);
    // Chart labels without the shared scope.
    const views::ChartData& data = window_->chart()->data();
    QCOMPARE(data.label_prefix, scope);
    for (const views::BufferBox& box : data.pools[0].boxes) {
      const QString& name = names[box.buffer];
      QCOMPARE(box.label, name.startsWith(scope) ? name.mid(scope.size()) : name);
    }
    save_artefact(window_.get(), QStringLiteral("figures_long_names_1280x720.png"));
    QFile::remove(path);
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
};

QTEST_MAIN(TestExplorerFigures)
#include "tst_explorer_figures.moc"
