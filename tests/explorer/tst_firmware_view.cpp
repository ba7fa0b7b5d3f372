// A firmware file of several models in the window, as a user reads it: the Models panel gives
// each model's own figure, the shared one and the saving from sharing, and says which number to
// paste; one model can be shown at a time (the charts zoom to its ticks, the buffer table lists
// its buffers only); the HTML report and the PDF's first page give the same figures.
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>
#include <set>

#include "base/size_text.h"
#include "base/text_file.h"
#include "explorer_window_fixture.h"
#include "inputs/input_file.h"
#include "panels/models_panel.h"
#include "report_writer.h"
#include "tables/buffer_table_model.h"
#include "test_support.h"

using namespace usmpx;

namespace {

QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

QString bytes(int64_t n) {
  return qs(with_separators(n)) + QStringLiteral(" B");
}

// The joint pool's size in a plan of the window's problem.
int64_t pool_bytes(const app::ExplorerController& c, const std::string& pool) {
  const auto p = c.problem().find_pool(pool);
  return p ? c.plan().pool_sizes.at(static_cast<size_t>(*p)) : -1;
}

// What a model needs alone of `pool`: the plan its own input carries (TVM's as-built).
int64_t alone_bytes(const std::string& path, const std::string& pool) {
  const LoadedInput input = load_input(path);
  const auto p = input.problem.find_pool(pool);
  if (!p || !input.as_built) return -1;
  return input.as_built->pool_sizes.at(static_cast<size_t>(*p));
}

// kTensorArenaSize a .tflite needs alone, as its own `usmpx plan` line gives it.
int64_t alone_arena(const std::string& path) {
  const LoadedInput input = load_input(path);
  const std::optional<Plan> plan = input.details->reference_plan(input.problem);
  const QString text = qs(input.details->closing_text(input.problem, *plan));
  const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("kTensorArenaSize >?= ([0-9,]+)")).match(text);
  return m.hasMatch() ? m.captured(1).remove(QLatin1Char(',')).toLongLong() : -1;
}

}  // namespace

class TestFirmwareView : public ExplorerWindowFixture {
  Q_OBJECT

  QString tvm_pair() const { return qs(testing::fixture_path("firmware/tvm_pair/tvm_pair.usmpx-firmware.json")); }

  void choose_model(int model) {
    QComboBox* box = window_->models_panel()->model_box();
    box->setCurrentIndex(model + 1);
    emit box->activated(model + 1);  // as a click on the entry does
    QTest::qWait(20);
  }

  std::set<int> listed_buffers() {
    std::set<int> listed;
    QAbstractItemModel* model = window_->buffer_table()->model();
    for (int r = 0; r < model->rowCount(); ++r)
      listed.insert(model->index(r, 0).data(views::BufferTableModel::kBufferRole).toInt());
    return listed;
  }

 private slots:
  void cleanup() { window_.reset(); }

  // The TVM pair sharing global_workspace: each model alone (its own TVM plan), the sum, the joint
  // plan's pool and the saving, and the macro the export writes the size into.
  void the_panel_gives_each_model_the_shared_pool_and_the_saving() {
    make_window(1600, 1000);
    open(tvm_pair());
    QVERIFY(window_->models_dock()->isVisible());
    const int64_t first = alone_bytes(testing::fixture_path("firmware/tvm_pair/first"), "global_workspace");
    const int64_t second = alone_bytes(testing::fixture_path("firmware/tvm_pair/second"), "global_workspace");
    QVERIFY(first > 0 && second > 0);
    const int64_t shared = pool_bytes(*controller(), "global_workspace");
    QVERIFY(shared > 0 && shared < first + second);
    const QString text = window_->models_panel()->figures()->text();
    const QString expected =
        QStringLiteral("first %1 + second %2 = %3 separately; shared %4: saves %5")
            .arg(bytes(first), bytes(second), bytes(first + second), bytes(shared), bytes(first + second - shared));
    QVERIFY2(text.contains(expected), qPrintable(text + "\nexpected: " + expected));
    QVERIFY2(
        text.contains(QStringLiteral("paste %1 as the pool's size (USMPX_GLOBAL_WORKSPACE_SIZE in usmpx_firmware.h)")
                          .arg(qs(with_separators(shared)))),
        qPrintable(text));
    save_artefact(window_.get(), QStringLiteral("firmware_view_tvm_pair_1600x1000.png"));
    // The same figures in the HTML report and on the PDF's first page.
    // Kept among the test artefacts, to be looked at.
    const QDir dir(QStringLiteral(USMPX_ARTEFACTS_DIR "/firmware_view_report"));
    QString error;
    QVERIFY2(!app::write_review_report(*controller(), *window_->chart(), dir.path(), &error).isEmpty(),
             qPrintable(error));
    const QString html = qs(read_text_file(dir.filePath(QStringLiteral("report.html")).toStdString()));
    QVERIFY(html.contains(QStringLiteral("<h2>Sharing between the models</h2>")));
    QVERIFY2(html.contains(QStringLiteral("first %1 B<br>second %2 B</td><td class=\"n\">%3 B</td><td class=\"n\">%4 "
                                          "B</td><td class=\"n\">saves %5 B</td>")
                               .arg(qs(with_separators(first)), qs(with_separators(second)),
                                    qs(with_separators(first + second)), qs(with_separators(shared)),
                                    qs(with_separators(first + second - shared)))),
             qPrintable(html));
    const QString pdf = app::report_summary_html(*controller(), *window_->chart());
    QVERIFY2(pdf.contains(QStringLiteral("Sharing between the models")) &&
                 pdf.contains(QStringLiteral("saves %1").arg(bytes(first + second - shared))),
             qPrintable(pdf));
    // An input of one model has no Models panel.
    open(qs(testing::fixture_path("firmware/tvm_pair/first")));
    QVERIFY(!window_->models_dock()->isVisible());
  }

