// Compare Algorithms as a user meets it: each row fills as soon as its plan is made (the rows
// still to come say "running…" or "waiting"), a reason for not ranking a plan is shown whole,
// wrapped in its cell, and the dialog opens over the main window, its title bar on the screen.
#include <QAction>
#include <QListWidget>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>

#include "base/size_text.h"
#include "checks/comparison.h"
#include "compare_dialog.h"
#include "explorer_window_fixture.h"
#include "model_problems.h"
#include "test_support.h"
#include "window_fit.h"

using namespace usmpx;

namespace {

QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

// Checks exactly the named algorithms in the dialog's list.
void choose(app::CompareDialog& dialog, const QStringList& names) {
  QListWidget* list = dialog.choices();
  for (int i = 0; i < list->count(); ++i)
    list->item(i)->setCheckState(names.contains(list->item(i)->text()) ? Qt::Checked : Qt::Unchecked);
}

int row_named(const QTableWidget* table, const QString& name) {
  for (int r = 0; r < table->rowCount(); ++r)
    if (table->item(r, 0) && table->item(r, 0)->text() == name) return r;
  return -1;
}

}  // namespace

class TestCompareDialog : public ExplorerWindowFixture {
  Q_OBJECT

  QString large_path_;

 private slots:
  void initTestCase() {
    large_path_ = QDir::temp().filePath(QStringLiteral("usmpx_compare_dialog_large.json"));
    testing::write_model_shaped_problem(large_path_.toStdString(), 800, 4 * 1024 * 1024);
  }
  void cleanupTestCase() { QFile::remove(large_path_); }
  void cleanup() {
    window_.reset();
    app::set_available_area(QRect());
  }

  // The fast planner's row is filled while the searching ones still run; the row being searched
  // says so, the one after it waits; at the end every row has its plan.
  void rows_appear_as_each_plan_is_made() {
    make_window(1600, 1000);
    open(large_path_);
    window_->time_limit_box()->setValue(1.0);
    controller()->wait_idle();
    app::CompareDialog dialog(controller(), window_.get());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    const QStringList names{QStringLiteral("greedy_by_size"), QStringLiteral("best"), QStringLiteral("hill_climb")};
    choose(dialog, names);
    // The rows in the order the algorithms run (the list's order); looked at as each algorithm
    // starts, after the dialog's own slot updated the table. The plan of the algorithm before it
    // has arrived by then (it is sent first).
    struct Seen {
      bool comparing = false;
      int rows = 0;
      QStringList states;       // per row: the text across its figures ("running…", "waiting")
      QList<qlonglong> totals;  // per row: its total's bytes, -1 while it has none
      QStringList total_texts;
    };
    std::vector<Seen> seen;
    QSignalSpy ready(controller(), &app::ExplorerController::comparison_ready);
    connect(controller(), &app::ExplorerController::comparison_progress, this, [&](int, int, const QString&) {
      QTableWidget* table = dialog.table();
      Seen s;
      // Before the comparison ends: comparison_ready not yet emitted. (The progress signal is queued
      // by the worker; on a busy machine the worker may be done before it is delivered, so the
      // watcher's isRunning() is no witness, but the ready signal is always delivered after it.)
      s.comparing = ready.isEmpty();
      s.rows = table->rowCount();
      const int total_column = table->columnCount() - 6;  // Total, Gap, Time, Fits, Valid, Not ranked because
      for (int r = 0; r < table->rowCount(); ++r) {
        s.states << (table->item(r, 1) ? table->item(r, 1)->text() : QString());
        QTableWidgetItem* total = table->item(r, total_column);
        s.totals << (total ? total->data(Qt::UserRole).toLongLong() : -1);
        s.total_texts << (total ? total->text() : QString());
      }
      seen.push_back(s);
    });
    QTest::mouseClick(dialog.run_button(), Qt::LeftButton);
    QCOMPARE(dialog.table()->rowCount(), 3);  // every algorithm listed at once
    QVERIFY(ready.wait(120000));
    QCOMPARE(seen.size(), size_t{3});
    for (int k = 0; k < 3; ++k) {
      const Seen& s = seen[static_cast<size_t>(k)];
      QCOMPARE(s.rows, 3);
      QVERIFY(s.comparing);  // before the comparison ends
      for (int r = 0; r < 3; ++r) {
        if (r < k) {
          // Made before this one started: its row shows its bytes.
          QVERIFY2(s.totals[r] > 0, qPrintable(QStringLiteral("at %1, row %2: %3").arg(k).arg(r).arg(s.states[r])));
          QVERIFY(s.total_texts[r].startsWith(qs(with_separators(s.totals[r]))));
        } else {
          QCOMPARE(s.states[r], r == k ? QStringLiteral("running…") : QStringLiteral("waiting"));
        }
      }
    }
    // At the end every row has its plan, the figures the controller's comparison gives.
    QTableWidget* table = dialog.table();
    QCOMPARE(table->rowCount(), 3);
    const std::vector<Plan>& plans = controller()->comparison();
    QCOMPARE(plans.size(), size_t{3});
    const int total_column = table->columnCount() - 6;
    for (const Plan& plan : plans) {
      const int r = row_named(table, qs(plan.algorithm));
      QVERIFY2(r >= 0, plan.algorithm.c_str());
      QCOMPARE(table->item(r, total_column)->data(Qt::UserRole).toLongLong(), qlonglong{plan.total_size()});
      QVERIFY(dialog.chart_box(r)->isVisible());
    }
    QCOMPARE(dialog.progress()->text(), QStringLiteral("Done: 3 algorithms"));
    save_artefact(&dialog, QStringLiteral("compare_dialog_rows_as_made.png"));
  }

