// The explorer, round 4, as a user meets it: Compare ranks only plans that fit, every window fits
// a 1280x720 screen, tables show their numbers, defaults are said out loud, and the small things
// of a first session work. What the charts draw: tst_explorer_drawing.cpp.
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTableWidget>
#include <QTextBrowser>
#include <QtTest>

#include "base/config_error.h"
#include "base/size_text.h"
#include "base/text_file.h"
#include "chart/byte_ticker.h"
#include "chart/chart_data.h"
#include "chart/pool_chart_widget.h"
#include "chart/qcustomplot_include.h"
#include "checks/plan_summary.h"
#include "checks/shared_addresses.h"
#include "compare_dialog.h"
#include "config/pool_options.h"
#include "explorer_controller.h"
#include "explorer_window_fixture.h"
#include "export_dialog.h"
#include "inputs/input_file.h"
#include "main_window.h"
#include "model/conflict_graph.h"
#include "model/problem_json_writer.h"
#include "panels/inspector_widget.h"
#include "panels/pool_editor_widget.h"
#include "planners/registry.h"
#include "report_writer.h"
#include "session/session_file.h"
#include "tables/buffer_table_model.h"
#include "test_support.h"
#include "window_fit.h"

using namespace usmpx;

namespace {

QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

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

QPushButton* button_named(QWidget* parent, const QString& text) {
  for (QPushButton* b : parent->findChildren<QPushButton*>()) {
    if (b->text() == text) return b;
  }
  return nullptr;
}

// Whether `child` lies wholly inside `window`'s visible area.
bool inside(const QWidget* child, const QWidget* window) {
  const QRect r(child->mapTo(window, QPoint(0, 0)), child->size());
  return window->rect().contains(r);
}

}  // namespace

