// The explorer on a real-sized model (800 buffers, 4 MiB of constants) and on TVM's own plan,
// driven with mouse and keyboard: the first edit of TVM's plan, opening folders, instant re-plans
// that keep what an edit did not change, sizes and messages, finding a buffer.
#include <QAction>
#include <QDropEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QToolButton>
#include <QtTest>

#include "base/size_text.h"
#include "chart/pool_chart_widget.h"
#include "chart/qcustomplot_include.h"
#include "compare_dialog.h"
#include "explorer_controller.h"
#include "explorer_window_fixture.h"
#include "main_window.h"
#include "model_problems.h"
#include "panels/pool_editor_widget.h"
#include "report_writer.h"
#include "tables/buffer_table_model.h"
#include "test_support.h"

using namespace usmpx;

namespace {

constexpr int kModelBuffers = 800;
constexpr int64_t kConstantBytes = 4 * 1024 * 1024;
constexpr int kPoolHintColumn = 2;

QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

std::vector<Allocation> allocations_in(const Plan& plan, int pool) {
  std::vector<Allocation> out;
  for (const Allocation& a : plan.allocations)
    out.push_back(a.pool == pool ? a : Allocation{});
  return out;
}

}  // namespace

class TestExplorerWorkflows : public ExplorerWindowFixture {
  Q_OBJECT

 private:
  QString model_path_;

  // Typed into the limit box: searches that cannot prove optimality stop after a second.
  void use_best() {
    window_->algorithm_box()->setCurrentText(QStringLiteral("best"));
    controller()->wait_idle();
    QCOMPARE(controller()->plan().algorithm, std::string("best"));
  }

  void use_one_second_limit() {
    window_->time_limit_box()->clear();
    QTest::keyClicks(window_->time_limit_box(), QStringLiteral("1"));
    QTest::keyClick(window_->time_limit_box(), Qt::Key_Return);
    controller()->wait_idle();
    QCOMPARE(controller()->edits().time_limit_seconds, 1.0);
  }

