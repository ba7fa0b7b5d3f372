#pragma once

// What the explorer's behaviour tests share beyond the window fixture: the model-shaped problem
// files they open, the standard start of a test (settings cleared, no autosave left, the window
// at 1600x1000 taking the keyboard), and the steps a user takes that several tests repeat
// (find a buffer, choose best, set a time limit, compare, write the report).

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QMainWindow>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStringList>
#include <QTableView>
#include <QtTest>
#include <string>
#include <vector>

#include "base/text_file.h"
#include "chart/pool_chart_widget.h"
#include "chart/qcustomplot_include.h"
#include "explorer_controller.h"
#include "explorer_window_fixture.h"
#include "main_window.h"
#include "model/problem_json_writer.h"
#include "model_problems.h"
#include "report_writer.h"

namespace explorer_test {

inline QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

// The pool editor's column of size hints.
inline constexpr int kPoolHintColumn = 2;

// The status bar names the file written: whole where it fits, else with the path elided in the
// middle (its file name kept), whole in the status bar's tooltip.
inline bool says_written(QMainWindow& window, const QString& target) {
  const QString message = window.statusBar()->currentMessage();
  if (message.startsWith(QStringLiteral("Wrote ") + target)) return true;
  return message.startsWith(QStringLiteral("Wrote ")) && message.contains(QFileInfo(target).fileName()) &&
         window.statusBar()->toolTip().startsWith(QStringLiteral("Wrote ") + target);
}

// The extents the charts show for the whole plan: every tick, and each pool up to the largest of
// its size, hint and bound (PoolChartWidget::reset_view adds 2 % and 8 % of margin).
inline void verify_whole_plan_ranges(usmpx::views::PoolChartWidget& chart) {
  const usmpx::views::ChartData& data = chart.data();
  const double span = std::max(1.0, data.tick_end - data.tick_first);
  QVERIFY(chart.pool_count() == static_cast<int>(data.pools.size()));
  QCustomPlot* plot = chart.plot();
  for (size_t p = 0; p < data.pools.size(); ++p) {
    // Axis rects alternate with title rows; the plot's axis rects are the pools' in order.
    QCPAxisRect* rect = plot->axisRects().at(static_cast<int>(p));
    const QCPRange x = rect->axis(QCPAxis::atBottom)->range();
    const QCPRange y = rect->axis(QCPAxis::atLeft)->range();
    QCOMPARE(x.lower, data.tick_first - 0.02 * span);
    QCOMPARE(x.upper, data.tick_end + 0.02 * span);
    const usmpx::views::PoolChartData& pool = data.pools[p];
    const double top =
        std::max<double>({static_cast<double>(pool.size_bytes), static_cast<double>(pool.size_hint_bytes),
                          static_cast<double>(pool.lower_bound_bytes), 16.0});
    QCOMPARE(y.lower, 0.0);
    QCOMPARE(y.upper, top * 1.08);
  }
}

inline QPushButton* button_named(QWidget* parent, const QString& text) {
  for (QPushButton* b : parent->findChildren<QPushButton*>()) {
    if (b->text() == text) return b;
  }
  return nullptr;
}

// Whether `child` lies wholly inside `window`'s visible area.
inline bool inside(const QWidget* child, const QWidget* window) {
  const QRect r(child->mapTo(window, QPoint(0, 0)), child->size());
  return window->rect().contains(r);
}

}  // namespace explorer_test

class ExplorerTestFixture : public ExplorerWindowFixture {
 public:
  ~ExplorerTestFixture() override {
    for (const QString& file : written_)
      QFile::remove(file);
  }