class TestExplorerRound4 : public ExplorerWindowFixture {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("usmpx-round4-tests"));
  }

  void init() {
    QSettings().clear();
    make_window();
  }

  void cleanup() { window_.reset(); }

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
    save_artefact(&dialog, QStringLiteral("round4_compare_not_fitting_1600x1000.png"));
    // The report prints the same words, and no gap for the rows that are not ranked.
    const QString folder = QStringLiteral(USMPX_ARTEFACTS_DIR "/round4_report");
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

  // The main window and every dialog fit the screen: at 1280x720 and 1600x1000, a first start
  // fills the available area up to 1400x860, a geometry saved on a larger screen is clamped, and
  // the dialogs' buttons are inside them.
  void windows_fit_the_screen_data() {
    QTest::addColumn<QRect>("area");
    QTest::newRow("1280x720") << QRect(0, 0, 1280, 720);
    QTest::newRow("1600x1000") << QRect(0, 0, 1600, 1000);
  }
  void windows_fit_the_screen() {
    QFETCH(QRect, area);
    window_.reset();
    app::set_available_area(area);
    QSettings().clear();
    make_window(-1, -1);
    // First start: as large as the screen offers, at most 1400x860.
    QCOMPARE(window_->size(), app::fitted_size(QSize(1400, 860), area));
    QVERIFY(window_->width() <= area.width() && window_->height() <= area.height() - 30);
    QVERIFY(window_->minimumSizeHint().width() <= window_->width());
    QVERIFY(window_->minimumSizeHint().height() <= window_->height());
    open(qs(testing::fixture_path("mlf/usmp_default_pools")));
    QTest::qWait(50);
    // The status bar and the bottom docks are in the window.
    QVERIFY(window_->statusBar()->isVisible() && inside(window_->statusBar(), window_.get()));
    for (const char* name : {"poolsDock", "diagnosticsDock", "buffersDock"}) {
      QDockWidget* dock = window_->findChild<QDockWidget*>(QLatin1String(name));
      QVERIFY2(dock && dock->isVisible() && inside(dock, window_.get()), name);
      QVERIFY2(dock->height() >= 100, name);
    }
    save_artefact(window_.get(), QStringLiteral("round4_window_%1x%2.png").arg(area.width()).arg(area.height()));
    // A geometry saved on a 2560x1440 screen opens clamped into this one.
    window_->setGeometry(QRect(900, 500, 2400, 1300));
    window_->close();
    window_.reset();
    make_window(-1, -1);
    QVERIFY2(area.contains(window_->geometry()), qPrintable(QStringLiteral("%1,%2 %3x%4")
                                                                .arg(window_->x())
                                                                .arg(window_->y())
                                                                .arg(window_->width())
                                                                .arg(window_->height())));
    open(qs(testing::fixture_path("mlf/usmp_default_pools")));

    // Compare: within the area, its Apply and Close buttons inside it, after a run too.
    app::CompareDialog compare(controller(), window_.get());
    compare.show();
    QVERIFY(QTest::qWaitForWindowExposed(&compare));
    QSignalSpy ready(controller(), &app::ExplorerController::comparison_ready);
    compare.run();
    QVERIFY(ready.wait(60000));
    QTest::qWait(50);
    QVERIFY(compare.width() <= area.width() && compare.height() <= area.height());
    QVERIFY(compare.minimumSizeHint().height() <= compare.height());
    QVERIFY(compare.minimumSizeHint().width() <= compare.width());
    QPushButton* apply = button_named(&compare, QStringLiteral("Apply Selected"));
    QVERIFY(apply && inside(apply, &compare));
    QVERIFY(compare.findChild<QDialogButtonBox*>() && inside(compare.findChild<QDialogButtonBox*>(), &compare));
    save_artefact(&compare, QStringLiteral("round4_compare_%1x%2.png").arg(area.width()).arg(area.height()));
    compare.close();

    app::ExportDialog export_dialog(*controller(), window_.get());
    export_dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&export_dialog));
    QVERIFY(export_dialog.width() <= area.width() && export_dialog.height() <= area.height());
    QVERIFY(export_dialog.minimumSizeHint().height() <= export_dialog.height());
    QVERIFY(inside(export_dialog.findChild<QDialogButtonBox*>(), &export_dialog));
    export_dialog.close();

    // Help ▸ Getting Started: a scrolling text in a dialog that fits.
    QSize help_size;
    bool help_fits = false;
    window_->set_help_observer([&](QDialog* dialog) {
      QTimer::singleShot(100, dialog, [&, dialog] {
        help_size = dialog->size();
        help_fits = dialog->minimumSizeHint().height() <= dialog->height() &&
                    inside(dialog->findChild<QDialogButtonBox*>(), dialog) && dialog->findChild<QTextBrowser*>();
        if (!help_fits)
          qWarning() << dialog->size() << dialog->minimumSizeHint()
                     << dialog->findChild<QDialogButtonBox*>()->geometry();
        dialog->reject();
      });
    });
    QAction* help = nullptr;
    for (QAction* a : window_->findChildren<QAction*>())
      help = a->text() == QStringLiteral("&Getting Started") ? a : help;
    QVERIFY(help);
    help->trigger();
    QVERIFY(help_fits);
    QVERIFY(help_size.width() <= area.width() && help_size.height() <= area.height());
    app::set_available_area(QRect());
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
    const QString path = write_named_problem(QStringLiteral("usmpx_round4_long_names.json"), names);
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
    save_artefact(window_.get(), QStringLiteral("round4_long_names_1280x720.png"));
    QFile::remove(path);
  }

  // One default per input family, the CLI's: the reference plan, named in the status bar with
  // its bytes. A .tflite that carries an offline plan opens on it.
  void each_family_opens_on_its_reference_plan() {
    struct Case {
      std::string path;
      QString algorithm;
    };
    const std::vector<Case> cases = {
        {testing::source_path("resources/examples/kws_dscnn.tvmscript.py"), QStringLiteral("greedy_by_size")},
        {testing::source_path("resources/examples/kws_dscnn.planned.tvmscript.py"), QStringLiteral("as-built")},
        {testing::fixture_path("mlf/usmp_default_pools"), QStringLiteral("as-built")},
        {testing::source_path("resources/examples/tiny_classifier.tflite"), QStringLiteral("tflm_greedy")},
        {testing::source_path("resources/examples/kws_cnn.problem.json"), QStringLiteral("greedy_by_size")},
    };
    for (const Case& c : cases) {
      open(qs(c.path));
      QCOMPARE(qs(controller()->plan().algorithm), c.algorithm);
      QCOMPARE(window_->algorithm_box()->currentText(), c.algorithm);
      QCOMPARE(controller()->reference_plan_bytes(), controller()->plan().total_size());
      const QString status = window_->status_totals()->text();
      QVERIFY2(status.contains(QStringLiteral("reference %1: %2")
                                   .arg(c.algorithm, views::format_byte_count(controller()->plan().total_size()))),
               qPrintable(status));
      QVERIFY2(window_->status_totals()->toolTip().contains(c.algorithm),
               qPrintable(window_->status_totals()->toolTip()));
    }
    // TFLM's plan is the reference in bytes, never only as a difference.
    open(qs(testing::source_path("resources/examples/tiny_classifier.tflite")));
    QCOMPARE(controller()->reference_plan_bytes(), controller()->reference().total_size());
    // Its export carries the plan as an offline plan: opened, it is the reference (as-built).
    const QString exported = QDir::temp().filePath(QStringLiteral("usmpx_round4_planned.tflite"));
    QFile::remove(exported);
    SessionEdits best = controller()->edits();
    best.algorithm = "best";
    QVERIFY(controller()->apply_edit(QStringLiteral("best"), best));
    controller()->wait_idle();
    const int64_t best_total = controller()->plan().total_size();
    QSignalSpy done(controller(), &app::ExplorerController::export_finished);
    controller()->export_sources(exported, false, false);
    QVERIFY(done.wait(30000));
    QVERIFY(done.at(0).at(0).toBool());
    // The message names the file written, once: "1 file", never the input's name.
    QCOMPARE(done.at(0).at(1).toString().section(QLatin1Char('\n'), 0, 0),
             QStringLiteral("Wrote %1: 1 file.").arg(exported));
    QVERIFY(!done.at(0).at(1).toString().contains(QStringLiteral("tiny_classifier.tflite")));
    open(exported);
    QCOMPARE(qs(controller()->plan().algorithm), QStringLiteral("as-built"));
    QCOMPARE(controller()->plan().total_size(), best_total);
    QVERIFY(window_->status_totals()->text().contains(QStringLiteral("reference as-built: ")));
    QFile::remove(exported);
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

  // The small things: Ctrl+F, the filter in the charts, the legend, the PDF's key, .tflite in the
  // first words, the recovery prompt, Open's folder, Export Report's new folder, Recent.
  void the_small_things() {
    window_.reset();
    make_window(1280, 720);
    open(qs(testing::source_path("resources/examples/kws_dscnn.tvmscript.py")));
    // Ctrl+F puts the cursor in the filter.
    window_->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(window_.get()));
    window_->chart()->setFocus();
    QTest::keyClick(window_.get(), Qt::Key_F, Qt::ControlModifier);
    QTRY_VERIFY(window_->filter_box()->hasFocus());
    // The filter draws the boxes it does not match faint.
    QTest::keyClicks(window_->filter_box(), QStringLiteral("sid_1"));
    const int rows = window_->buffer_table()->model()->rowCount();
    QVERIFY(rows >= 1 && rows < int(controller()->problem().buffers.size()));
    int faint = 0, matched = 0;
    for (int p = 0; p < window_->chart()->pool_count(); ++p) {
      const views::PoolChartData& pool = window_->chart()->data().pools[static_cast<size_t>(p)];
      QCPAxisRect* rect = window_->chart()->plot()->axisRects().at(p);
      views::PoolPlottable* boxes = nullptr;
      for (QCPAbstractPlottable* plottable : rect->plottables())
        boxes = boxes ? boxes : qobject_cast<views::PoolPlottable*>(plottable);
      QVERIFY(boxes);
      for (const views::BufferBox& box : pool.boxes) {
        const bool match = QString::fromStdString(controller()->problem().buffers[box.buffer].name)
                               .contains(QStringLiteral("sid_1"), Qt::CaseInsensitive);
        QCOMPARE(boxes->drawn_faint(box.buffer), !match);
        (match ? matched : faint)++;
      }
    }
    QVERIFY(matched >= 1 && faint >= 1);
    save_artefact(window_.get(), QStringLiteral("round4_filter_1280x720.png"));
    window_->filter_box()->clear();
    for (int p = 0; p < window_->chart()->pool_count(); ++p) {
      for (QCPAbstractPlottable* plottable : window_->chart()->plot()->axisRects().at(p)->plottables()) {
        if (auto* boxes = qobject_cast<views::PoolPlottable*>(plottable)) QVERIFY(!boxes->drawn_faint(0));
      }
    }
    // The legend takes two lines rather than being cut at 1280 px: all of it is inside the label.
    QLabel* legend = nullptr;
    for (QLabel* label : window_->chart()->findChildren<QLabel*>())
      legend = label->text().contains(QStringLiteral("size&nbsp;hint")) ? label : legend;
    QVERIFY(legend);
    QVERIFY(legend->text().contains(QStringLiteral("<br>")));
    QVERIFY2(legend->sizeHint().width() <= legend->width() && legend->sizeHint().height() <= legend->height(),
             qPrintable(QStringLiteral("%1x%2 in %3x%4")
                            .arg(legend->sizeHint().width())
                            .arg(legend->sizeHint().height())
                            .arg(legend->width())
                            .arg(legend->height())));
    // The PDF's first page carries the colour key.
    QVERIFY(app::report_summary_html(*controller(), *window_->chart()).contains(QStringLiteral("Colour key")));
    // The first words name .tflite.
    QVERIFY(window_->getting_started_html().contains(QStringLiteral(".tflite")));
    // File ▸ Open starts in the model's folder.
    QCOMPARE(QSettings().value(QStringLiteral("lastDir")).toString(),
             QFileInfo(qs(testing::source_path("resources/examples/kws_dscnn.tvmscript.py"))).absolutePath());
    // Export Report into a folder that does not exist yet: it is made.
    const QString folder = QDir::temp().filePath(QStringLiteral("usmpx_round4_report/new/inner"));
    QDir(QDir::temp().filePath(QStringLiteral("usmpx_round4_report"))).removeRecursively();
    window_->set_report_folder_chooser([&] { return folder; });
    QAction* report = nullptr;
    for (QAction* a : window_->findChildren<QAction*>())
      report = a->text() == QStringLiteral("Export &Report…") ? a : report;
    QVERIFY(report);
    report->trigger();
    for (const char* file : {"charts.png", "charts.pdf", "charts.svg", "report.html"})
      QVERIFY2(QFileInfo(QDir(folder).filePath(QLatin1String(file))).size() > 100, file);
    QDir(QDir::temp().filePath(QStringLiteral("usmpx_round4_report"))).removeRecursively();
    // The recovery prompt names the model.
    SessionFile session;
    session.input = testing::source_path("resources/examples/kws_dscnn.tvmscript.py");
    session.edits = controller()->edits();
    const QString autosave = app::ExplorerController::autosave_path();
    QDir().mkpath(QFileInfo(autosave).absolutePath());
    write_file_atomically(autosave.toStdString(), write_session_json(session, autosave.toStdString()));
    QVERIFY2(window_->autosave_prompt().contains(QStringLiteral("kws_dscnn.tvmscript.py")),
             qPrintable(window_->autosave_prompt()));
    QFile::remove(autosave);
    // A Recent entry that fails to open is dropped.
    const QString broken = QDir::temp().filePath(QStringLiteral("usmpx_round4_broken.json"));
    write_file_atomically(broken.toStdString(), "{\"format\": \"usmpx-problem\"");
    QSettings().setValue(QStringLiteral("recentFiles"), QStringList{broken});
    window_->open_path(broken);
    controller()->wait_idle();
    QVERIFY(!QSettings().value(QStringLiteral("recentFiles")).toStringList().contains(broken));
    QFile::remove(broken);
  }
};

QTEST_MAIN(TestExplorerRound4)
#include "tst_explorer_round4.moc"
