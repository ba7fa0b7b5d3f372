// Item models of the explorer, checked with QAbstractItemModelTester and for their values.
#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QtTest>

#include "planners/registry.h"
#include "tables/buffer_table_model.h"
#include "tables/diagnostics_model.h"
#include "test_support.h"

using namespace usmpx;

class TestModels : public QObject {
  Q_OBJECT

 private slots:
  void buffer_table_shows_plan() {
    const Problem problem = testing::load_problem_fixture("tvm_examples/linear.json");
    const Plan plan = testing::plan_with("greedy_by_size", problem);
    views::BufferTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.set_problem(problem, {1, 2, 2, 2, 2, 1});
    model.set_plan(plan);
    QCOMPARE(model.rowCount(), 6);
    QCOMPARE(model.columnCount(), static_cast<int>(views::BufferTableModel::kColumnCount));
    const int c = 2;  // bi_c
    QCOMPARE(model.data(model.index(c, views::BufferTableModel::kName), Qt::DisplayRole).toString(),
             QStringLiteral("bi_c"));
    QCOMPARE(model.data(model.index(c, views::BufferTableModel::kOffset), Qt::DisplayRole).toLongLong(), 0);
    QCOMPARE(model.data(model.index(0, views::BufferTableModel::kOffset), Qt::DisplayRole).toLongLong(), 120);  // bi_a
    QCOMPARE(model.data(model.index(0, views::BufferTableModel::kEnd), Qt::DisplayRole).toLongLong(), 130);
    QCOMPARE(model.data(model.index(3, views::BufferTableModel::kConflicts), Qt::DisplayRole).toInt(), 2);
    QCOMPARE(model.data(model.index(4, views::BufferTableModel::kPool), views::BufferTableModel::kBufferRole).toInt(),
             4);

    // Sorting by offset numerically through a proxy, as the window does.
    QSortFilterProxyModel proxy;
    QAbstractItemModelTester proxy_tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    proxy.setSortRole(Qt::EditRole);
    proxy.sort(views::BufferTableModel::kOffset, Qt::DescendingOrder);
    QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("bi_a"));
    proxy.setFilterKeyColumn(-1);
    proxy.setFilterFixedString(QStringLiteral("bi_e"));
    QCOMPARE(proxy.rowCount(), 1);
  }

  void diagnostics_carry_culprits() {
    views::DiagnosticsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    Diagnostic warning{Severity::kWarning, "truncated", "lib0.c is truncated", {}, -1, {"default_lib0.c", 12, 3}};
    Diagnostic overlap{Severity::kError, "overlap", "buffers 'a' and 'b' overlap\nsecond line", {0, 1}, 2, {}};
    model.set_diagnostics({warning}, {overlap});
    // The plan's error first; the input's warning below, under its heading.
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.error_count(), 1);
    QCOMPARE(model.index(0).data().toString(), QStringLiteral("buffers 'a' and 'b' overlap"));
    QCOMPARE(model.index(1).data().toString(), QStringLiteral("Reading the input (1):"));
    QCOMPARE(model.index(2).data().toString(), QStringLiteral("default_lib0.c:12:3: lib0.c is truncated"));
    QCOMPARE(model.index(0).data(Qt::ToolTipRole).toString(),
             QStringLiteral("buffers 'a' and 'b' overlap\nsecond line"));
    QCOMPARE(model.index(0).data(views::DiagnosticsModel::kBuffersRole).value<QList<int>>(), (QList<int>{0, 1}));
    QCOMPARE(model.index(0).data(views::DiagnosticsModel::kPoolRole).toInt(), 2);
  }

  void diagnostics_show_each_finding_once_and_paths_once() {
    views::DiagnosticsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    // A reader's message that names its file already, and the same finding reported twice.
    Diagnostic located{Severity::kWarning,      "parse", "default_lib1.c:7:2: unknown call", {}, -1,
                       {"default_lib1.c", 7, 2}};
    Diagnostic note{Severity::kNote, "exact-search", "pool 'sram': 128 bytes, proven optimal", {}, 1, {}};
    Diagnostic unexplained{Severity::kWarning,
                           "overflow-unexplained",
                           "pool 'sram' is 16 bytes short; a longer search (a higher time limit) may find a plan",
                           {},
                           1,
                           {}};
    model.set_diagnostics({located, located}, {note, note, unexplained});
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.index(0).data().toString(), QStringLiteral("pool 'sram': 128 bytes, proven optimal"));
    QCOMPARE(model.index(2).data().toString(), QStringLiteral("Reading the input (1):"));
    QCOMPARE(model.index(3).data().toString(), QStringLiteral("default_lib1.c:7:2: unknown call"));
    // The explorer's time limit is named as the user sees it.
    QCOMPARE(model.index(1).data().toString(),
             QStringLiteral("pool 'sram' is 16 bytes short; a longer search (a higher time limit) may find a plan (the "
                            "limit box in the toolbar)"));
  }
};

QTEST_MAIN(TestModels)
#include "tst_models.moc"
