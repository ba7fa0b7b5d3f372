// A firmware file of several models in the explorer (docs/several-models.md), driven as a user
// does: the legend names each model in its hue, every pool's chart labels each model's span on
// the joint time axis, each model's boxes are drawn in its own hue (kinds by lightness), the
// report names the models and their spans, and File ▸ Export Sources writes every model back.
#include <QAction>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QtTest>

#include "base/text_file.h"
#include "chart/box_colors.h"
#include "compare_dialog.h"
#include "explorer_window_fixture.h"
#include "export_dialog.h"
#include "panels/inspector_widget.h"
#include "report_writer.h"
#include "tables/buffer_table_model.h"
#include "test_support.h"

using namespace usmpx;

namespace {

QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

// The TVM pair: modules "first" and "second", each with USMP's default pools, one sequence.
QString tvm_pair() {
  return qs(testing::fixture_path("firmware/tvm_pair/tvm_pair.usmpx-firmware.json"));
}

}  // namespace

class TestExplorerFirmware : public ExplorerWindowFixture {
  Q_OBJECT

  int buffer_named(const std::string& name) {
    const Problem& problem = controller()->problem();
    for (size_t b = 0; b < problem.buffers.size(); ++b)
      if (problem.buffers[b].name == name) return static_cast<int>(b);
    return -1;
  }

  // The colour the chart shows inside a buffer's box, away from its outline and label.
  QColor drawn_colour(int buffer) {
    views::PoolChartWidget* chart = window_->chart();
    chart->plot()->replot(QCustomPlot::rpImmediateRefresh);
    const QImage image = chart->plot()->toPixmap().toImage();
    const QRect box = chart->buffer_rect(buffer);
    if (box.width() < 8 || box.height() < 8) return {};
    return image.pixelColor(box.right() - 3, box.top() + 3);
  }

  // The models' ticks and names in every pool's chart: the band spans [x0, x1), the label says
  // the closed range "first  ticks 0–64" over its middle.
  void check_bands() {
    views::PoolChartWidget* chart = window_->chart();
    QCOMPARE(chart->pool_count(), 3);
    for (int p = 0; p < chart->pool_count(); ++p) {
      const QCPItemRect* first = chart->model_band(p, 0);
      const QCPItemRect* second = chart->model_band(p, 1);
      QVERIFY(first && second);
      QVERIFY(!chart->model_band(p, 2));
      QCOMPARE(first->topLeft->coords().x(), 0.0);
      QCOMPARE(first->bottomRight->coords().x(), 65.0);
      QCOMPARE(second->topLeft->coords().x(), 65.0);
      QCOMPARE(second->bottomRight->coords().x(), 130.0);
      const QCPItemText* first_label = chart->model_label(p, 0);
      const QCPItemText* second_label = chart->model_label(p, 1);
      QVERIFY(first_label && second_label);
      QCOMPARE(first_label->text(), QStringLiteral("first  ticks 0–64"));
      QCOMPARE(second_label->text(), QStringLiteral("second  ticks 65–129"));
      QCOMPARE(first_label->position->coords().x(), 32.5);
      QCOMPARE(second_label->position->coords().x(), 97.5);
      // Each label in its model's hue, shown inside its chart.
      QCOMPARE(first_label->color().hue(), views::model_color(0).darker(130).hue());
      QCOMPARE(second_label->color().hue(), views::model_color(1).darker(130).hue());
      QVERIFY(first_label->visible() && second_label->visible());
    }
  }

 private slots:
  void cleanup() { window_.reset(); }

