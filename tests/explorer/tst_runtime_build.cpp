// The runtime build the memory figures are for (Plan ▸ TFLM Build), driven as a user does: a new
// input opens on the default build whatever the previous one used, a build other than the
// default is said in the title, the status bar and the export dialog, a build switch is one undo
// step, and an export writes the figure for the build shown (never a host figure into firmware).
#include <QAction>
#include <QLabel>
#include <QMenu>
#include <QTemporaryDir>
#include <QtTest>

#include "base/text_file.h"
#include "explorer_window_fixture.h"
#include "export_dialog.h"
#include "test_support.h"

using namespace usmpx;

namespace {

QString qs(const std::string& s) {
  return QString::fromStdString(s);
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
    QVERIFY2(window_->status_totals()->text().contains(QStringLiteral("figures for TFLM tflite-micro 90b983c, "
                                                                      "reference, x86-64")),
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
