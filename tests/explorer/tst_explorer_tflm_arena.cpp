// The explorer answers "how big must kTensorArenaSize be?" for a .tflite as usmpx does: the status
// bar names the arena for the TFLM build chosen in Plan ▸ TFLM Build, the choice reads the model
// again (scratch buffers and tail change), is kept in the session file and restored from it, and
// the report says the same. The status line that carries it is never drawn over at 1280x720.
#include <QAction>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QStatusBar>
#include <QtTest>

#include "base/text_file.h"
#include "explorer_controller.h"
#include "main_window.h"
#include "report_writer.h"
#include "test_support.h"

using namespace usmpx;

class TestExplorerTflmArena : public QObject {
  Q_OBJECT

 private:
  std::unique_ptr<app::MainWindow> window_;
  app::ExplorerController* controller() { return window_->controller(); }

  QAction* build_action(const QString& starts_with) {
    auto* menu = window_->findChild<QMenu*>(QStringLiteral("tflmBuildMenu"));
    if (!menu) return nullptr;
    for (QAction* a : menu->actions()) {
      if (a->text().remove(QLatin1Char('&')).startsWith(starts_with)) return a;
    }
    return nullptr;
  }

 private slots:
  void init() {
    window_ = std::make_unique<app::MainWindow>();
    window_->set_batch_mode(true);
    window_->resize(1280, 720);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  }
  void cleanup() { window_.reset(); }

  bool inside_window(const QWidget* child) const {
    return window_->rect().contains(QRect(child->mapTo(window_.get(), QPoint(0, 0)), child->size()));
  }

  void the_arena_follows_the_chosen_build_and_is_kept_in_the_session() {
    const std::string model = testing::shared_path("tflite/models/str_ww_ref_model.tflite");
    if (model.empty()) QSKIP("shared data not found: tflite/models/str_ww_ref_model.tflite");
    QVERIFY(window_->open_path(QString::fromStdString(model)));
    controller()->wait_idle();
    QVERIFY(controller()->has_input());
    // The smallest arena TFLM runs MLPerf Tiny's wake word in (tflm_min_arena.json): 15,264 bytes
    // with reference kernels on a Cortex-M4, 16,596 with CMSIS-NN.
    QVERIFY2(window_->status_totals()->text().contains(
                 QStringLiteral("kTensorArenaSize = 15,264 B (TFLM reference, cortex-m)")),
             qPrintable(window_->status_totals()->text()));
    // The whole line, as usmpx ends with it, first in the tooltip, above the reference plan's.
    const QString tooltip = window_->status_totals()->toolTip();
    QVERIFY2(tooltip.startsWith(QStringLiteral("kTensorArenaSize = 15264 bytes (head 6656 + persistent 8596, planning "
                                               "needs 9840; TFLM 90b983c, reference, cortex-m)\n")),
             qPrintable(tooltip));
    QVERIFY2(tooltip.contains(QStringLiteral("\nReference plan: tflm_greedy (TFLM's own planner)")),
             qPrintable(tooltip));
    QAction* cmsis = build_action(QStringLiteral("CMSIS-NN"));
    QVERIFY(cmsis && cmsis->isEnabled());
    cmsis->trigger();
    controller()->wait_idle();
    QVERIFY2(window_->status_totals()->text().contains(
                 QStringLiteral("kTensorArenaSize = 16,596 B (TFLM cmsis_nn, cortex-m)")),
             qPrintable(window_->status_totals()->text()));
    QVERIFY(cmsis->isChecked());
    QVERIFY(controller()->modified());  // the choice is part of the session, not yet saved

    const QString session = QDir::temp().filePath(QStringLiteral("usmpx_tflm_arena.usmpx.json"));
    QString error;
    QVERIFY2(controller()->save_session(session, &error), qPrintable(error));
    QVERIFY(!controller()->modified());
    const std::string text = read_text_file(session.toStdString());
    QVERIFY2(text.find("\"runtime_kernels\": \"cmsis_nn\"") != std::string::npos, text.c_str());

    // Another model, then the session again: the build comes back with it.
    QVERIFY(
        window_->open_path(QString::fromStdString(testing::source_path("resources/examples/tiny_classifier.tflite"))));
    controller()->wait_idle();
    build_action(QStringLiteral("Reference"))->trigger();
    controller()->wait_idle();
    QVERIFY(window_->status_totals()->text().contains(QStringLiteral("(TFLM reference, cortex-m)")));
    QVERIFY2(controller()->open_session(session, &error), qPrintable(error));
    controller()->wait_idle();
    QVERIFY(build_action(QStringLiteral("CMSIS-NN"))->isChecked());
    QVERIFY(window_->status_totals()->text().contains(QStringLiteral("16,596 B")));

    // The report's first page (PDF) and its HTML review say the same.
    const QString line = QStringLiteral(
        "kTensorArenaSize = 16596 bytes (head 7936 + persistent 8660, planning needs 10196; TFLM 90b983c, cmsis_nn, "
        "cortex-m)");
    const QString summary = app::report_summary_html(*controller(), *window_->chart());
    QVERIFY2(summary.contains(QStringLiteral("Memory the firmware needs:</b> ") + line), qPrintable(summary));
    // Kept among the test artefacts to be looked at, with the window as a user sees it.
    const QString folder = QStringLiteral(USMPX_ARTEFACTS_DIR "/tflm_arena_report");
    QDir(folder).removeRecursively();
    QTest::qWait(100);
    window_->grab().save(QStringLiteral(USMPX_ARTEFACTS_DIR "/tflm_arena_1280x720.png"));
    QVERIFY2(!app::write_review_report(*controller(), *window_->chart(), folder, &error).isEmpty(), qPrintable(error));
    const std::string html = read_text_file(QDir(folder).filePath(QStringLiteral("report.html")).toStdString());
    QVERIFY2(html.find("Memory the firmware needs:</b> " + line.toStdString()) != std::string::npos, html.c_str());
    QFile::remove(session);
  }