 protected:
  // initTestCase: settings and autosave of their own (test mode, an organisation per test file).
  void start_test_case(const char* name) {
    name_ = QString::fromLatin1(name);
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("usmpx-%1-tests").arg(name_));
  }

  // init: no settings, no autosave left by the test before, a fresh window that takes the keyboard.
  void start_test() {
    QSettings().clear();
    usmpx::app::ExplorerController::autosave_path();  // creates the folder
    QFile::remove(usmpx::app::ExplorerController::autosave_path());
    QFile::remove(usmpx::app::ExplorerController::autosave_origin_path());
    make_window(1600, 1000, true);
  }

  // Model-shaped problem files, written once per test file: 800 buffers with 4 MiB of constants;
  // 80 buffers with 52 KiB, the same pools far smaller; 650 buffers with TVM's constants of
  // unrounded sizes, 16-byte aligned (padding between them unless well ordered).
  QString large_path() {
    return problem_file(QStringLiteral("large"), [](const std::string& path) {
      usmpx::testing::write_model_shaped_problem(path, 800, 4 * 1024 * 1024);
    });
  }
  QString small_path() {
    return problem_file(QStringLiteral("small"), [](const std::string& path) {
      usmpx::testing::write_model_shaped_problem(path, 80, 52 * 1024);
    });
  }
  QString mixed_path() {
    return problem_file(QStringLiteral("mixed"), [](const std::string& path) {
      usmpx::Problem tvm_like = usmpx::testing::model_shaped_mixed_alignment_problem(650, 4'670'000);
      for (usmpx::Buffer& b : tvm_like.buffers) {
        if (b.kind == usmpx::BufferKind::kConstant) b.alignment = 16;
      }
      usmpx::write_file_atomically(path, usmpx::write_problem_json(tvm_like));
    });
  }

  // Finds a buffer by its exact name through the filter box, as a user does (zooms to it).
  void find_exactly(const QString& name) {
    QLineEdit* filter = window_->filter_box();
    for (QAction* a : filter->actions()) {
      if (a->text() == QStringLiteral("Exact name") && !a->isChecked()) a->trigger();
    }
    filter->setFocus();
    QTest::keyClicks(filter, name);
  }

  void use_best() {
    window_->algorithm_box()->setCurrentText(QStringLiteral("best"));
    controller()->wait_idle();
    QCOMPARE(controller()->plan().algorithm, std::string("best"));
  }

  void use_time_limit(const QString& seconds) {
    window_->time_limit_box()->clear();
    QTest::keyClicks(window_->time_limit_box(), seconds);
    QTest::keyClick(window_->time_limit_box(), Qt::Key_Return);
    controller()->wait_idle();
  }

  int pool_row(const char* name) { return *controller()->problem().find_pool(name); }

  // Writes the review report as Export Report does and returns report.html.
  QString report(const QString& name) {
    const QString folder = QStringLiteral(USMPX_ARTEFACTS_DIR "/") + name;
    QDir(folder).removeRecursively();
    QString error;
    if (usmpx::app::write_review_report(*controller(), *window_->chart(), folder, &error).isEmpty()) return error;
    return explorer_test::qs(usmpx::read_text_file(QDir(folder).filePath(QStringLiteral("report.html")).toStdString()));
  }

  void compare(const QStringList& algorithms) {
    QSignalSpy ready(controller(), &usmpx::app::ExplorerController::comparison_ready);
    controller()->compare(algorithms);
    QVERIFY(ready.wait(60000));
  }

  // Pins the first buffer to the pool it is in: an edit that changes the problem, not the plan.
  void pin_first_buffer() {
    usmpx::SessionEdits next = controller()->edits();
    const usmpx::Buffer& b = controller()->problem().buffers.front();
    const int pool = controller()->plan().allocations.front().pool;
    QVERIFY(pool >= 0);
    next.pins.push_back(
        usmpx::PinSpec{b.name, controller()->problem().pools[static_cast<size_t>(pool)].name, std::nullopt});
    QVERIFY(controller()->apply_edit(QStringLiteral("pin"), next));
    controller()->wait_idle();
  }

  QString diagnostics_row(int row) { return window_->diagnostics_view()->model()->index(row, 0).data().toString(); }

 private:
  template <typename Write>
  QString problem_file(const QString& kind, Write write) {
    const QString path = QDir::temp().filePath(QStringLiteral("usmpx_%1_%2.json").arg(name_, kind));
    if (!written_.contains(path)) {
      write(path.toStdString());
      written_.push_back(path);
    }
    return path;
  }

  QString name_ = QStringLiteral("explorer");
  QStringList written_;
};
