// Each family opens on its own toolchain's plan, named as that toolchain (TVM, TFLM, ExecuTorch):
// legends, the arena figure first for TFLite models.
#include <QAction>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QListWidget>
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
#include <QWheelEvent>
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
#include "explorer_test_support.h"
#include "explorer_window_fixture.h"
#include "export_dialog.h"
#include "inputs/input_file.h"
#include "main_window.h"
#include "model/conflict_graph.h"
#include "model/problem_json_writer.h"
#include "panels/inspector_widget.h"
#include "panels/pool_editor_widget.h"
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

class TestExplorerReferencePlans : public ExplorerTestFixture {
  Q_OBJECT

 private slots:
  void initTestCase() { start_test_case("reference_plans"); }

  void init() { start_test(); }

  void cleanup() { window_.reset(); }

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
    const QString exported = QDir::temp().filePath(QStringLiteral("usmpx_reference_plans_planned.tflite"));
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

  // Item 3: the arena line comes first in the status tooltip, the Diagnostics panel, the PDF
  // summary and the HTML review.
  void the_arena_figure_comes_first() {
    // An Ethos-U model: exact since the ethos-u kernel's rule (tflm_ethos_u.json: 74,936 on Cortex-M),
    // the assumption that the firmware registers that kernel said in the line.
    const std::string model = testing::shared_path("tflite/models/person_detect_vela.tflite");
    if (model.empty()) QSKIP("shared data not found: tflite/models/person_detect_vela.tflite");
    open(qs(model));
    const QString line = controller()->runtime_memory_text();
    QVERIFY2(line.startsWith(QStringLiteral("kTensorArenaSize = 74936 bytes")), qPrintable(line));
    QVERIFY2(line.contains(QStringLiteral("Ethos-U kernel")), qPrintable(line));  // what it assumes is said
    QVERIFY2(window_->status_totals()->toolTip().startsWith(line + QStringLiteral("\n")),
             qPrintable(window_->status_totals()->toolTip()));
    // The Diagnostics panel's first row: the figure, then what it assumes.
    QCOMPARE(diagnostics_row(0), QStringLiteral("Memory the firmware needs: ") +
                                     QString(line).replace(QLatin1Char('\n'), QStringLiteral("; ")));
    QVERIFY(diagnostics_row(0).contains(QStringLiteral("Ethos-U")));
    const QString pdf = app::report_summary_html(*controller(), *window_->chart());
    QVERIFY(pdf.indexOf(QStringLiteral("Memory the firmware needs")) < pdf.indexOf(QStringLiteral("<table")));
    const QString html = report(QStringLiteral("reference_plans_report_tflite"));
    QVERIFY(html.indexOf(QStringLiteral("Memory the firmware needs")) < html.indexOf(QStringLiteral("<h2>Pools")));
    // Vela's offline plan overlaps tensors on purpose (the NPU orders their use): read as Vela's intent, valid.
    QVERIFY(!html.contains(QStringLiteral("invalid (see the errors below)")));
    // Item 9: headers and numbers never wrap, nothing breaks inside a word anywhere; names break
    // after '/' and '_' and are whole on hover.
    QVERIFY(html.contains(QStringLiteral("th{background:#f0f0f0;white-space:nowrap}")));
    QVERIFY(!html.contains(QStringLiteral("overflow-wrap:anywhere")));
    QVERIFY2(html.contains(QStringLiteral("<td class=\"name\" title=\"_split_1_scratch_fast\">_<wbr>split_<wbr>1_<wbr>"
                                          "scratch_<wbr>fast</td>")),
             qPrintable(html));
    window_->resize(1280, 720);
    save_artefact(window_.get(), QStringLiteral("reference_plans_tflite_1280x720.png"));
  }
};

QTEST_MAIN(TestExplorerReferencePlans)
#include "tst_explorer_reference_plans.moc"