  // "Not ranked because": the whole reason, wrapped in its cell, the table not scrolling sideways.
  void a_reason_is_shown_whole_and_wrapped() {
    app::set_available_area(QRect(0, 0, 1280, 720));
    make_window(1280, 720);
    open(qs(testing::fixture_path("mlf/usmp_default_pools")));
    SessionEdits next = controller()->edits();
    next.algorithm = "best";
    for (PoolSetting& p : next.pools) {
      if (p.pool.name == "global_workspace") p.pool.size_hint_bytes = 128;
    }
    QVERIFY(controller()->apply_edit(QStringLiteral("hint"), next));
    controller()->wait_idle();
    app::CompareDialog dialog(controller(), window_.get());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QSignalSpy ready(controller(), &app::ExplorerController::comparison_ready);
    dialog.run();
    QVERIFY(ready.wait(60000));
    QTest::qWait(50);
    QTableWidget* table = dialog.table();
    const int reason = table->columnCount() - 1;
    QVERIFY(!table->isColumnHidden(reason));
    const std::vector<ComparedPlan> ranking = rank_plans(controller()->problem(), controller()->comparison());
    int wrapped = 0;
    for (int r = 0; r < table->rowCount(); ++r) {
      const ComparedPlan& rank = ranking[static_cast<size_t>(r)];
      if (rank.ranked) continue;
      QTableWidgetItem* item = table->item(r, reason);
      QCOMPARE(item->text(), qs(rank.reason));  // whole, not cut
      const int width = table->columnWidth(reason) - 8;
      const QRect needed = table->fontMetrics().boundingRect(QRect(0, 0, width, 10000), Qt::TextWordWrap, item->text());
      QVERIFY2(
          table->rowHeight(r) >= needed.height(),
          qPrintable(
              QStringLiteral("row %1: %2 px for %3 px of text").arg(r).arg(table->rowHeight(r)).arg(needed.height())));
      if (table->fontMetrics().horizontalAdvance(item->text()) > width) ++wrapped;
    }
    QVERIFY(table->wordWrap());
    QVERIFY(!table->horizontalScrollBar()->isVisible());
    QVERIFY2(wrapped > 0, "no reason needed wrapping at 1280x720");
    save_artefact(&dialog, QStringLiteral("compare_dialog_reasons_1280x720.png"));
  }

  // Plan ▸ Compare Algorithms opens the dialog centred over the main window, not at the
  // screen's corner: its title bar (above its top) stays within the screen.
  void opens_over_the_main_window() {
    app::set_available_area(QRect(0, 0, 1600, 1000));
    make_window(1280, 720);
    window_->move(220, 140);
    open(qs(testing::fixture_path("mlf/usmp_default_pools")));
    QAction* compare = nullptr;
    for (QAction* action : window_->findChildren<QAction*>())
      if (action->text() == QStringLiteral("C&ompare Algorithms…")) compare = action;
    QVERIFY(compare);
    compare->trigger();
    auto* dialog = window_->findChild<app::CompareDialog*>();
    QVERIFY(dialog);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    controller()->wait_idle();
    QTRY_VERIFY(!controller()->comparing());
    // Centred across the window; vertically over it (it may have grown downwards for its rows).
    const QRect placed = dialog->geometry();
    const QRect main = window_->geometry();
    QVERIFY2(
        std::abs(placed.center().x() - main.center().x()) <= 8,
        qPrintable(
            QStringLiteral("dialog centred at x %1, window at x %2").arg(placed.center().x()).arg(main.center().x())));
    QVERIFY2(placed.top() >= 32 && placed.left() > 0,
             qPrintable(QStringLiteral("%1,%2").arg(placed.left()).arg(placed.top())));
    QVERIFY2(
        placed.top() > main.top() - 100 && placed.top() < main.center().y(),
        qPrintable(QStringLiteral("dialog top %1, window %2–%3").arg(placed.top()).arg(main.top()).arg(main.bottom())));
    QVERIFY(QRect(0, 0, 1600, 1000).contains(placed));
    dialog->close();
  }
};

QTEST_MAIN(TestCompareDialog)
#include "tst_compare_dialog.moc"