  int pool_row(const char* name) { return *controller()->problem().find_pool(name); }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("usmpx-workflow-tests"));
    model_path_ = QDir::temp().filePath(QStringLiteral("usmpx_workflow_model.json"));
    testing::write_model_shaped_problem(model_path_.toStdString(), kModelBuffers, kConstantBytes);
  }

  void cleanupTestCase() { QFile::remove(model_path_); }

  void init() {
    QSettings().clear();
    make_window(1500, 900, true);
  }

  void cleanup() { window_.reset(); }

  void first_edit_of_tvms_plan_keeps_it_as_the_reference() {
    open(QString::fromStdString(testing::fixture_path("mlf/usmp_default_pools")));
    QCOMPARE(controller()->plan().algorithm, std::string("as-built"));
    QCOMPARE(controller()->plan().total_size(), 520);
    QVERIFY(!window_->status_totals()->text().contains(QStringLiteral("vs TVM")));
    const int workspace = pool_row("global_workspace");

    // Resize the workspace below TVM's 208 bytes: TVM's plan no longer applies.
    type_into_pool_cell(workspace, kPoolHintColumn, QStringLiteral("200"));
    controller()->wait_idle();
    QCOMPARE(controller()->problem().pools[static_cast<size_t>(workspace)].size_hint_bytes, 200);
    QCOMPARE(controller()->edits().algorithm, std::string("best"));
    QCOMPARE(controller()->plan().algorithm, std::string("best"));
    QVERIFY(plan_fits(controller()->problem(), controller()->plan()));
    const int64_t total = controller()->plan().total_size();
    QCOMPARE(total, 440);  // the lower bound: 256 constant bytes, 128 + 56 workspace bytes over time
    QCOMPARE(*controller()->difference_to_reference(), total - 520);
    QVERIFY2(window_->status_totals()->text().contains(qs(format_size_delta(total - 520)) + QStringLiteral(" vs TVM")),
             qPrintable(window_->status_totals()->text()));
    QVERIFY(window_->status_totals()->text().contains(QStringLiteral("\u221280 B vs TVM")));
    const int64_t used = controller()->plan().pool_sizes[static_cast<size_t>(workspace)];
    QVERIFY2(
        window_->chart()->pool_title(workspace).contains(qs(format_size_delta(used - 208)) + QStringLiteral(" vs TVM")),
        qPrintable(window_->chart()->pool_title(workspace)));
    QCOMPARE(QString::fromStdString(controller()->history().undo_text()),
             QStringLiteral("Set size hint of global_workspace"));

    // Ctrl+T draws TVM's placement as outlines: six workspace buffers where TVM put them.
    QVERIFY(!window_->chart()->showing_reference());
    QTest::keyClick(window_.get(), Qt::Key_T, Qt::ControlModifier);
    QVERIFY(window_->chart()->showing_reference());
    const views::PoolChartData& chart = window_->chart()->data().pools[static_cast<size_t>(workspace)];
    QCOMPARE(chart.reference_boxes.size(), size_t{6});
    QCOMPARE(chart.reference_bytes, 208);
    for (const views::BufferBox& box : chart.reference_boxes) {
      QCOMPARE(static_cast<int64_t>(box.y0),
               controller()->reference().allocations[static_cast<size_t>(box.buffer)].offset);
    }
    save_artefact(window_.get(), QStringLiteral("tvm_reference.png"));

    // Undo returns to TVM's plan, without a difference to show.
    QTest::keySequence(window_.get(), QKeySequence::Undo);
    controller()->wait_idle();
    QCOMPARE(controller()->plan().algorithm, std::string("as-built"));
    QVERIFY(!controller()->difference_to_reference());
    QVERIFY(!window_->status_totals()->text().contains(QStringLiteral("vs TVM")));
  }

  void opens_folders_and_records_only_what_opened() {
    QSignalSpy failed(controller(), &app::ExplorerController::load_failed);
    const QString missing = QDir::temp().filePath(QStringLiteral("usmpx_no_such_model.tar"));
    QVERIFY(!window_->open_path(missing));  // refused before loading starts
    const QString malformed = QString::fromStdString(testing::fixture_path("bad/negative_size.json"));
    QVERIFY(window_->open_path(malformed));  // fails while loading
    controller()->wait_idle();
    QCOMPARE(failed.count(), 1);
    QVERIFY(QSettings().value(QStringLiteral("recentFiles")).toStringList().isEmpty());
    QVERIFY(!QSettings().value(QStringLiteral("recentFiles")).toStringList().contains(missing));

    // An MLF folder picked through its metadata.json opens as the folder.
    const QString folder = QString::fromStdString(testing::fixture_path("mlf/usmp_default_pools"));
    open(folder + QStringLiteral("/metadata.json"));
    QCOMPARE(controller()->input_path(), QFileInfo(folder).absoluteFilePath());
    QCOMPARE(QSettings().value(QStringLiteral("recentFiles")).toStringList(),
             QStringList{QFileInfo(folder).absoluteFilePath()});

    // Dropping a folder on the window opens it.
    const QString other = QString::fromStdString(testing::fixture_path("mlf/usmp_external_pools"));
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(other)});
    const QPoint centre = window_->rect().center();
    QDragEnterEvent enter(centre, Qt::CopyAction, &mime, Qt::LeftButton, {});
    QApplication::sendEvent(window_.get(), &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(centre, Qt::CopyAction, &mime, Qt::LeftButton, {});
    QApplication::sendEvent(window_.get(), &drop);
    controller()->wait_idle();
    QCOMPARE(controller()->input_path(), QFileInfo(other).absoluteFilePath());
    QCOMPARE(QSettings().value(QStringLiteral("recentFiles")).toStringList().first(),
             QFileInfo(other).absoluteFilePath());

    // File > Open Folder… is there with its shortcut.
    QAction* open_folder = nullptr;
    for (QAction* a : window_->findChildren<QAction*>()) {
      if (a->text() == QStringLiteral("Open &Folder…")) open_folder = a;
    }
    QVERIFY(open_folder);
    QCOMPARE(open_folder->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+O")));
  }

  void constant_pool_is_proven_and_untouched_pools_keep_their_plan() {
    open(model_path_);
    QCOMPARE(controller()->problem().buffers.size(), size_t{kModelBuffers});
    use_one_second_limit();
    use_best();  // the searching planner (a model without a plan opens on greedy_by_size)
    const int flash = pool_row("flash");
    const int dtcm = pool_row("dtcm");
    const int sram = pool_row("sram");
    // The 100 constants, all live together, are stacked in closed form and proven optimal.
    const std::string proof =
        "pool 'flash': " + with_separators(controller()->plan().pool_sizes[static_cast<size_t>(flash)]) +
        " bytes, proven optimal";
    bool proven = false;
    for (const Diagnostic& d : controller()->plan().diagnostics)
      proven = proven || d.message == proof;
    QVERIFY2(proven, proof.c_str());
    QCOMPARE(controller()->plan().pool_sizes[static_cast<size_t>(flash)], kConstantBytes / 100 / 16 * 16 * 100);

    // Resizing the constant pool leaves the workspace pools as they were.
    const Plan before = controller()->plan();
    std::vector<std::pair<bool, bool>> shown;  // (first pass, fits) of every plan the window showed
    const QMetaObject::Connection watch = connect(controller(), &app::ExplorerController::plan_ready, this, [&] {
      shown.emplace_back(controller()->plan_is_first_pass(), plan_fits(controller()->problem(), controller()->plan()));
      if (controller()->plan_is_first_pass()) {
        QVERIFY(window_->status_totals()->text().contains(QStringLiteral("first pass, searching")));
        // Grabbed at once: waiting would let the search's plan arrive first.
        window_->chart()->plot()->replot();
        window_->grab().save(QStringLiteral(USMPX_ARTEFACTS_DIR "/first_pass.png"));
      }
    });
    type_into_pool_cell(flash, kPoolHintColumn, QStringLiteral("5M"));
    controller()->wait_idle();
    QCOMPARE(controller()->problem().pools[static_cast<size_t>(flash)].size_hint_bytes, 5 * 1024 * 1024);
    QCOMPARE(allocations_in(controller()->plan(), dtcm), allocations_in(before, dtcm));
    QCOMPARE(allocations_in(controller()->plan(), sram), allocations_in(before, sram));
    bool kept_note = false;
    for (const Diagnostic& d : controller()->plan().diagnostics)
      kept_note = kept_note || d.code == "kept-pools";
    QVERIFY(kept_note);
    // best searches: the window showed a valid first pass, then the search's plan.
    QCOMPARE(shown.size(), size_t{2});
    QVERIFY(shown[0].first && shown[0].second);
    QVERIFY(!shown[1].first && shown[1].second);

    // Shrinking dtcm re-plans the workspace pools; the constants keep their offsets.
    const Plan constants_before = controller()->plan();
    shown.clear();
    type_into_pool_cell(dtcm, kPoolHintColumn, QStringLiteral("96k"));
    controller()->wait_idle();
    QCOMPARE(controller()->problem().pools[static_cast<size_t>(dtcm)].size_hint_bytes, 96 * 1024);
    QCOMPARE(allocations_in(controller()->plan(), flash), allocations_in(constants_before, flash));
    QVERIFY(plan_fits(controller()->problem(), controller()->plan()));
    QVERIFY(controller()->plan().pool_sizes[static_cast<size_t>(dtcm)] <= 96 * 1024);
    QCOMPARE(shown.size(), size_t{2});
    QVERIFY(shown[0].first && shown[0].second);
    QVERIFY(!shown[1].first);
    disconnect(watch);
    save_artefact(window_.get(), QStringLiteral("model_800_after_edits.png"));
  }

  void bytes_in_use_never_exceed_the_used_size() {
    for (const QString& path : {model_path_, QString::fromStdString(testing::fixture_path("mlf/usmp_default_pools"))}) {
      open(path);
      window_->algorithm_box()->setCurrentText(QStringLiteral("best"));
      controller()->wait_idle();
      int checked = 0;
      for (const views::PoolChartData& pool : window_->chart()->data().pools) {
        for (const LiveStep& step : pool.live_bytes) {
          QVERIFY2(step.bytes <= pool.size_bytes, qPrintable(pool.name + QStringLiteral(" at tick %1").arg(step.tick)));
          ++checked;
        }
        // Constants hold their bytes for the whole run, as they are drawn: the line stands at the
        // pool's used size from the first tick to the last (it hugged 0 under them before).
        if (pool.constant && !pool.live_bytes.empty()) {
          // The model's constants lie end to end (elsewhere alignment may leave gaps between them).
          if (path == model_path_) QCOMPARE(pool.live_bytes.front().bytes, pool.size_bytes);
          QVERIFY(pool.live_bytes.front().bytes > 0);
          QCOMPARE(static_cast<double>(pool.live_bytes.front().tick), window_->chart()->data().tick_first);
          QCOMPARE(pool.live_bytes.size(), size_t{2});  // up at the start, down at the end
          QCOMPARE(pool.live_bytes.back().bytes, int64_t{0});
        }
      }
      QVERIFY(checked > 0);
    }
  }

  void sizes_read_the_same_everywhere() {
    open(model_path_);
    const Problem& problem = controller()->problem();
    const int b = *problem.find_buffer("fused_constant_3");
    const int64_t size = problem.buffers[static_cast<size_t>(b)].size_bytes;  // 41,936 bytes
    QCOMPARE(qs(format_size(size)), QStringLiteral("41 KiB"));
    QTableView* table = window_->buffer_table();
    QModelIndex row;
    for (int r = 0; r < table->model()->rowCount(); ++r) {
      if (table->model()->index(r, 0).data(views::BufferTableModel::kBufferRole).toInt() == b)
        row = table->model()->index(r, 0);
    }
    QVERIFY(row.isValid());
    QCOMPARE(row.siblingAtColumn(views::BufferTableModel::kSize).data().toString(), qs(format_size(size)));
    QCOMPARE(row.siblingAtColumn(views::BufferTableModel::kSize).data(Qt::EditRole).toLongLong(), size);
    const int flash = pool_row("flash");
    const int64_t used = controller()->plan().pool_sizes[static_cast<size_t>(flash)];
    QVERIFY(window_->chart()->pool_title(flash).contains(QStringLiteral("used ") + qs(format_size(used))));
    QVERIFY(window_->pool_editor()->table()->item(flash, 3)->text() == qs(format_size(used)));
    QVERIFY(window_->status_totals()->text().contains(qs(format_size(controller()->plan().total_size()))));
    QCOMPARE(qs(format_size(used)), QStringLiteral("4 MiB"));
    QCOMPARE(qs(format_size_exact(38400)), QStringLiteral("37.5 KiB (38,400 B)"));
    QCOMPARE(qs(format_size_delta(-38400)), QStringLiteral("\u221237.5 KiB"));
  }

  void a_buffer_larger_than_its_pool_says_so() {
    open(model_path_);
    use_one_second_limit();
    use_best();  // the searching planner (a model without a plan opens on greedy_by_size)
    const Problem& problem = controller()->problem();
    // The largest activation, moved into dtcm by its context menu, then dtcm shrunk below it.
    int largest = -1;
    for (size_t b = 0; b < problem.buffers.size(); ++b) {
      if (problem.buffers[b].kind == BufferKind::kConstant) continue;
      if (largest < 0 || problem.buffers[b].size_bytes > problem.buffers[static_cast<size_t>(largest)].size_bytes)
        largest = static_cast<int>(b);
    }
    const std::string name = problem.buffers[static_cast<size_t>(largest)].name;
    const int64_t size = problem.buffers[static_cast<size_t>(largest)].size_bytes;
    std::unique_ptr<QMenu> menu(window_->build_buffer_menu(largest, window_.get()));
    QAction* pin_here = nullptr;
    for (QAction* a : menu->actions()) {
      if (a->text().startsWith(QStringLiteral("Pin to "))) pin_here = a;
    }
    QVERIFY(pin_here);
    pin_here->trigger();
    controller()->wait_idle();
    const int pool = controller()->plan().allocations[static_cast<size_t>(largest)].pool;
    type_into_pool_cell(pool, kPoolHintColumn, QString::number(size - 16));
    controller()->wait_idle();
    QVERIFY(!plan_fits(controller()->problem(), controller()->plan()));
    QListView* diagnostics = window_->diagnostics_view();
    QStringList texts;
    for (int r = 0; r < diagnostics->model()->rowCount(); ++r)
      texts << diagnostics->model()->index(r, 0).data().toString();
    const QString expected =
        QStringLiteral("'%1' cannot fit in it together, whatever the placement (it needs %2 bytes on its own")
            .arg(qs(name), qs(with_separators(size)));
    QVERIFY2(texts.filter(expected).size() == 1, qPrintable(texts.join(QLatin1Char('\n'))));
    QVERIFY(texts.filter(QStringLiteral("--time-limit")).isEmpty());
    // 16,384 and 16,368 bytes both round to "16 KiB": the header shows the bytes then.
    QCOMPARE(size, 16384);
    QVERIFY2(window_->chart()->pool_title(pool).contains(QStringLiteral("used 16,384 B of 16,368 B")),
             qPrintable(window_->chart()->pool_title(pool)));
    QCOMPARE(texts.removeDuplicates(), 0);
    save_artefact(window_.get(), QStringLiteral("buffer_larger_than_pool.png"));
  }

  void exact_name_finds_and_zooms_to_one_buffer() {
    open(model_path_);
    QLineEdit* filter = window_->filter_box();
    QToolButton* exact = nullptr;
    for (QToolButton* button : filter->findChildren<QToolButton*>()) {
      if (button->defaultAction() && button->defaultAction()->text() == QStringLiteral("Exact name")) exact = button;
    }
    QVERIFY(exact);
    QTest::mouseClick(exact, Qt::LeftButton);
    QVERIFY(exact->defaultAction()->isChecked());
    filter->setFocus();
    QTest::keyClicks(filter, QStringLiteral("sid_1"));  // not sid_10, sid_100, …
    QCOMPARE(window_->buffer_table()->model()->rowCount(), 1);
    const int b = *controller()->problem().find_buffer("sid_1");
    QCOMPARE(window_->selected_buffers(), std::vector<int>{b});
    QTest::qWait(50);
    window_->chart()->plot()->replot();
    // Zoomed in: the box is large enough to see and point at, inside its chart.
    const QRect box = window_->chart()->buffer_rect(b);
    QVERIFY2(box.height() >= 8 && box.width() >= 8,
             qPrintable(QStringLiteral("%1x%2").arg(box.width()).arg(box.height())));
    QVERIFY(window_->chart()->buffer_at(box.center()) == b);
    save_artefact(window_.get(), QStringLiteral("exact_name_zoom.png"));
    // Without the option the filter matches substrings again.
    QTest::mouseClick(exact, Qt::LeftButton);
    QVERIFY(window_->buffer_table()->model()->rowCount() > 10);
  }

  void compare_lists_as_built_on_one_scale_and_marks_the_selected_chart() {
    open(QString::fromStdString(testing::fixture_path("mlf/usmp_default_pools")));
    type_into_pool_cell(pool_row("global_workspace"), kPoolHintColumn, QStringLiteral("200"));
    controller()->wait_idle();
    app::CompareDialog dialog(controller(), window_.get());
    dialog.resize(1300, 800);
    dialog.show();
    QSignalSpy ready(controller(), &app::ExplorerController::comparison_ready);
    dialog.run();
    QVERIFY(ready.wait(30000));
    QTableWidget* table = dialog.table();
    int as_built = -1;
    for (int r = 0; r < table->rowCount(); ++r) {
      if (table->item(r, 0)->text() == QStringLiteral("as-built")) as_built = r;
    }
    QVERIFY(as_built >= 0);  // listed, with the reason
    QCOMPARE(table->item(as_built, 1)->text(), QStringLiteral("—"));
    QVERIFY(dialog.note()->text().contains(QStringLiteral("the pools or pins were edited")));
    // One byte scale per pool across the charts.
    std::vector<double> tops;
    for (views::PoolChartWidget* chart : dialog.findChildren<views::PoolChartWidget*>()) {
      tops.push_back(chart->plot()->axisRects().at(1)->axis(QCPAxis::atLeft)->range().upper);
    }
    QVERIFY(tops.size() >= 10);
    QVERIFY(std::all_of(tops.begin(), tops.end(), [&](double t) { return t == tops.front(); }));
    // Clicking a row frames its chart; as-built cannot be applied.
    const int hill_climb = 2;
    QCOMPARE(table->item(hill_climb, 0)->text(), QStringLiteral("hill_climb"));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                      table->visualItemRect(table->item(hill_climb, 0)).center());
    QVERIFY(dialog.chart_box(hill_climb)->styleSheet().contains(QStringLiteral("#1f77b4")));
    QVERIFY(!dialog.chart_box(0)->styleSheet().contains(QStringLiteral("#1f77b4")));
    save_artefact(&dialog, QStringLiteral("compare_marked.png"));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(table->item(as_built, 0)).center());
    QPushButton* apply = nullptr;
    for (QPushButton* b : dialog.findChildren<QPushButton*>()) {
      if (b->text() == QStringLiteral("Apply Selected")) apply = b;
    }
    QVERIFY(apply && !apply->isEnabled());
  }

  void report_shows_the_difference_to_tvm_and_the_warnings() {
    open(QString::fromStdString(testing::fixture_path("mlf/usmp_default_pools")));
    type_into_pool_cell(pool_row("global_workspace"), kPoolHintColumn, QStringLiteral("200"));
    controller()->wait_idle();
    QTest::keyClick(window_.get(), Qt::Key_T, Qt::ControlModifier);  // TVM's outlines in the charts too
    // Kept with the screenshots, to look at in a browser and a PDF viewer.
    const QString folder = QStringLiteral(USMPX_ARTEFACTS_DIR "/report_vs_tvm");
    QDir(folder).removeRecursively();
    QString error;
    const QStringList files = app::write_review_report(*controller(), *window_->chart(), folder, &error);
    QVERIFY2(files.contains(QStringLiteral("report.html")), qPrintable(error));
    QFile html(QDir(folder).filePath(QStringLiteral("report.html")));
    QVERIFY(html.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(html.readAll());
    QVERIFY(text.contains(QStringLiteral("<b>\u221280 B vs TVM's plan</b> (520 B)")));
    QVERIFY(text.contains(QStringLiteral("<h2>Compared with TVM's plan</h2>")));
    QVERIFY(text.contains(
        QStringLiteral("<tr><td>global_workspace</td><td class=\"n\" title=\"208 bytes\">208 B</td>"
                       "<td class=\"n\" title=\"128 bytes\">128 B</td><td class=\"n\">\u221280 B</td></tr>")));
    // The PDF: a summary page, all pools on page two, then a page per pool (two pools: four pages).
    QFile pdf(QDir(folder).filePath(QStringLiteral("charts.pdf")));
    QVERIFY(pdf.open(QIODevice::ReadOnly));
    const QByteArray bytes = pdf.readAll();
    QCOMPARE(bytes.count("/Type /Page\n") + bytes.count("/Type /Page\r") + bytes.count("/Type /Page "), 4);
  }

  void report_lists_the_inputs_warnings_once() {
    // TVM's letscope model (USMP off): its constants stay in the operators, which the reader notes.
    const std::string model = testing::shared_path("mlf/letscope_v7.tar");
    if (model.empty()) QSKIP("shared data not found: mlf/letscope_v7.tar (set USMPX_SHARED_DIR to the shared folder)");
    open(QString::fromStdString(model));
    QVERIFY(!controller()->input().warnings.empty());
    const QString folder = QDir::temp().filePath(QStringLiteral("usmpx_workflow_report_warnings"));
    QString error;
    QVERIFY2(!app::write_review_report(*controller(), *window_->chart(), folder, &error).isEmpty(), qPrintable(error));
    QFile html(QDir(folder).filePath(QStringLiteral("report.html")));
    QVERIFY(html.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(html.readAll());
    for (const Diagnostic& d : controller()->input().warnings) {
      const std::string_view severity = to_string(d.severity);
      const QString line = QStringLiteral("%1: %2").arg(
          QString::fromUtf8(severity.data(), static_cast<qsizetype>(severity.size())), qs(d.message).toHtmlEscaped());
      QCOMPARE(text.count(line), 1);
    }
    QDir(folder).removeRecursively();
  }

  void drag_ghost_stays_on_the_lifetime_and_the_hint_line_is_easy_to_grab() {
    open(model_path_);
    use_one_second_limit();
    views::PoolChartWidget* chart = window_->chart();
    const int b = *controller()->problem().find_buffer("sid_1");
    window_->select_buffers({b}, true);
    chart->plot()->replot();
    const QRect box = chart->buffer_rect(b);
    const QPoint start = box.center();
    QTest::mousePress(chart->plot(), Qt::LeftButton, {}, start);
    QTest::mouseMove(chart->plot(), start + QPoint(60, -25));
    const QRectF ghost = chart->ghost_rect();
    QVERIFY(!ghost.isEmpty());
    QCOMPARE(qRound(ghost.left()), chart->buffer_rect(b).left());    // not dragged sideways in time
    QVERIFY(std::abs(ghost.bottom() - (box.bottom() - 25)) <= 1.5);  // follows the mouse up
    QTest::mouseRelease(chart->plot(), Qt::LeftButton, {}, start + QPoint(60, -25));
    controller()->wait_idle();
    QVERIFY(controller()->problem().buffers[static_cast<size_t>(b)].pin.has_value());

    // The dtcm size-hint line, grabbed 6 pixels off, drags to a new size.
    chart->reset_view();
    chart->plot()->replot();
    const int dtcm = pool_row("dtcm");
    const QPoint on_line = chart->hint_line_point(dtcm) + QPoint(0, 6);
    const QPoint end(on_line.x(), chart->pixel_of(dtcm, 0, 100 * 1024).y());
    QTest::mousePress(chart->plot(), Qt::LeftButton, {}, on_line);
    QTest::mouseMove(chart->plot(), end);
    QTest::mouseRelease(chart->plot(), Qt::LeftButton, {}, end);
    controller()->wait_idle();
    const int64_t hint = controller()->problem().pools[static_cast<size_t>(dtcm)].size_hint_bytes;
    QVERIFY2(std::abs(hint - 100 * 1024) < 3000, qPrintable(QString::number(hint)));
  }
};

QTEST_MAIN(TestExplorerWorkflows)
#include "tst_explorer_workflows.moc"
