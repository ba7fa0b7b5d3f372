// Figures as the window and its reports word them: a buffer's offset in its tooltip with
// thousands separators, like every other figure, and "1 pool" (not "1 pools") in the reports.
#include <QTemporaryDir>
#include <QToolTip>
#include <QtTest>

#include "base/size_text.h"
#include "base/text_file.h"
#include "explorer_window_fixture.h"
#include "report_writer.h"
#include "test_support.h"

using namespace usmpx;

class TestSizeWords : public ExplorerWindowFixture {
  Q_OBJECT

 private slots:
  void cleanup() { window_.reset(); }

  void offsets_have_separators_and_one_pool_is_singular() {
    const std::string model = testing::shared_path("tflite/models/kws_ref_model.tflite");
    if (model.empty()) QSKIP("shared data not found: tflite/models/kws_ref_model.tflite (set USMPX_SHARED_DIR)");
    make_window(1600, 1000);
    open(QString::fromStdString(model));
    QCOMPARE(controller()->problem().pools.size(), size_t{1});
    // The buffer placed highest, its offset in the thousands.
    const Plan& plan = controller()->plan();
    int highest = -1;
    for (size_t b = 0; b < plan.allocations.size(); ++b) {
      if (plan.allocations[b].placed() &&
          (highest < 0 || plan.allocations[b].offset > plan.allocations[static_cast<size_t>(highest)].offset))
        highest = static_cast<int>(b);
    }
    QVERIFY(highest >= 0);
    const int64_t offset = plan.allocations[static_cast<size_t>(highest)].offset;
    QVERIFY2(offset >= 1000, qPrintable(QString::number(offset)));
    views::PoolChartWidget* chart = window_->chart();
    window_->select_buffers({highest}, true);  // zoomed until its box is readable
    chart->plot()->replot();
    const QPoint at = chart->buffer_center(highest);
    QVERIFY(at.x() >= 0);
    QTest::mouseMove(chart->plot(), at);
    QTRY_VERIFY(!QToolTip::text().isEmpty());
    const QString words = QStringLiteral(" at %1 in arena").arg(QString::fromStdString(with_separators(offset)));
    QVERIFY2(QToolTip::text().contains(words), qPrintable(QToolTip::text() + "\nexpected: " + words));
    // The reports: "in 1 pool" and "1 pool.", never "1 pools".
    const QString pdf = app::report_summary_html(*controller(), *chart);
    QVERIFY2(pdf.contains(QStringLiteral(" buffers in 1 pool, planned with")), qPrintable(pdf));
    QTemporaryDir dir;
    QString error;
    QVERIFY2(!app::write_review_report(*controller(), *chart, dir.path(), &error).isEmpty(), qPrintable(error));
    const QString html =
        QString::fromStdString(read_text_file(dir.filePath(QStringLiteral("report.html")).toStdString()));
    QVERIFY2(html.contains(QStringLiteral(" buffers, 1 pool. Chosen")), qPrintable(html.left(2000)));
    QVERIFY(!html.contains(QStringLiteral("1 pools")) && !pdf.contains(QStringLiteral("1 pools")));
  }
};

QTEST_MAIN(TestSizeWords)
#include "tst_size_words.moc"
