// The window and the command line say the same of every kind of input because both ask core once
// (inputs/input_facts.h): the check of the plan an input carries, its memory pressure, whether it
// can be exported and why not, the runtime builds its figures depend on. Driven on one input of
// each kind; and no source file of app/ or views/ names an input family.
#include <QAction>
#include <QDirIterator>
#include <QFile>
#include <QMenu>
#include <QRegularExpression>
#include <QtTest>

#include "app/cli_run.h"
#include "base/size_text.h"
#include "explorer_window_fixture.h"
#include "inputs/input_facts.h"
#include "inputs/input_file.h"
#include "test_support.h"

using namespace usmpx;

namespace {

QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

// One input of every kind the explorer opens, written by this project.
QStringList inputs_of_every_kind() {
  return {qs(testing::source_path("resources/examples/kws_cnn.problem.json")),
          qs(testing::fixture_path("mlf/usmp_default_pools")),
          qs(testing::fixture_path("mlf/aot_2021_tree")),
          qs(testing::source_path("resources/examples/kws_dscnn.tvmscript.py")),
          qs(testing::source_path("resources/examples/kws_dscnn.planned.tvmscript.py")),
          qs(testing::source_path("resources/examples/vww_mobilenet.legacy.txt")),
          qs(testing::source_path("resources/examples/tiny_classifier.tflite")),
          qs(testing::source_path("resources/examples/six_step_chain.pte")),
          qs(testing::fixture_path("firmware/tvm_pair/tvm_pair.usmpx-firmware.json"))};
}

}  // namespace

class TestOneComputation : public ExplorerWindowFixture {
  Q_OBJECT

 private slots:
  void init() { make_window(1280, 720); }
  void cleanup() { window_.reset(); }

  void window_and_command_line_say_the_same_of_every_kind() {
    for (const QString& path : inputs_of_every_kind()) {
      const LoadedInput input = load_input(path.toStdString());
      const AsBuiltNote note = as_built_note(input);
      open(path);
      // The as-built check: the CLI's text and the window's clause from the one function.
      QCOMPARE(controller()->reference_fidelity(), qs(note.verdict));
      const testing::CliRun info = testing::run_usmpx({"info", path.toStdString()});
      QCOMPARE(info.code, 0);
      QVERIFY2(info.out.find(note.text) != std::string::npos, info.out.c_str());
      if (input.as_built) QVERIFY2(!note.verdict.empty(), qPrintable(path));
      // Memory pressure: the figure `info` prints is core's.
      QVERIFY2(info.out.find("memory pressure " + format_bytes_for_test(input_memory_pressure(input)) + " bytes") !=
                   std::string::npos,
               info.out.c_str());
      // Exportability: offered exactly when core says so, refused with core's reason.
      QString why;
      const bool exportable = controller()->can_export_sources(&why);
      if (!input.exporter) {
        QVERIFY(!exportable);
        QVERIFY2(why.contains(qs(export_refusal(input))), qPrintable(why));
      } else {
        QVERIFY2(export_refusal(input).empty(), qPrintable(path));
      }
      // The build menu is there for the inputs whose figures depend on a build, and only those.
      QCOMPARE(window_->findChild<QMenu*>(QStringLiteral("tflmBuildMenu"))->isEnabled(),
               !runtime_builds(input).empty());
      // Whose plan the status bar's tooltip names: the input's own, never TVM's for a .tflite or .pte.
      if (!controller()->reference_fidelity().isEmpty()) {
        QVERIFY2(window_->status_totals()->toolTip().contains(controller()->reference_name() +
                                                              QStringLiteral("'s plan as read")),
                 qPrintable(window_->status_totals()->toolTip()));
      }
    }
  }

  void a_carried_tflite_plan_is_checked_as_tflite_not_by_tvms_planners() {
    const std::string model = testing::shared_path("tflite/models/person_detect_vela.tflite");
    if (model.empty()) QSKIP("shared data not found: tflite/models/person_detect_vela.tflite");
    open(qs(model));
    QVERIFY2(controller()->reference_fidelity().startsWith(QStringLiteral("the model's OfflineMemoryAllocation fixes")),
             qPrintable(controller()->reference_fidelity()));
    QVERIFY(!controller()->reference_fidelity().contains(QStringLiteral("reproduces")));
  }

  void app_and_views_never_name_an_input_family() {
    // The input-kind table lives in core; app/ and views/ ask the input's frontend.
    const QRegularExpression family(QStringLiteral(R"(InputFormat::k|family\s*==\s*"|\.reference\s*[!=]=\s*")"));
    int files = 0;
    for (const char* folder : {"app", "views"}) {
      QDirIterator it(qs(testing::source_path(folder)), {QStringLiteral("*.cpp"), QStringLiteral("*.h")}, QDir::Files,
                      QDirIterator::Subdirectories);
      while (it.hasNext()) {
        QFile file(it.next());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(file.readAll());
        const QRegularExpressionMatch m = family.match(text);
        QVERIFY2(!m.hasMatch(), qPrintable(file.fileName() + QStringLiteral(": ") + m.captured(0)));
        ++files;
      }
    }
    QVERIFY(files > 40);
  }

 private:
  static std::string format_bytes_for_test(int64_t bytes) { return with_separators(bytes); }
};

QTEST_MAIN(TestOneComputation)
#include "tst_one_computation.moc"