  // One model at a time: the table lists its buffers only, the charts span its ticks; all models
  // again shows everything.
  void one_model_at_a_time() {
    make_window(1280, 720);
    open(tvm_pair());
    const std::vector<ModelSpan> models = controller()->input().details->models();
    QCOMPARE(models.size(), size_t{2});
    QCOMPARE(window_->models_panel()->model_box()->count(), 3);
    QCOMPARE(window_->models_panel()->model_box()->itemText(2), QStringLiteral("second (ticks 65–129)"));
    choose_model(1);
    const std::set<int> second(models[1].buffers.begin(), models[1].buffers.end());
    QCOMPARE(listed_buffers(), second);
    const QCPRange ticks = window_->chart()->plot()->axisRect(0)->axis(QCPAxis::atBottom)->range();
    QVERIFY2(ticks.lower >= 63 && ticks.lower <= 65 && ticks.upper >= 130 && ticks.upper <= 132,
             qPrintable(QStringLiteral("%1–%2").arg(ticks.lower).arg(ticks.upper)));
    // A re-plan keeps the model shown.
    use_algorithm("greedy_by_conflicts");
    QCOMPARE(listed_buffers(), second);
    save_artefact(window_.get(), QStringLiteral("firmware_view_second_model_1280x720.png"));
    choose_model(-1);
    QCOMPARE(window_->buffer_table()->model()->rowCount(), static_cast<int>(controller()->problem().buffers.size()));
    const QCPRange all = window_->chart()->plot()->axisRect(0)->axis(QCPAxis::atBottom)->range();
    QVERIFY(all.lower < 0 && all.upper > 130);
  }

  // Two TFLite models on one MicroAllocator: each model's kTensorArenaSize alone (as its own
  // `usmpx plan` gives it), their sum, the shared arena and what to paste (USMPX_ARENA_SIZE).
  void two_tflite_models_share_one_arena() {
    const std::string kws = testing::shared_path("tflite/models/kws_ref_model.tflite");
    const std::string wand = testing::shared_path("tflite/models/arduino_magic_wand.tflite");
    if (kws.empty() || wand.empty()) QSKIP("shared data not found: tflite/models (set USMPX_SHARED_DIR)");
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("kws_wand.usmpx-firmware.json"));
    write_file_atomically(path.toStdString(),
                          R"({"format": "usmpx-firmware", "version": 1, "schedule": "sequence", "models": [
  {"name": "kws", "path": ")" +
                              kws + R"("}, {"name": "wand", "path": ")" + wand + R"("}],
  "memory": {"shared": [{"name": "arena", "members": {"kws": "arena", "wand": "arena"}}]}})");
    make_window(1600, 1000);
    open(path);
    const int64_t kws_alone = alone_arena(kws);
    const int64_t wand_alone = alone_arena(wand);
    QVERIFY(kws_alone > 0 && wand_alone > 0);
    const std::vector<SharedPoolFigures> sharing =
        controller()->input().details->sharing(controller()->problem(), controller()->plan());
    QCOMPARE(sharing.size(), size_t{1});
    QVERIFY(sharing[0].runtime_arena);
    QCOMPARE(sharing[0].separate, kws_alone + wand_alone);
    QVERIFY(sharing[0].shared < sharing[0].separate);
    const QString text = window_->models_panel()->figures()->text();
    QVERIFY2(text.contains(QStringLiteral("kws %1 + wand %2 = %3 separately")
                               .arg(bytes(kws_alone), bytes(wand_alone), bytes(kws_alone + wand_alone))),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("saves %1").arg(bytes(sharing[0].separate - sharing[0].shared))),
             qPrintable(text));
    // The number to paste is the one the status bar and usmpx_firmware.h give.
    QVERIFY2(text.contains(QStringLiteral("as USMPX_ARENA_SIZE in usmpx_firmware.h")), qPrintable(text));
    QVERIFY2(controller()->runtime_status().contains(qs(with_separators(sharing[0].shared))),
             qPrintable(controller()->runtime_status()));
    // And it heads the arena's chart: TFLM's 24,644 B for this pair in this order (docs/several-models.md).
    QCOMPARE(sharing[0].shared, int64_t{24644});
    const QString title = window_->chart()->pool_title(0);
    QVERIFY2(title.startsWith(QStringLiteral("USMPX_ARENA_SIZE (kTensorArenaSize) = 24,644 B  ·  arena")),
             qPrintable(title));
    save_artefact(window_.get(), QStringLiteral("firmware_view_kws_wand_1600x1000.png"));
  }
};

QTEST_MAIN(TestFirmwareView)
#include "tst_firmware_view.moc"
