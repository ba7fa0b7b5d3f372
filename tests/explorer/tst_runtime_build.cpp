// The runtime build the memory figures are for (Plan ▸ TFLM Build), driven as a user does: a new
// input opens on the default build whatever the previous one used, a build other than the
// default is said in the title, the status bar and the export dialog, a build switch is one undo
// step, and an export writes the figure for the build shown (never a host figure into firmware).
#include <QAction>
#include <QLabel>
#include <QMenu>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include "app/cli_run.h"
#include "base/text_file.h"
#include "explorer_window_fixture.h"
#include "export_dialog.h"
#include "runtime_build_menu.h"
#include "test_support.h"

using namespace usmpx;

namespace {

QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

// "1,808" of "kTensorArenaSize = 1,808 B" or "kTensorArenaSize = 1808 bytes": the figure's digits.
QString arena_digits(const QString& text) {
  const QRegularExpressionMatch m =
      QRegularExpression(QStringLiteral("kTensorArenaSize (?:=|>=) ([0-9,]+)")).match(text);
  return m.hasMatch() ? m.captured(1).remove(QLatin1Char(',')) : QString();
}

}  // namespace

class TestRuntimeBuild : public ExplorerWindowFixture {
  Q_OBJECT

  // A firmware file of two shared .tflite models in one arena, written into `dir`.
  QString two_model_firmware(const QTemporaryDir& dir) {
    const std::string kws = testing::shared_path("tflite/models/kws_ref_model.tflite");
    const std::string wand = testing::shared_path("tflite/models/arduino_magic_wand.tflite");
    if (kws.empty() || wand.empty()) return {};
    const QString path = dir.filePath(QStringLiteral("two.usmpx-firmware.json"));
    write_file_atomically(path.toStdString(), R"({"format": "usmpx-firmware", "version": 1, "models": [{"path": ")" +
                                                  kws + R"("}, {"path": ")" + wand + R"("}]})");
    return path;
  }

 private slots:
  void init() { make_window(1600, 1000); }
  void cleanup() { window_.reset(); }

  void a_host_build_never_carries_over_to_the_next_input() {
    const std::string model = testing::shared_path("tflite/models/hello_world_int8.tflite");
    if (model.empty()) QSKIP("shared data not found: tflite/models/hello_world_int8.tflite");
    QTemporaryDir dir;
    const QString firmware = two_model_firmware(dir);
    if (firmware.isEmpty()) QSKIP("shared data not found: tflite/models/kws_ref_model.tflite");

    open(qs(model));
    QVERIFY(controller()->default_runtime_build());
    QVERIFY2(!window_->windowTitle().contains(QStringLiteral("figures for")), qPrintable(window_->windowTitle()));
    tflm_build_action(QStringLiteral("x86-64"))->trigger();
    controller()->wait_idle();
    QCOMPARE(controller()->runtime_target(), QStringLiteral("x86-64"));
    // Not the default: said in the title and in the status bar, naming the build.
    QVERIFY2(
        window_->windowTitle().contains(QStringLiteral("(figures for TFLM tflite-micro 90b983c, reference, x86-64)")),
        qPrintable(window_->windowTitle()));
    // The status bar's figure names the build, in bold.
    QVERIFY2(window_->status_totals()->text().contains(QRegularExpression(
                 QStringLiteral("<b>kTensorArenaSize = [0-9,]+ B \\(TFLM reference, x86-64\\)</b>"))),
             qPrintable(window_->status_totals()->text()));
    {
      app::ExportDialog dialog(*controller(), window_.get());
      QVERIFY2(dialog.note()->text().contains(QStringLiteral("<b>Memory figures are for TFLM tflite-micro 90b983c, "
                                                             "reference, x86-64</b>, not the default build")),
               qPrintable(dialog.note()->text()));
    }

    // The next input opens on the default build: nothing of the host build stays.
    open(firmware);
    QCOMPARE(controller()->runtime_target(), QString());
    QVERIFY(controller()->default_runtime_build());
    QVERIFY2(!window_->windowTitle().contains(QStringLiteral("figures for")), qPrintable(window_->windowTitle()));
    QVERIFY(!window_->status_totals()->text().contains(QStringLiteral("x86-64")));
    // A firmware file of .tflite models offers the build menu (its arena depends on it).
    QVERIFY(window_->findChild<QMenu*>(QStringLiteral("tflmBuildMenu"))->isEnabled());
    {
      app::ExportDialog dialog(*controller(), window_.get());
      QVERIFY2(dialog.note()->text().contains(QStringLiteral("Memory figures are for TFLM tflite-micro 90b983c, "
                                                             "reference, cortex-m (the default build)")),
               qPrintable(dialog.note()->text()));
    }
    // What the export writes into the firmware's header is the Cortex-M figure, its build named.
    const QString out = dir.filePath(QStringLiteral("export"));
    window_->start_export(out, false);
    controller()->wait_idle();
    const std::string header = read_text_file(out.toStdString() + "/usmpx_firmware.h");
    QVERIFY2(header.find("reference, cortex-m") != std::string::npos, header.c_str());
    QVERIFY2(header.find("x86-64") == std::string::npos, header.c_str());
  }

  QMenu* version_menu() { return window_->findChild<QMenu*>(QStringLiteral("runtimeVersionMenu")); }
  QAction* version_action(const QString& starts_with) {
    for (QAction* a : version_menu()->actions())
      if (a->text().startsWith(starts_with)) return a;
    return nullptr;
  }
  QString said() { return window_->statusBar()->currentMessage() + window_->statusBar()->toolTip(); }

  // The version submenu lists TFLM's versions newest first, the default checked; a choice is an
  // undoable edit whose figure is the one `usmpx info --tflm-version` prints.
  void a_version_is_chosen_in_the_build_menu() {
    const std::string model = testing::source_path("resources/examples/tiny_classifier.tflite");
    open(qs(model));
    QVERIFY(version_menu());
    QStringList versions;
    for (QAction* a : version_menu()->actions())
      versions << a->text().section(QLatin1Char(' '), 0, 0).remove(QLatin1Char(':'));
    QCOMPARE(versions, (QStringList{QStringLiteral("90b983c"), QStringLiteral("2025-02-07"),
                                    QStringLiteral("2024-05-29"), QStringLiteral("2023-06-30")}));
    QVERIFY(version_action(QStringLiteral("90b983c (default)"))->isChecked());
    QVERIFY2(version_action(QStringLiteral("2024-05-29"))->text().contains(QStringLiteral("esp-tflite-micro v1.3.1")),
             qPrintable(version_action(QStringLiteral("2024-05-29"))->text()));

    version_action(QStringLiteral("2023-06-30"))->trigger();
    controller()->wait_idle();
    QCOMPARE(controller()->runtime_version(), QStringLiteral("2023-06-30"));
    QVERIFY(version_action(QStringLiteral("2023-06-30"))->isChecked());
    QVERIFY2(window_->windowTitle().contains(
                 QStringLiteral("(figures for TFLM tflite-micro 2023-06-30 (13cd6d8), reference, cortex-m)")),
             qPrintable(window_->windowTitle()));
    QCOMPARE(qs(controller()->history().undo_text()), QStringLiteral("TFLM version: 2023-06-30"));
    const testing::CliRun cli = testing::run_usmpx({"info", model, "--tflm-version", "2023-06-30"});
    QCOMPARE(cli.code, 0);
    const QString window_figure = arena_digits(controller()->runtime_memory_text());
    QVERIFY2(!window_figure.isEmpty(), qPrintable(controller()->runtime_memory_text()));
    QCOMPARE(window_figure, arena_digits(qs(cli.out)));

    QTest::keySequence(window_.get(), QKeySequence::Undo);
    controller()->wait_idle();
    QCOMPARE(controller()->runtime_version(), QString());
    QVERIFY(version_action(QStringLiteral("90b983c"))->isChecked());
    QCOMPARE(arena_digits(controller()->runtime_memory_text()),
             arena_digits(qs(testing::run_usmpx({"info", model}).out)));
  }

  // The firmware's TFLM tree names the version; a tree that does not is said, the version kept.
  void the_version_is_read_from_the_firmware_tree() {
    open(qs(testing::source_path("resources/examples/tiny_classifier.tflite")));
    auto* menu = window_->findChild<app::RuntimeBuildMenu*>(QStringLiteral("tflmBuildMenu"));
    QVERIFY(menu);
    QVERIFY(tflm_build_action(QStringLiteral("Read TFLM Version from Its Source Tree")));
    QCOMPARE(menu->read_version_from_tree(qs(testing::fixture_path("tflm_trees/2024-05-29"))),
             QStringLiteral("2024-05-29"));
    controller()->wait_idle();
    QCOMPARE(controller()->runtime_version(), QStringLiteral("2024-05-29"));
    save_artefact(window_.get(), QStringLiteral("runtime_version_from_tree_1600x1000.png"));
    QVERIFY2(said().contains(QStringLiteral("its kernels are TFLM 2024-05-29")), qPrintable(said()));

    QCOMPARE(menu->read_version_from_tree(qs(testing::fixture_path("tflm_trees/facts_missing"))), QString());
    controller()->wait_idle();
    QCOMPARE(controller()->runtime_version(), QStringLiteral("2024-05-29"));
    QVERIFY2(said().contains(QStringLiteral("cannot tell")) && said().contains(QStringLiteral("stays 2024-05-29")),
             qPrintable(said()));
  }

  // Cortex-M55 is a target of its own; CMSIS-NN (modelled for DSP cores) moves it to Cortex-M, ESP-NN
  // to an ESP32 and TFLM 90b983c, a host target back to the reference kernels: each said.
  void kernels_a_target_or_version_cannot_take_switch_and_say_so() {
    open(qs(testing::source_path("resources/examples/tiny_classifier.tflite")));
    tflm_build_action(QStringLiteral("Cortex-M55"))->trigger();
    controller()->wait_idle();
    QCOMPARE(controller()->runtime_target(), QStringLiteral("cortex-m55"));
    QVERIFY2(window_->windowTitle().contains(QStringLiteral("reference, cortex-m55)")),
             qPrintable(window_->windowTitle()));
    tflm_build_action(QStringLiteral("CMSIS-NN"))->trigger();
    controller()->wait_idle();
    QCOMPARE(controller()->runtime_kernels(), QStringLiteral("cmsis_nn"));
    QCOMPARE(controller()->runtime_target(), QStringLiteral("cortex-m"));
    QVERIFY2(said().contains(QStringLiteral("the target is now cortex-m, since these kernels build only for "
                                            "cortex-m")),
             qPrintable(said()));
    QVERIFY(tflm_build_action(QStringLiteral("Cortex-M Target"))->isChecked());

    // ESP-NN on an older version: modelled for the ESP32 targets and 90b983c only, both follow.
    version_action(QStringLiteral("2024-05-29"))->trigger();
    controller()->wait_idle();
    tflm_build_action(QStringLiteral("ESP-NN"))->trigger();
    controller()->wait_idle();
    QCOMPARE(controller()->runtime_kernels(), QStringLiteral("esp_nn"));
    QCOMPARE(controller()->runtime_target(), QStringLiteral("esp32s3"));
    QCOMPARE(controller()->runtime_version(), QStringLiteral("90b983c"));
    QVERIFY2(said().contains(QStringLiteral("the target is now esp32s3")) &&
                 said().contains(QStringLiteral("the version is now 90b983c")),
             qPrintable(said()));
    QCOMPARE(qs(controller()->history().undo_text()), QStringLiteral("TFLM build: esp_nn, esp32s3, 90b983c"));
    QVERIFY2(window_->windowTitle().contains(QStringLiteral("esp_nn")), qPrintable(window_->windowTitle()));
    // A host target takes the kernels that build for it.
    tflm_build_action(QStringLiteral("x86-64"))->trigger();
    controller()->wait_idle();
    QCOMPARE(controller()->runtime_kernels(), QStringLiteral("reference"));
    QVERIFY2(said().contains(QStringLiteral("the kernels are now the reference kernels, since esp_nn builds only for "
                                            "esp32s3")),
             qPrintable(said()));
  }

  void a_build_switch_is_one_undo_step() {
    open(qs(testing::source_path("resources/examples/tiny_classifier.tflite")));
    const QString default_line = controller()->runtime_memory_text();
    QVERIFY(default_line.contains(QStringLiteral("cortex-m")));
    tflm_build_action(QStringLiteral("x86-64"))->trigger();
    controller()->wait_idle();
    QVERIFY(controller()->runtime_memory_text().contains(QStringLiteral("x86-64")));
    QVERIFY(controller()->history().can_undo());
    QCOMPARE(qs(controller()->history().undo_text()), QStringLiteral("TFLM build: reference, x86-64"));
    QVERIFY(window_->isWindowModified());

    QTest::keySequence(window_.get(), QKeySequence::Undo);
    controller()->wait_idle();
    QCOMPARE(controller()->runtime_target(), QString());
    QCOMPARE(controller()->runtime_memory_text(), default_line);
    QVERIFY(!window_->isWindowModified());
    QVERIFY(tflm_build_action(QStringLiteral("Cortex-M"))->isChecked());

    QTest::keySequence(window_.get(), QKeySequence(QStringLiteral("Ctrl+Shift+Z")));  // Edit ▸ Redo
    controller()->wait_idle();
    QCOMPARE(controller()->runtime_target(), QStringLiteral("x86-64"));
    QVERIFY(controller()->runtime_memory_text().contains(QStringLiteral("x86-64")));
    QVERIFY(tflm_build_action(QStringLiteral("x86-64"))->isChecked());
    save_artefact(window_.get(), QStringLiteral("runtime_build_x86_1600x1000.png"));
  }
};

QTEST_MAIN(TestRuntimeBuild)
#include "tst_runtime_build.moc"
