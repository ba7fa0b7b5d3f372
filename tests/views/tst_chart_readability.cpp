// What the pool charts say, read as a user reads them: the axes stop at the data (no negative
// ticks or offsets however far one zooms out), TVM's outlines are shown whole, sizes from 1 GiB
// read in GiB, a header gives used and hint in one unit, and box labels leave out the scopes the
// names share ("MobilenetV1/MobilenetV1/").
#include <QWheelEvent>
#include <QtTest>

#include "chart/byte_ticker.h"
#include "chart/chart_data.h"
#include "chart/pool_chart_widget.h"
#include "chart/qcustomplot_include.h"
#include "checks/plan_summary.h"

using namespace usmpx;

namespace {

// `count` buffers one after the other in one pool, each `size` bytes, named by `name(i)`.
Problem chain(int count, int64_t size, int64_t hint, const std::function<std::string(int)>& name) {
  Problem problem;
  problem.pools = {Pool{.name = "sram", .size_hint_bytes = hint, .alignment = 1}};
  for (int i = 0; i < count; ++i) {
    Buffer b;
    b.name = name(i);
    b.size_bytes = size;
    b.pool_candidates = {0};
    b.lifetime = Lifetime::closed(i, i + 1);
    problem.buffers.push_back(b);
  }
  return problem;
}

// Each buffer at offset 0 except every other one above it.
Plan stacked_in_pairs(const Problem& problem) {
  Plan plan;
  plan.algorithm = "test";
  for (size_t b = 0; b < problem.buffers.size(); ++b)
    plan.allocations.push_back(Allocation{0, b % 2 == 0 ? 0 : problem.buffers[b].size_bytes});
  plan.pool_sizes = {2 * problem.buffers.front().size_bytes};
  return plan;
}

views::ChartData chart_data(const Problem& problem, const Plan& plan) {
  return views::build_chart_data(problem, plan, summarize_plan(problem, plan));
}

void wheel(QWidget* widget, QPoint at, int delta) {
  QWheelEvent event(at, widget->mapToGlobal(at), QPoint(), QPoint(0, delta), Qt::NoButton, Qt::NoModifier,
                    Qt::NoScrollPhase, false);
  QApplication::sendEvent(widget, &event);
}

}  // namespace

class TestChartReadability : public QObject {
  Q_OBJECT

 private slots:
  // Zooming out stops at the run and at offset 0: no negative tick, no negative offset.
  void zoom_out_stops_at_the_data() {
    const Problem problem = chain(10, 1000, -1, [](int i) { return "b" + std::to_string(i); });
    const Plan plan = stacked_in_pairs(problem);
    views::PoolChartWidget chart;
    chart.resize(900, 500);
    chart.set_data(chart_data(problem, plan));
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    QCPAxisRect* rect = chart.plot()->axisRect(0);
    const QPoint middle = rect->rect().center();
    for (int i = 0; i < 30; ++i)
      wheel(chart.plot(), middle, -240);  // far out
    const QCPRange ticks = rect->axis(QCPAxis::atBottom)->range();
    const QCPRange offsets = rect->axis(QCPAxis::atLeft)->range();
    const views::ChartData& data = chart.data();
    const double span = data.tick_end - data.tick_first;
    QVERIFY2(ticks.lower >= data.tick_first - 0.02 * span - 1e-9 && ticks.upper <= data.tick_end + 0.02 * span + 1e-9,
             qPrintable(QStringLiteral("%1–%2").arg(ticks.lower).arg(ticks.upper)));
    QVERIFY2(offsets.lower >= 0 && offsets.upper <= 2 * 2000 * 1.08 + 1e-6,
             qPrintable(QStringLiteral("%1–%2").arg(offsets.lower).arg(offsets.upper)));
    // Panning past the start is brought back too.
    rect->axis(QCPAxis::atBottom)->setRange(-50, -10);
    QVERIFY(rect->axis(QCPAxis::atBottom)->range().lower >= data.tick_first - 0.02 * span - 1e-9);
    rect->axis(QCPAxis::atLeft)->setRange(-5000, -100);
    QCOMPARE(rect->axis(QCPAxis::atLeft)->range().lower, 0.0);
  }