  void the_legend_names_the_models_and_every_chart_labels_their_spans() {
    make_window(1600, 1000);
    open(tvm_pair());
    QCOMPARE(controller()->input().format, InputFormat::kFirmware);
    // From core: the models' names, ticks and buffers.
    const std::vector<ModelSpan> models = controller()->input().details->models();
    QCOMPARE(models.size(), size_t{2});
    QCOMPARE(models[0].name, std::string("first"));
    QCOMPARE(models[0].first_tick, int64_t{0});
    QCOMPARE(models[0].last_tick, int64_t{64});
    QCOMPARE(models[0].buffers.size(), size_t{9});
    QCOMPARE(models[1].name, std::string("second"));
    QCOMPARE(models[1].first_tick, int64_t{65});
    QCOMPARE(models[1].last_tick, int64_t{129});
    QCOMPARE(models[1].buffers.size(), size_t{9});
    const QLabel* legend = window_->chart()->legend();
    QVERIFY(legend);
    const QString text = legend->text();
    QVERIFY2(text.contains(QStringLiteral("<b>models:</b>")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("%1'>&#9632;</span>&nbsp;<b>first</b>").arg(views::model_color(0).name())),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("%1'>&#9632;</span>&nbsp;<b>second</b>").arg(views::model_color(1).name())),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("kinds by lightness")), qPrintable(text));
    check_bands();
    save_artefact(window_.get(), QStringLiteral("firmware_tvm_pair_1600x1000.png"));
    // Zoomed in on the models' border: a label sits in the visible part of its band, as much of it
    // as fits (the first model's five ticks in view leave room for its name, not its ticks).
    views::PoolChartWidget* chart = window_->chart();
    chart->plot()->axisRect(0)->axis(QCPAxis::atBottom)->setRange(60, 130);
    chart->plot()->replot(QCustomPlot::rpImmediateRefresh);
    for (int p = 0; p < chart->pool_count(); ++p) {
      const QCPItemText* first = chart->model_label(p, 0);
      const QCPItemText* second = chart->model_label(p, 1);
      QVERIFY(first->visible());
      QCOMPARE(first->text(), QStringLiteral("first"));
      QCOMPARE(first->position->coords().x(), 62.5);
      QCOMPARE(second->text(), QStringLiteral("second  ticks 65–129"));
      QCOMPARE(second->position->coords().x(), 97.5);
    }
    // Zoomed out of the first model entirely: its label is gone, not drawn over the second's.
    chart->plot()->axisRect(0)->axis(QCPAxis::atBottom)->setRange(70, 130);
    chart->plot()->replot(QCustomPlot::rpImmediateRefresh);
    QVERIFY(!chart->model_label(0, 0)->visible());
    QCOMPARE(chart->model_label(0, 1)->position->coords().x(), 100.0);
  }

  void each_models_boxes_are_in_its_own_hue_and_kinds_by_lightness() {
    make_window(1600, 1000);
    open(tvm_pair());
    const int first_sid = buffer_named("first/sid_2");
    const int second_sid = buffer_named("second/sid_2");
    const int first_internal = buffer_named("first/PaddedInput");
    QVERIFY(first_sid >= 0 && second_sid >= 0 && first_internal >= 0);
    // The chart data says which model each box is of.
    const views::ChartData& data = window_->chart()->data();
    const views::BufferBox* a = nullptr;
    const views::BufferBox* b = nullptr;
    for (const views::PoolChartData& pool : data.pools) {
      for (const views::BufferBox& box : pool.boxes) {
        if (box.buffer == first_sid) a = &box;
        if (box.buffer == second_sid) b = &box;
      }
    }
    QVERIFY(a && b);
    QCOMPARE(a->model, 0);
    QCOMPARE(b->model, 1);
    // The hue and the band name the model: both labels leave out "model/".
    QCOMPARE(a->label, QStringLiteral("sid_2"));
    QCOMPARE(b->label, QStringLiteral("sid_2"));
    // What the user sees: the same kind, two hues (first blue, second orange).
    const QColor first_colour = drawn_colour(first_sid);
    const QColor second_colour = drawn_colour(second_sid);
    QVERIFY(first_colour.isValid() && second_colour.isValid());
    QVERIFY2(first_colour.hue() >= 195 && first_colour.hue() <= 230, qPrintable(first_colour.name()));
    QVERIFY2(second_colour.hue() >= 15 && second_colour.hue() <= 45, qPrintable(second_colour.name()));
    // Within one model the kinds differ by lightness, not hue: an operator's own buffer is lighter.
    const QColor internal_colour = drawn_colour(first_internal);
    QVERIFY(internal_colour.isValid());
    QVERIFY2(std::abs(internal_colour.hue() - first_colour.hue()) <= 12,
             qPrintable(internal_colour.name() + " " + first_colour.name()));
    QVERIFY2(internal_colour.lightness() > first_colour.lightness() + 30,
             qPrintable(internal_colour.name() + " " + first_colour.name()));
    // The buffer table's swatches agree with the boxes.
    const QAbstractItemModel* table = window_->buffer_table()->model();
    QColor first_swatch;
    QColor second_swatch;
    for (int row = 0; row < table->rowCount(); ++row) {
      const QModelIndex name = table->index(row, views::BufferTableModel::kName);
      const int buffer = table->data(name, views::BufferTableModel::kBufferRole).toInt();
      if (buffer == first_sid) first_swatch = table->data(name, Qt::DecorationRole).value<QColor>();
      if (buffer == second_sid) second_swatch = table->data(name, Qt::DecorationRole).value<QColor>();
    }
    QCOMPARE(first_swatch, views::box_color(0, BufferRole::kIntermediate));
    QCOMPARE(second_swatch, views::box_color(1, BufferRole::kIntermediate));
    // Clicking a box shows it in the inspector with its model and the model's ticks.
    QTest::mouseClick(window_->chart()->plot(), Qt::LeftButton, {}, window_->chart()->buffer_center(second_sid));
    QTRY_VERIFY(window_->findChild<views::InspectorWidget*>()->toHtml().contains(QStringLiteral("second/sid_2")));
    const QString inspector = window_->findChild<views::InspectorWidget*>()->toPlainText();
    QVERIFY2(inspector.contains(QStringLiteral("second (ticks 65–129)")), qPrintable(inspector));
    // Its swatch in the model's hue, as its box.
    QVERIFY(window_->findChild<views::InspectorWidget*>()->toHtml().contains(
        views::box_color(1, BufferRole::kIntermediate).name(), Qt::CaseInsensitive));
  }

  void at_1280x720_the_legend_is_whole_and_the_spans_labelled() {
    make_window(1280, 720);
    open(tvm_pair());
    check_bands();
    const QLabel* legend = window_->chart()->legend();
    QVERIFY(legend);
    // Never cut: the models go on a line of their own where they and the colours do not fit.
    QTextDocument doc;
    doc.setDefaultFont(legend->font());
    doc.setHtml(legend->text());
    QVERIFY2(doc.idealWidth() <= legend->width(), qPrintable(legend->text()));
    QVERIFY2(legend->text().contains(QStringLiteral("<br>kinds by lightness")), qPrintable(legend->text()));
    save_artefact(window_.get(), QStringLiteral("firmware_tvm_pair_1280x720.png"));
  }

  void the_report_names_the_models_and_their_spans() {
    make_window(1600, 1000);
    open(tvm_pair());
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString error;
    const QStringList written = app::write_review_report(*controller(), *window_->chart(), dir.path(), &error);
    QVERIFY2(written.contains(QStringLiteral("report.html")), qPrintable(error));
    // The report's charts carry the models' hues and labels too (kept to be looked at).
    QVERIFY(written.contains(QStringLiteral("charts.png")));
    QDir().mkpath(QStringLiteral(USMPX_ARTEFACTS_DIR));
    QFile::remove(QStringLiteral(USMPX_ARTEFACTS_DIR "/firmware_tvm_pair_report_charts.png"));
    QVERIFY(QFile::copy(dir.filePath(QStringLiteral("charts.png")),
                        QStringLiteral(USMPX_ARTEFACTS_DIR "/firmware_tvm_pair_report_charts.png")));
    const std::string html = read_text_file(dir.filePath(QStringLiteral("report.html")).toStdString());
    const size_t models = html.find("<h2>Models</h2>");
    QVERIFY(models != std::string::npos);
    const std::string section = html.substr(models, html.find("</table>", models) - models);
    // Each model's ticks, buffers and the bytes its buffers reach in each pool of the as-built plan
    // (208 B of the shared workspace each, 312 B of its own constant pool).
    QVERIFY2(html.find("<tr><td>first</td><td class=\"n\">[0, 64]</td><td class=\"n\">9</td><td>global_workspace 208 "
                       "B, first/global_const_workspace 312 B</td></tr>") != std::string::npos,
             section.c_str());
    QVERIFY2(html.find("<tr><td>second</td><td class=\"n\">[65, 129]</td><td class=\"n\">9</td><td>global_workspace "
                       "208 B, second/global_const_workspace 312 B</td></tr>") != std::string::npos,
             section.c_str());
    // The PDF's first page names them too, with the colour key in their hues.
    const QString summary = app::report_summary_html(*controller(), *window_->chart());
    QVERIFY2(summary.contains(QStringLiteral("<br>first: ticks 0–64<br>second: ticks 65–129")), qPrintable(summary));
    QVERIFY2(summary.contains(QStringLiteral("<b>second</b>")), qPrintable(summary));
  }

  void compare_runs_on_the_joint_problem_with_the_models_in_their_hues() {
    make_window(1600, 1000);
    open(tvm_pair());
    app::CompareDialog dialog(controller(), window_.get());
    dialog.resize(1300, 800);
    dialog.show();
    QSignalSpy ready(controller(), &app::ExplorerController::comparison_ready);
    dialog.run();
    QVERIFY(ready.wait(60000));
    QVERIFY(dialog.table()->rowCount() >= 2);
    const QList<views::PoolChartWidget*> charts = dialog.findChildren<views::PoolChartWidget*>();
    QCOMPARE(charts.size(), dialog.table()->rowCount());
    for (const views::PoolChartWidget* chart : charts) {
      QCOMPARE(chart->data().models.size(), size_t{2});
      QCOMPARE(chart->data().models[1].name, QStringLiteral("second"));
      QVERIFY(chart->model_band(0, 1));
      QCOMPARE(chart->model_band(0, 1)->topLeft->coords().x(), 65.0);
    }
    save_artefact(&dialog, QStringLiteral("firmware_tvm_pair_compare.png"));
  }

  void export_sources_writes_every_model_and_the_shared_pool_once() {
    make_window(1600, 1000);
    open(tvm_pair());
    QVERIFY2(window_->export_action()->isEnabled(), qPrintable(window_->export_action()->toolTip()));
    QString why;
    QVERIFY2(controller()->can_export_sources(&why), qPrintable(why));
    {
      // The dialog says what is written and proposes a folder named after the firmware file.
      app::ExportDialog dialog(*controller(), window_.get());
      QVERIFY2(dialog.note()->text().startsWith(
                   QStringLiteral("Every model of tvm_pair.usmpx-firmware.json is written back with its part of the "
                                  "as-built plan, each in a folder named after it")),
               qPrintable(dialog.note()->text()));
      QVERIFY2(dialog.target().endsWith(QStringLiteral("/tvm_pair_replanned")), qPrintable(dialog.target()));
      dialog.show();
      save_artefact(&dialog, QStringLiteral("firmware_tvm_pair_export_dialog.png"));
    }
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString target = dir.filePath(QStringLiteral("out"));
    window_->start_export(target, false);
    controller()->wait_idle();
    const QString message = window_->statusBar()->currentMessage();
    QVERIFY2(message.startsWith(QStringLiteral("Wrote ")), qPrintable(message));
    for (const char* file : {"first/codegen/host/src/first_lib0.c", "first/codegen/host/src/first_lib1.c",
                             "second/codegen/host/src/second_lib0.c", "second/metadata.json", "usmpx_firmware.c"})
      QVERIFY2(QFile::exists(target + QStringLiteral("/") + QLatin1String(file)), file);
    // The shared workspace is defined once, at the joint plan's size.
    const std::string header = read_text_file((target + QStringLiteral("/usmpx_firmware.h")).toStdString());
    QVERIFY2(header.find("#define USMPX_GLOBAL_WORKSPACE_SIZE 208") != std::string::npos, header.c_str());
    const std::string lib0 =
        read_text_file((target + QStringLiteral("/first/codegen/host/src/first_lib0.c")).toStdString());
    QVERIFY2(lib0.find("extern uint8_t usmpx_firmware_global_workspace[]") != std::string::npos, lib0.c_str());
  }
};

QTEST_MAIN(TestExplorerFirmware)
#include "tst_explorer_firmware.moc"
