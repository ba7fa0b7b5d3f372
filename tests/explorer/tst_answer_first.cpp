// What a user came for comes first and nothing misleads (docs/explorer.md): the figure to paste
// heads its pool's chart, a program's memory is one short row per method (a table in reports),
// the status bar is never cut by its own text, an input switches all at once with a busy bar while
// it loads, a pin says what it costs, a saving is stated against the input's own planner, what a
// TIR dump lacks is said on load, and a pool's section is never shown blank.
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "base/text_file.h"
#include "compare_dialog.h"
#include "explorer_window_fixture.h"
#include "frontends/frontend.h"
#include "report_writer.h"
#include "test_support.h"

using namespace usmpx;

namespace {

QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

}  // namespace

class TestAnswerFirst : public ExplorerWindowFixture {
  Q_OBJECT

  QString diagnostics_row(int row) { return window_->diagnostics_view()->model()->index(row, 0).data().toString(); }

 private slots:
  void init() { make_window(1600, 1000); }
  void cleanup() { window_.reset(); }

  void the_arena_figure_heads_the_arena_chart() {
    const std::string model = testing::shared_path("tflite/models/person_detect.tflite");
    if (model.empty()) QSKIP("shared data not found: tflite/models/person_detect.tflite");
    open(qs(model));
    // TFLM's smallest arena for person_detect, reference kernels on Cortex-M (tflm_min_arena.json).
    const QString title = window_->chart()->pool_title(0);
    QVERIFY2(title.startsWith(QStringLiteral("kTensorArenaSize = 82,296 B  ·  arena")), qPrintable(title));
    // The same figure as the status bar's and `usmpx plan`'s line.
    QVERIFY(controller()->runtime_memory_text().startsWith(QStringLiteral("kTensorArenaSize = 82296 bytes")));
    save_artefact(window_.get(), QStringLiteral("answer_first_tflite_1600x1000.png"));
  }

  void compare_lists_each_plans_ktensorarenasize() {
    const std::string model = testing::shared_path("tflite/models/hello_world_int8.tflite");
    if (model.empty()) QSKIP("shared data not found: tflite/models/hello_world_int8.tflite");
    open(qs(model));
    app::CompareDialog dialog(controller(), window_.get());
    QListWidget* list = dialog.choices();
    for (int i = 0; i < list->count(); ++i) {
      const QString name = list->item(i)->text();
      list->item(i)->setCheckState(name == QStringLiteral("tflm_greedy") || name == QStringLiteral("greedy_by_size")
                                       ? Qt::Checked
                                       : Qt::Unchecked);
    }
    dialog.show();
    QSignalSpy ready(controller(), &app::ExplorerController::comparison_ready);
    dialog.run();
    QVERIFY(ready.wait(60000));
    QTest::qWait(50);
    QTableWidget* table = dialog.table();
    int column = -1;
    for (int c = 0; c < table->columnCount(); ++c)
      if (table->horizontalHeaderItem(c)->text() == QStringLiteral("kTensorArenaSize")) column = c;
    QVERIFY(column > 0);
    for (int r = 0; r < table->rowCount(); ++r) {
      // TFLM's own plan of hello_world runs in 1,068 bytes (tflm_min_arena.json), as `usmpx compare` says.
      if (table->item(r, 0)->text() == QStringLiteral("tflm_greedy"))
        QCOMPARE(table->item(r, column)->text(), QStringLiteral("1,068"));
    }
  }

  void a_program_says_its_memory_one_short_row_per_method() {
    const std::string program = testing::shared_path("executorch/models/xor_training.pte");
    if (program.empty()) QSKIP("shared data not found: executorch/models/xor_training.pte");
    open(qs(program));
    const std::vector<std::string> rows =
        controller()->input().details->memory_rows(controller()->problem(), controller()->plan());
    QVERIFY(rows.size() >= 2);
    QCOMPARE(diagnostics_row(0), QStringLiteral("Memory the firmware needs: ") + qs(rows[0]));
    for (size_t r = 1; r < rows.size(); ++r)
      QCOMPARE(diagnostics_row(static_cast<int>(r)), qs(rows[r]));
    for (const std::string& row : rows) {
      QVERIFY2(row.size() < 150, row.c_str());  // one short line, not a paragraph
      QVERIFY2(row.find(" B in all") != std::string::npos, row.c_str());
    }
    // Reports: a table of one row per method, never one run-on paragraph.
    const QString html = write_report(QStringLiteral("answer_first_pte_report"));
    QVERIFY2(html.contains(QStringLiteral("<table class=\"runtime-memory\"><tr><td>") + qs(rows[0]).toHtmlEscaped()),
             qPrintable(html.left(3000)));
    const QString pdf = app::report_summary_html(*controller(), *window_->chart());
    QVERIFY2(pdf.contains(QStringLiteral("<tr><td>%1</td></tr>").arg(qs(rows[1]).toHtmlEscaped())), qPrintable(pdf));
    QVERIFY(!pdf.contains(QStringLiteral("TVM's plan")));
    window_->resize(1280, 720);
    save_artefact(window_.get(), QStringLiteral("answer_first_pte_1280x720.png"));
  }