  // TVM's plan drawn as outlines: a chart showing its whole pool grows to the outlines' top, so
  // the boxes above the new plan's size and hint are not cut.
  void the_reference_outline_is_shown_whole() {
    Problem problem = chain(4, 1000, 2500, [](int i) { return "b" + std::to_string(i); });
    const Plan plan = stacked_in_pairs(problem);  // 2,000 B
    std::vector<Allocation> tvm;
    for (size_t b = 0; b < problem.buffers.size(); ++b)
      tvm.push_back(Allocation{0, static_cast<int64_t>(b) * 1000});  // 4,000 B: above the hint
    views::ChartData data = chart_data(problem, plan);
    views::add_reference(data, problem, tvm, {4000});
    views::PoolChartWidget chart;
    chart.resize(900, 500);
    chart.set_data(std::move(data));
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    QCPAxis* offsets = chart.plot()->axisRect(0)->axis(QCPAxis::atLeft);
    QVERIFY(offsets->range().upper < 4000);  // fitted to the plan and its hint
    chart.set_show_reference(true);
    QVERIFY2(offsets->range().upper >= 4000, qPrintable(QString::number(offsets->range().upper)));
  }

  void sizes_from_one_gib_read_in_gib() {
    const double gib = 1024.0 * 1024.0 * 1024.0;
    QCOMPARE(views::ByteTicker::label(2 * gib, QCPRange(0, 2.3 * gib)), QStringLiteral("2 GiB"));
    QCOMPARE(views::ByteTicker::label(0.5 * gib, QCPRange(0, 2.3 * gib)), QStringLiteral("0.5 GiB"));
    QCOMPARE(views::ByteTicker::label(512 * 1024 * 1024.0, QCPRange(0, 900 * 1024 * 1024.0)),
             QStringLiteral("512 MiB"));
    QCOMPARE(views::format_byte_count(2403844260LL), QStringLiteral("2.24 GiB"));
  }

  // "used 16.5 KiB of 8 KiB (…%)", not "of 8,192 B": both in the unit of the larger.
  void a_header_gives_used_and_hint_in_one_unit() {
    const Problem problem = chain(2, 8448, 8192, [](int i) { return "b" + std::to_string(i); });
    const Plan plan = stacked_in_pairs(problem);  // 16,896 B
    views::PoolChartWidget chart;
    chart.resize(1200, 500);
    chart.set_data(chart_data(problem, plan));
    const QString title = chart.pool_title(0);
    QVERIFY2(title.contains(QStringLiteral("used 16.5 KiB of 8 KiB (")), qPrintable(title));
  }

  // TFLite names of a whole network share two scopes: both are left out of the labels.
  void labels_leave_out_the_scopes_every_name_shares() {
    const char* layers[] = {"Conv2d_0/Relu6", "Conv2d_1_depthwise/Relu6", "Conv2d_1_pointwise/Relu6",
                            "Conv2d_2_depthwise/Relu6"};
    Problem problem = chain(4, 64, -1, [&](int i) { return std::string("MobilenetV1/MobilenetV1/") + layers[i]; });
    problem.buffers.push_back(problem.buffers.back());
    problem.buffers.back().name = "input";
    const views::ChartData data = chart_data(problem, stacked_in_pairs(problem));
    QCOMPARE(data.label_prefix, QStringLiteral("MobilenetV1/MobilenetV1/"));
    QStringList labels;
    for (const views::BufferBox& box : data.pools[0].boxes)
      labels << box.label;
    labels.sort();
    QCOMPARE(labels, QStringList({QStringLiteral("Conv2d_0/Relu6"), QStringLiteral("Conv2d_1_depthwise/Relu6"),
                                  QStringLiteral("Conv2d_1_pointwise/Relu6"),
                                  QStringLiteral("Conv2d_2_depthwise/Relu6"), QStringLiteral("input")}));
  }
};

QTEST_MAIN(TestChartReadability)
#include "tst_chart_readability.moc"
