// The explorer driven through its UI: open, drag to repin, undo, context menu, pool editor,
// diagnostics, algorithm choice, sessions, comparison and the review report.
#include <QComboBox>
#include <QListView>
#include <QMenu>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QtTest>

#include "archive_builder.h"
#include "base/size_text.h"
#include "chart/pool_chart_widget.h"
#include "chart/qcustomplot_include.h"
#include "compare_dialog.h"
#include "explorer_controller.h"
#include "export_dialog.h"
#include "main_window.h"
#include "panels/pool_editor_widget.h"
#include "report_writer.h"
#include "test_support.h"

#include <fstream>
#include <nlohmann/json.hpp>

using namespace usmpx;

namespace {

const QString kExample = QString::fromStdString(testing::source_path("resources/examples/kws_cnn.problem.json"));

QAction* find_action(QMenu* menu, const QString& text) {
  for (QAction* action : menu->actions()) {
    if (action->text() == text) return action;
  }
  return nullptr;
}

}  // namespace

class TestMainWindow : public QObject {
  Q_OBJECT

 private:
  std::unique_ptr<app::MainWindow> window_;
  app::ExplorerController* controller() { return window_->controller(); }
  int buffer(const char* name) { return *controller()->problem().find_buffer(name); }
  std::string pool_of(const char* name) {
    return testing::pool_of(controller()->problem(), controller()->plan(), name);
  }
  void save_artefact(QWidget* widget, const QString& name) {
    QDir().mkpath(QStringLiteral(USMPX_ARTEFACTS_DIR));
    QTest::qWait(100);  // layouts settle and queued replots run
    for (QCustomPlot* plot : widget->findChildren<QCustomPlot*>())
      plot->replot();
    widget->grab().save(QStringLiteral(USMPX_ARTEFACTS_DIR "/") + name);
  }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("usmpx-tests"));
  }

  void init() {
    window_ = std::make_unique<app::MainWindow>();
    window_->set_batch_mode(true);
    window_->resize(1500, 900);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    QVERIFY(window_->open_path(kExample));
    controller()->wait_idle();
    QVERIFY(controller()->has_input());
    window_->chart()->plot()->replot();
  }

  void cleanup() { window_.reset(); }

  void opens_and_plans_like_the_cli() {
    // Without a plan in the input the explorer opens on its reference plan, greedy_by_size, as usmpx plan.
    QCOMPARE(controller()->plan().algorithm, std::string("greedy_by_size"));
    QCOMPARE(controller()->plan().total_size(), 70192);
    QCOMPARE(controller()->plan().lower_bound_bytes, 68912);
    QVERIFY(!controller()->plan().has_errors());
    QCOMPARE(window_->chart()->pool_count(), 3);
    QCOMPARE(window_->buffer_table()->model()->rowCount(), 19);
    save_artefact(window_.get(), QStringLiteral("main_window.png"));
  }

  void drag_to_another_pool_repins_and_undo_restores() {
    views::PoolChartWidget* chart = window_->chart();
    const int sid_3 = buffer("sid_3");
    QCOMPARE(pool_of("sid_3"), std::string("sram"));
    const QPoint start = chart->buffer_center(sid_3);
    const QPoint target = chart->pixel_of(0, 9.5, 2000);  // dtcm, inside sid_3's lifetime
    QTest::mousePress(chart->plot(), Qt::LeftButton, {}, start);
    QTest::mouseMove(chart->plot(), target);
    QTest::mouseRelease(chart->plot(), Qt::LeftButton, {}, target);
    controller()->wait_idle();
    QCOMPARE(pool_of("sid_3"), std::string("dtcm"));
    QVERIFY(controller()->problem().buffers[static_cast<size_t>(sid_3)].pin.has_value());
    QVERIFY(controller()->modified());
    QCOMPARE(QString::fromStdString(controller()->history().undo_text()), QStringLiteral("Move sid_3 to dtcm"));

    QTest::keySequence(window_.get(), QKeySequence::Undo);
    controller()->wait_idle();
    QCOMPARE(pool_of("sid_3"), std::string("sram"));
    QVERIFY(!controller()->problem().buffers[static_cast<size_t>(sid_3)].pin.has_value());
    QVERIFY(!controller()->modified());
    QTest::keySequence(window_.get(), QKeySequence(QStringLiteral("Ctrl+Shift+Z")));
    controller()->wait_idle();
    QCOMPARE(pool_of("sid_3"), std::string("dtcm"));
  }

  void vertical_drag_pins_an_aligned_offset() {
    views::PoolChartWidget* chart = window_->chart();
    const int sid_1 = buffer("sid_1");
    QCOMPARE(pool_of("sid_1"), std::string("sram"));
    const int64_t from = controller()->plan().allocations[static_cast<size_t>(sid_1)].offset;  // 32000 with best
    const QPoint start = chart->buffer_center(sid_1);
    const int dy = chart->pixel_of(1, 0, from).y() - chart->pixel_of(1, 0, from + 8000).y();
    QTest::mousePress(chart->plot(), Qt::LeftButton, {}, start);
    QTest::mouseMove(chart->plot(), start - QPoint(0, dy));
    QTest::mouseRelease(chart->plot(), Qt::LeftButton, {}, start - QPoint(0, dy));
    controller()->wait_idle();
    const Buffer& b = controller()->problem().buffers[static_cast<size_t>(sid_1)];
    QVERIFY(b.pin && b.pin->offset);
    QCOMPARE(*b.pin->offset % 16, 0);
    QVERIFY2(std::abs(*b.pin->offset - (from + 8000)) < 400, qPrintable(QString::number(*b.pin->offset)));
    QCOMPARE(controller()->plan().allocations[static_cast<size_t>(sid_1)].offset, *b.pin->offset);
  }

  void context_menu_moves_and_unpins() {
    const int sid_2 = buffer("sid_2");
    std::unique_ptr<QMenu> menu(window_->build_buffer_menu(sid_2, window_.get()));
    QMenu* move = nullptr;
    for (QAction* a : menu->actions()) {
      if (a->menu() && a->text() == QStringLiteral("Move to Pool")) move = a->menu();
    }
    QVERIFY(move);
    QAction* to_dtcm = find_action(move, QStringLiteral("dtcm"));
    QVERIFY(to_dtcm);
    QVERIFY(!find_action(move, QStringLiteral("flash")));  // constants only
    to_dtcm->trigger();
    controller()->wait_idle();
    QCOMPARE(pool_of("sid_2"), std::string("dtcm"));
    std::unique_ptr<QMenu> again(window_->build_buffer_menu(sid_2, window_.get()));
    QAction* unpin = find_action(again.get(), QStringLiteral("Unpin"));
    QVERIFY(unpin && unpin->isEnabled());
    unpin->trigger();
    controller()->wait_idle();
    QVERIFY(!controller()->problem().buffers[static_cast<size_t>(sid_2)].pin);
  }

  void shrinking_a_pool_shows_why_it_does_not_fit() {
    // TVM's planners say it with TVM's error text.
    window_->algorithm_box()->setCurrentText(QStringLiteral("greedy_by_size"));
    controller()->wait_idle();
    QTableWidget* pools = window_->pool_editor()->table();
    pools->item(1, 2)->setText(QStringLiteral("30k"));  // sram: 30 KiB, less than DepthwiseConv2d_acc alone
    controller()->wait_idle();
    QCOMPARE(controller()->problem().pools[1].size_hint_bytes, 30 * 1024);
    QVERIFY(!plan_fits(controller()->problem(), controller()->plan()));
    QListView* diagnostics = window_->diagnostics_view();
    QVERIFY(diagnostics->model()->rowCount() > 0);
    const QModelIndex first = diagnostics->model()->index(0, 0);
    QCOMPARE(first.data().toString(),
             QStringLiteral("TVM USMP Error: the space available in the provided pools exceeded when "
                            "trying to allocate the buffer : DepthwiseConv2d_acc"));
    diagnostics->clicked(first);
    QCOMPARE(window_->selected_buffers(), std::vector<int>{buffer("DepthwiseConv2d_acc")});
    save_artefact(window_.get(), QStringLiteral("does_not_fit.png"));
    // Undo the resize: fits again.
    controller()->undo();
    controller()->wait_idle();
    QVERIFY(plan_fits(controller()->problem(), controller()->plan()));
  }

  void shrinking_a_pool_with_best_names_the_buffers_that_cannot_fit() {
    window_->algorithm_box()->setCurrentText(QStringLiteral("best"));
    controller()->wait_idle();
    QCOMPARE(controller()->plan().algorithm, std::string("best"));
    QTableWidget* pools = window_->pool_editor()->table();
    pools->item(1, 2)->setText(QStringLiteral("30k"));  // sram: 30 KiB; DepthwiseConv2d_acc needs 32,000 bytes
    controller()->wait_idle();
    QCOMPARE(controller()->plan().algorithm, std::string("best"));
    QVERIFY(!plan_fits(controller()->problem(), controller()->plan()));
    QListView* diagnostics = window_->diagnostics_view();
    QModelIndex explained;
    for (int row = 0; row < diagnostics->model()->rowCount(); ++row) {
      const QModelIndex index = diagnostics->model()->index(row, 0);
      if (index.data().toString().contains(QStringLiteral("cannot fit in it together"))) explained = index;
    }
    QVERIFY(explained.isValid());
    QCOMPARE(
        explained.data().toString(),
        QStringLiteral("pool 'sram' is 1,280 bytes short (size hint 30,720, the best plan found needs 32,000): "
                       "'DepthwiseConv2d_acc' cannot fit in it together, whatever the placement (it needs 32,000 bytes "
                       "on its own, more than any of its candidate pools holds)"));
    diagnostics->clicked(explained);
    QCOMPARE(window_->selected_buffers(), std::vector<int>{buffer("DepthwiseConv2d_acc")});
  }

  void dragging_the_size_hint_line_resizes() {
    views::PoolChartWidget* chart = window_->chart();
    const QPoint start = chart->hint_line_point(0);  // dtcm, 16384
    const QPoint end(start.x(), chart->pixel_of(0, 0, 14000).y());
    QTest::mousePress(chart->plot(), Qt::LeftButton, {}, start);
    QTest::mouseMove(chart->plot(), end);
    QTest::mouseRelease(chart->plot(), Qt::LeftButton, {}, end);
    controller()->wait_idle();
    const int64_t hint = controller()->problem().pools[0].size_hint_bytes;
    QCOMPARE(hint % 16, 0);
    QVERIFY2(std::abs(hint - 14000) < 300, qPrintable(QString::number(hint)));
  }

  void algorithm_choice_replans() {
    window_->algorithm_box()->setCurrentText(QStringLiteral("hill_climb"));
    controller()->wait_idle();
    QCOMPARE(controller()->plan().algorithm, std::string("hill_climb"));
    QCOMPARE(controller()->plan().total_size(), 68912);
    QCOMPARE(controller()->edits().algorithm, std::string("hill_climb"));
  }

  void session_round_trip() {
    window_->algorithm_box()->setCurrentText(QStringLiteral("greedy_by_conflicts"));
    controller()->wait_idle();
    SessionEdits edits = controller()->edits();
    edits = with_pin(edits, "sid_4", PinSpec{"", "sram", 256});
    QVERIFY(controller()->apply_edit(QStringLiteral("pin"), edits));
    controller()->wait_idle();
    const QString path = QDir::temp().filePath(QStringLiteral("usmpx_test_session.usmpx.json"));
    QString error;
    QVERIFY2(controller()->save_session(path, &error), qPrintable(error));
    QVERIFY(!controller()->modified());
    const Plan saved_plan = controller()->plan();

    app::MainWindow other;
    other.set_batch_mode(true);
    QVERIFY(other.open_path(path));
    other.controller()->wait_idle();
    QVERIFY(other.controller()->edits() == controller()->edits());
    QCOMPARE(other.controller()->plan().allocations, saved_plan.allocations);
    QCOMPARE(other.controller()->session_path(), QFileInfo(path).absoluteFilePath());
    QFile::remove(path);
  }

  void autosave_keeps_unsaved_edits() {
    SessionEdits edits = with_pin(controller()->edits(), "sid_4", PinSpec{"", "sram", std::nullopt});
    QVERIFY(controller()->apply_edit(QStringLiteral("pin"), edits));
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(app::ExplorerController::autosave_path()), 5000);
    app::MainWindow restored;
    restored.set_batch_mode(true);
    QString error;
    QVERIFY(restored.controller()->open_session(app::ExplorerController::autosave_path(), &error));
    restored.controller()->wait_idle();
    QVERIFY(restored.controller()->edits() == controller()->edits());
    controller()->remove_autosave();
  }

  void compare_dialog_runs_every_algorithm() {
    app::CompareDialog dialog(controller(), window_.get());
    dialog.resize(1200, 800);
    dialog.show();
    QSignalSpy ready(controller(), &app::ExplorerController::comparison_ready);
    dialog.run();
    QVERIFY(ready.wait(30000));
    QCOMPARE(dialog.table()->rowCount(), static_cast<int>(controller()->algorithms().size()));
    QCOMPARE(dialog.table()->item(2, 0)->text(), QStringLiteral("hill_climb"));
    // dtcm, sram, flash, total: exact bytes (rounded sizes hide why a row is ahead), with the
    // difference to the best valid row; the rounded size in the tooltip.
    int64_t best = INT64_MAX;
    for (const Plan& plan : controller()->comparison()) {
      if (plan_fits(controller()->problem(), plan) && !plan.has_errors()) best = std::min(best, plan.total_size());
    }
    QVERIFY(best <= 68912);
    QCOMPARE(dialog.table()->item(2, 4)->text(),
             best < 68912 ? QStringLiteral("68,912 (+%1)").arg(QString::fromStdString(with_separators(68912 - best)))
                          : QStringLiteral("68,912"));
    QCOMPARE(dialog.table()->item(2, 4)->toolTip(), QStringLiteral("67.3 KiB"));
    QCOMPARE(dialog.table()->item(2, 4)->data(Qt::UserRole).toLongLong(), 68912);
    QVERIFY2(dialog.progress()->text().startsWith(QStringLiteral("Done: ")), qPrintable(dialog.progress()->text()));
    save_artefact(&dialog, QStringLiteral("compare_dialog.png"));
    QSignalSpy applied(&dialog, &app::CompareDialog::apply_algorithm);
    dialog.table()->selectRow(2);
    for (QPushButton* button : dialog.findChildren<QPushButton*>()) {
      if (button->text() == QStringLiteral("Apply Selected")) button->click();
    }
    QCOMPARE(applied.count(), 1);
    QCOMPARE(applied.at(0).at(0).toString(), QStringLiteral("hill_climb"));
  }

  void review_report_is_written() {
    const QString folder = QDir::temp().filePath(QStringLiteral("usmpx_test_report"));
    QDir(folder).removeRecursively();
    QString error;
    const QStringList files = write_review_report(*controller(), *window_->chart(), folder, &error);
    QCOMPARE(files, (QStringList{"charts.png", "charts.pdf", "charts.svg", "report.html"}));
    for (const QString& f : files)
      QVERIFY(QFileInfo(QDir(folder).filePath(f)).size() > 100);
    // The SVG the HTML shows: text as large as in charts.png (9 pt at 96 dpi: 12 px) and sans-serif
    // in any browser (Qt's family name followed by the CSS generic one).
    QFile svg(QDir(folder).filePath(QStringLiteral("charts.svg")));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QString svg_text = QString::fromUtf8(svg.readAll());
    QVERIFY(svg_text.contains(QStringLiteral("font-size=\"12\"")));
    QVERIFY(!svg_text.contains(QStringLiteral("font-size=\"9\"")));
    QVERIFY(svg_text.contains(QStringLiteral(", sans-serif\"")));
    QFile html(QDir(folder).filePath(QStringLiteral("report.html")));
    QVERIFY(html.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(html.readAll());
    QVERIFY(text.contains(QStringLiteral("Memory plan review: kws_cnn.problem.json")));
    QVERIFY(text.contains(
        QStringLiteral("<td>dtcm</td><td>workspace</td><td class=\"n\" title=\"13,376 bytes\">13.1 KiB</td>")));
    QDir(folder).removeRecursively();
  }

  void several_modules_ask_which_one() {
    // The two USMP-on fixtures as modules "default" and "mini" of one archive.
    std::vector<testing::TarEntry> entries = testing::folder_entries(testing::fixture_path("mlf/usmp_default_pools"));
    for (testing::TarEntry& e : testing::folder_entries(testing::fixture_path("mlf/usmp_external_pools"))) {
      if (e.path != "./metadata.json" && e.path != "./NOTICE.md") entries.push_back(std::move(e));
    }
    auto read_json = [](const std::string& p) { return nlohmann::ordered_json::parse(std::ifstream(p)); };
    nlohmann::ordered_json meta = read_json(testing::fixture_path("mlf/usmp_default_pools/metadata.json"));
    meta["modules"]["mini"] =
        read_json(testing::fixture_path("mlf/usmp_external_pools/metadata.json"))["modules"]["mini"];
    for (testing::TarEntry& e : entries) {
      if (e.path == "./metadata.json") e.data = meta.dump(2);
    }
    const QString path = QDir::temp().filePath(QStringLiteral("usmpx_two_modules.tar"));
    {
      std::ofstream out(path.toStdString(), std::ios::binary);
      out << testing::make_tar(entries);
    }
    QStringList offered;
    window_->set_module_chooser([&](const QStringList& modules) {
      offered = modules;
      return QStringLiteral("mini");
    });
    QVERIFY(window_->open_path(path));
    controller()->wait_idle();
    QCOMPARE(offered, (QStringList{"default", "mini"}));
    QCOMPARE(controller()->module(), QStringLiteral("mini"));
    QCOMPARE(controller()->problem().buffers.size(), size_t{5});
    QCOMPARE(controller()->plan().algorithm, std::string("as-built"));  // USMP-on: TVM's own plan first
    QVERIFY(plan_fits(controller()->problem(), controller()->plan()));
    save_artefact(window_.get(), QStringLiteral("mlf_module_mini.png"));
    QFile::remove(path);
  }

  void unreadable_input_keeps_the_previous_model() {
    QSignalSpy failed(controller(), &app::ExplorerController::load_failed);
    QVERIFY(window_->open_path(QString::fromStdString(testing::fixture_path("bad/negative_size.json"))));
    controller()->wait_idle();
    QCOMPARE(failed.count(), 1);
    QVERIFY(failed.at(0).at(0).toString().contains(
        QStringLiteral("negative_size.json:6:66: size_bytes must not be negative")));
    QCOMPARE(controller()->problem().buffers.size(), size_t{19});
  }

  void export_sources_writes_the_replanned_model() {
    // A problem file has no C to rewrite: the action is off and says why.
    QAction* action = nullptr;
    for (QAction* a : window_->findChildren<QAction*>()) {
      if (a->text() == QStringLiteral("&Export Sources…")) action = a;
    }
    QVERIFY(action);
    QVERIFY(!action->isEnabled());
    QString why;
    QVERIFY(!controller()->can_export_sources(&why));
    QVERIFY(why.contains(QStringLiteral("Model Library Format")));

    QVERIFY(window_->open_path(QString::fromStdString(testing::fixture_path("mlf/usmp_default_pools"))));
    controller()->wait_idle();
    QVERIFY(action->isEnabled());
    window_->algorithm_box()->setCurrentText(QStringLiteral("hill_climb"));
    controller()->wait_idle();
    QCOMPARE(controller()->plan().total_size(), 440);
    app::ExportDialog dialog(*controller(), window_.get());
    QVERIFY(dialog.target().endsWith(QStringLiteral("usmp_default_pools_replanned")));
    QCOMPARE(dialog.pools_table()->rowCount(), 2);
    QCOMPARE(dialog.pools_table()->item(1, 0)->text(), QStringLiteral("global_workspace"));
    QCOMPARE(dialog.pools_table()->item(1, 1)->text(), QLocale().toString(128));
    QCOMPARE(dialog.pools_table()->item(1, 3)->text(), QStringLiteral(".bss.noinit.tvm"));
    dialog.show();
    save_artefact(&dialog, QStringLiteral("export_dialog.png"));

    const QString target = QDir::temp().filePath(QStringLiteral("usmpx-gui-export"));
    QDir(target).removeRecursively();
    QSignalSpy finished(controller(), &app::ExplorerController::export_finished);
    window_->start_export(target, true);
    controller()->wait_idle();
    QCOMPARE(finished.count(), 1);
    QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(1).toString()));
    QFile lib0(target + QStringLiteral("/codegen/host/src/default_lib0.c"));
    QVERIFY(lib0.open(QIODevice::ReadOnly));
    QVERIFY(lib0.readAll().contains("static uint8_t global_workspace[128];"));
    QVERIFY(QFile::exists(target + QStringLiteral("/harness/Makefile")));
    // A second export into the now non-empty folder is refused in batch mode (a dialog asks otherwise).
    window_->start_export(target, false);
    controller()->wait_idle();
    QCOMPARE(finished.count(), 1);
    QDir(target).removeRecursively();

    // A TIR dump exports too: C generated from the TIR, as an MLF archive.
    QVERIFY(
        window_->open_path(QString::fromStdString(testing::source_path("resources/examples/kws_dscnn.tvmscript.py"))));
    controller()->wait_idle();
    QVERIFY(action->isEnabled());
    const QString tar = QDir::temp().filePath(QStringLiteral("usmpx-gui-export-tir.tar"));
    QFile::remove(tar);
    window_->start_export(tar, false);
    controller()->wait_idle();
    QCOMPARE(finished.count(), 2);
    QVERIFY2(finished.at(1).at(0).toBool(), qPrintable(finished.at(1).at(1).toString()));
    QVERIFY(finished.at(1).at(1).toString().contains(QStringLiteral("codegen/host/src/default_lib1.c")));
    QVERIFY(QFile::exists(tar));
    QFile::remove(tar);
  }
};

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