  // A .pte's status line (plan, reference, what the method allocator needs) takes most of a
  // 1280-pixel status bar: "Planned with ..." is shown only where it fits whole beside it.
  void planned_messages_are_never_cut_off_by_the_status_line() {
    QVERIFY(window_->open_path(QString::fromStdString(testing::source_path("resources/examples/six_step_chain.pte"))));
    controller()->wait_idle();
    QTest::qWait(50);
    const QString line = window_->status_totals()->text();
    QVERIFY2(line.contains(QStringLiteral("forward: 864 B planned + 536 B allocator (Cortex-M)")), qPrintable(line));
    QStatusBar* bar = window_->statusBar();
    const QString message = bar->currentMessage();
    const int room = bar->width() - window_->status_totals()->width();
    QVERIFY2(message.isEmpty() || bar->fontMetrics().horizontalAdvance(message) < room,
             qPrintable(QStringLiteral("'%1' in %2 px").arg(message).arg(room)));
    QVERIFY(inside_window(window_->status_totals()));
    // Where there is room, the message is there.
    window_->resize(1600, 1000);
    QVERIFY(
        window_->open_path(QString::fromStdString(testing::source_path("resources/examples/kws_cnn.problem.json"))));
    controller()->wait_idle();
    QVERIFY2(bar->currentMessage().startsWith(QStringLiteral("Planned with greedy_by_size in ")),
             qPrintable(bar->currentMessage()));
  }

  void the_build_menu_is_offered_for_tflite_models_only() {
    QVERIFY(
        window_->open_path(QString::fromStdString(testing::source_path("resources/examples/kws_cnn.problem.json"))));
    controller()->wait_idle();
    auto* menu = window_->findChild<QMenu*>(QStringLiteral("tflmBuildMenu"));
    QVERIFY(menu);
    QVERIFY(!menu->isEnabled());
    QVERIFY(controller()->runtime_status().isEmpty());
  }
};

QTEST_MAIN(TestExplorerTflmArena)
#include "tst_explorer_tflm_arena.moc"
