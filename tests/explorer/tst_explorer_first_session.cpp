// A first session: every window fits the screen, Help lists getting started and every shortcut,
// the small things (Ctrl+F, the filter, the legend, Recent, the recovery prompt), no silent
// switches and proven refusals.
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

class TestExplorerFirstSession : public ExplorerTestFixture {
  Q_OBJECT

 private slots:
  void initTestCase() { start_test_case("first_session"); }

  void init() { start_test(); }

  void cleanup() { window_.reset(); }

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
    save_artefact(window_.get(), QStringLiteral("first_session_window_%1x%2.png").arg(area.width()).arg(area.height()));
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
    save_artefact(&compare, QStringLiteral("first_session_compare_%1x%2.png").arg(area.width()).arg(area.height()));
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
    save_artefact(window_.get(), QStringLiteral("first_session_filter_1280x720.png"));
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
    const QString folder = QDir::temp().filePath(QStringLiteral("usmpx_first_session_report/new/inner"));
    QDir(QDir::temp().filePath(QStringLiteral("usmpx_first_session_report"))).removeRecursively();
    window_->set_report_folder_chooser([&] { return folder; });
    QAction* report = nullptr;
    for (QAction* a : window_->findChildren<QAction*>())
      report = a->text() == QStringLiteral("Export &Report…") ? a : report;
    QVERIFY(report);
    report->trigger();
    for (const char* file : {"charts.png", "charts.pdf", "charts.svg", "report.html"})
      QVERIFY2(QFileInfo(QDir(folder).filePath(QLatin1String(file))).size() > 100, file);
    QDir(QDir::temp().filePath(QStringLiteral("usmpx_first_session_report"))).removeRecursively();
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
    const QString broken = QDir::temp().filePath(QStringLiteral("usmpx_first_session_broken.json"));
    write_file_atomically(broken.toStdString(), "{\"format\": \"usmpx-problem\"");
    QSettings().setValue(QStringLiteral("recentFiles"), QStringList{broken});
    window_->open_path(broken);
    controller()->wait_idle();
    QVERIFY(!QSettings().value(QStringLiteral("recentFiles")).toStringList().contains(broken));
    QFile::remove(broken);
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
    app::remember_export(QDir::temp().filePath(QStringLiteral("usmpx_first_session_out.tflite")));
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
};

QTEST_MAIN(TestExplorerFirstSession)
#include "tst_explorer_first_session.moc"