  void a_tiny_gap_does_not_swallow_the_status_bar() {
    // first_fit puts the large buffer first and the two small aligned ones above it: 40,025 bytes
    // over a bound of 40,010 (both small ones at 0, the large one above), a gap below 0.1 %.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("tiny_gap.json"));
    write_file_atomically(path.toStdString(), R"({"format": "usmpx-problem", "version": 1,
      "pools": [{"name": "sram", "kind": "workspace", "size_hint_bytes": -1, "alignment": 1}],
      "buffers": [{"name": "a", "size_bytes": 40001, "alignment": 1, "kind": "intermediate",
                   "pool_candidates": ["sram"], "lifetime": [0, 1]},
                  {"name": "x", "size_bytes": 9, "alignment": 16, "kind": "intermediate",
                   "pool_candidates": ["sram"], "lifetime": [0, 0]},
                  {"name": "y", "size_bytes": 9, "alignment": 16, "kind": "intermediate",
                   "pool_candidates": ["sram"], "lifetime": [1, 1]}]})");
    open(path);
    use_algorithm("first_fit");
    QCOMPARE(controller()->plan().total_size(), int64_t{40025});
    QCOMPARE(controller()->plan().lower_bound_bytes, int64_t{40010});
    const QString text = window_->status_totals()->text();
    QVERIFY2(text.contains(QStringLiteral("gap &lt;0.1%")), qPrintable(text));
    // Everything after the gap is still there (the "<0.1%" once opened a tag that ate the rest).
    QVERIFY2(text.contains(QStringLiteral("fits")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("3 buffers")), qPrintable(text));
  }

  void an_input_switches_all_at_once_and_loading_shows_progress() {
    open(qs(testing::source_path("resources/examples/kws_cnn.problem.json")));
    const QString old_title = window_->windowTitle();
    const int old_rows = window_->buffer_table()->model()->rowCount();
    auto* progress = window_->findChild<QProgressBar*>();
    QVERIFY(progress);
    bool checked = false;
    // Right after the input is read, before its first plan: the window still shows the old one whole.
    connect(controller(), &app::ExplorerController::input_loaded, this, [&] {
      QCOMPARE(window_->windowTitle(), old_title);
      QCOMPARE(window_->buffer_table()->model()->rowCount(), old_rows);
      checked = true;
    });
    QVERIFY(window_->open_path(qs(testing::source_path("resources/examples/tiny_classifier.tflite"))));
    QVERIFY(progress->isVisible());  // busy from the first moment of loading
    controller()->wait_idle();
    QVERIFY(checked);
    QVERIFY2(window_->windowTitle().startsWith(QStringLiteral("tiny_classifier.tflite")),
             qPrintable(window_->windowTitle()));
    QCOMPARE(window_->buffer_table()->model()->rowCount(), static_cast<int>(controller()->problem().buffers.size()));
    QVERIFY(!progress->isVisible());
  }

  void a_saving_is_stated_against_the_inputs_own_planner_and_a_pin_says_its_cost() {
    // A TIR dump before USMP: its reference is TVM's greedy_by_size, run here.
    open(qs(testing::source_path("resources/examples/kws_dscnn.tvmscript.py")));
    QCOMPARE(controller()->plan().algorithm, std::string("greedy_by_size"));
    QCOMPARE(controller()->reference_plan_bytes(), qint64{37300});
    QVERIFY(controller()->has_reference());
    QCOMPARE(controller()->reference_name(), QStringLiteral("greedy_by_size"));
    use_algorithm("best");
    const std::optional<qint64> delta = controller()->difference_to_reference();
    QVERIFY(delta && *delta < 0);
    QCOMPARE(*delta, controller()->plan().total_size() - 37300);
    QVERIFY2(window_->status_totals()->text().contains(QStringLiteral(" vs greedy_by_size")),
             qPrintable(window_->status_totals()->text()));
    // What the dump lacks is said when it is read, not only by an export.
    bool truncated = false;
    for (const Diagnostic& d : controller()->input().warnings)
      truncated = truncated || d.message ==
                                   "constant fused_constant: the dump holds 16 of its 2560 values; an "
                                   "export writes zeros for the rest, so its outputs differ from the model's";
    QVERIFY(truncated);

    // A pin at the far end of the pool: the plan grows, and the status bar says by how much.
    use_algorithm("greedy_by_size");
    const int64_t unpinned = controller()->plan().total_size();
    const Problem& problem = controller()->problem();
    int biggest = 0;
    for (size_t b = 0; b < problem.buffers.size(); ++b) {
      if (problem.buffers[b].kind == BufferKind::kIntermediate &&
          problem.buffers[b].size_bytes > problem.buffers[static_cast<size_t>(biggest)].size_bytes)
        biggest = static_cast<int>(b);
    }
    const Allocation& at = controller()->plan().allocations[static_cast<size_t>(biggest)];
    const std::string pool = problem.pools[static_cast<size_t>(at.pool)].name;
    SessionEdits next = with_pin(controller()->edits(), problem.buffers[static_cast<size_t>(biggest)].name,
                                 PinSpec{problem.buffers[static_cast<size_t>(biggest)].name, pool,
                                         (unpinned + 15) / 16 * 16});  // TVM's 16-byte alignment
    QVERIFY(controller()->apply_edit(QStringLiteral("pin"), next));
    controller()->wait_idle();
    const std::optional<qint64> cost = controller()->pin_cost();
    QVERIFY(cost);
    QCOMPARE(*cost, controller()->plan().total_size() - unpinned);
    QVERIFY(*cost > 0);
    QVERIFY2(window_->status_totals()->text().contains(QStringLiteral("pins cost +")),
             qPrintable(window_->status_totals()->text()));
  }

  void a_tflite_export_into_a_new_folder_writes_what_a_firmware_compiles() {
    open(qs(testing::source_path("resources/examples/tiny_classifier.tflite")));
    QTemporaryDir dir;
    const QString target = dir.filePath(QStringLiteral("new/firmware"));  // neither folder exists yet
    window_->start_export(target, false);
    controller()->wait_idle();
    for (const char* file :
         {"tiny_classifier_model_data.h", "tiny_classifier_model_data.cc", "tiny_classifier_memory.h"})
      QVERIFY2(QFileInfo::exists(target + QLatin1Char('/') + QLatin1String(file)), file);
    const std::string memory = read_text_file((target + QStringLiteral("/tiny_classifier_memory.h")).toStdString());
    // The figure the window shows heads the header the firmware includes.
    const QString line = controller()->runtime_memory_text();
    const QString figure = line.section(QLatin1Char(' '), 2, 2);  // "kTensorArenaSize = N bytes"
    QVERIFY2(memory.find("kTensorArenaSize = " + figure.toStdString()) != std::string::npos, memory.c_str());
  }

  void a_pools_section_is_never_blank() {
    open(qs(testing::fixture_path("mlf/usmp_default_pools")));
    QTableWidget* table = window_->pool_editor()->table();
    const int row = *controller()->problem().find_pool("global_workspace");
    constexpr int kSectionColumn = 5;
    QCOMPARE(table->item(row, kSectionColumn)->text(), QStringLiteral(".bss.noinit.tvm"));
    QVERIFY(table->item(row, kSectionColumn)->toolTip().contains(QStringLiteral("default section")));
    const QString html = write_report(QStringLiteral("answer_first_sections"));
    QVERIFY2(html.contains(QStringLiteral(".bss.noinit.tvm")), qPrintable(html.left(4000)));
    // Typing the default back is no edit; another name is one.
    QVERIFY(!controller()->history().can_undo());
  }
};

QTEST_MAIN(TestAnswerFirst)
#include "tst_answer_first.moc"
