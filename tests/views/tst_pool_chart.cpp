// The pool charts: coordinate mapping, hit-testing, pixel probes and drag gestures.
#include <QSignalSpy>
#include <QtTest>

#include "chart/box_colors.h"
#include "chart/byte_ticker.h"
#include "chart/chart_data.h"
#include "chart/pool_chart_widget.h"
#include "chart/qcustomplot_include.h"
#include "checks/plan_summary.h"
#include "planners/registry.h"
#include "test_support.h"

using namespace usmpx;

namespace {

// Two pools: fast (hint 100) and slow; the linear example planned into them.
Problem two_pool_problem() {
  Problem problem = testing::load_problem_fixture("tvm_examples/linear.json");
  problem.pools = {Pool{.name = "fast", .size_hint_bytes = 100, .alignment = 1}, Pool{.name = "slow", .alignment = 1}};
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    problem.buffers[i].pool_candidates = {0, 1};
    problem.buffers[i].lifetime = Lifetime::closed(static_cast<int64_t>(i), static_cast<int64_t>(i) + 1);
  }
  return problem;
}

}  // namespace

class TestPoolChart : public QObject {
  Q_OBJECT

 private:
  Problem problem_ = two_pool_problem();
  Plan plan_;
  std::unique_ptr<views::PoolChartWidget> chart_;

  void save_artefact(const QString& name) {
    QDir().mkpath(QStringLiteral(USMPX_ARTEFACTS_DIR));
    chart_->grab().save(QStringLiteral(USMPX_ARTEFACTS_DIR "/") + name);
  }

 private slots:
  void init() {
    plan_ = testing::plan_with("greedy_by_size", problem_);
    chart_ = std::make_unique<views::PoolChartWidget>();
    chart_->resize(900, 600);
    chart_->set_data(views::build_chart_data(problem_, plan_, summarize_plan(problem_, plan_)));
    chart_->show();
    QVERIFY(QTest::qWaitForWindowExposed(chart_.get()));
    chart_->plot()->replot();
  }

  void cleanup() { chart_.reset(); }

  void maps_buffers_to_pixels_and_back() {
    QCOMPARE(chart_->pool_count(), 2);
    for (size_t b = 0; b < problem_.buffers.size(); ++b) {
      const QPoint center = chart_->buffer_center(static_cast<int>(b));
      QVERIFY2(center.x() >= 0, problem_.buffers[b].name.c_str());
      QCOMPARE(chart_->buffer_at(center), static_cast<int>(b));
      QCOMPARE(chart_->pool_at(center), plan_.allocations[b].pool);
    }
    // A pixel's offset maps back to bytes within a pixel's worth.
    const QPoint at = chart_->pixel_of(1, 2.0, 50.0);
    QVERIFY(std::abs(chart_->offset_at(1, at.y()) - 50.0) < 2.0);
    QCOMPARE(chart_->buffer_at(chart_->pixel_of(0, 100.0, 10.0)), -1);  // far right: empty
  }

  // Conflict lists without lifetimes have no time axis: each buffer gets its own column, so two
  // buffers sharing addresses (allowed: they do not conflict) are never drawn on top of each other,
  // and every box can be hit-tested back to its buffer.
  void conflict_lists_draw_each_buffer_in_its_own_column() {
    const Problem lists = testing::load_problem_fixture("tvm_examples/linear.json");
    const Plan plan = testing::plan_with("best", lists);
    QCOMPARE(plan.allocations[0].offset, plan.allocations[4].offset);  // bi_a and bi_e share offset 0
    const views::ChartData data = views::build_chart_data(lists, plan, summarize_plan(lists, plan));
    QVERIFY(data.buffer_columns);
    QCOMPARE(data.tick_first, 0.0);
    QCOMPARE(data.tick_end, 6.0);
    const std::vector<views::BufferBox>& boxes = data.pools[0].boxes;
    QCOMPARE(boxes.size(), size_t{6});
    for (const views::BufferBox& box : boxes) {
      QCOMPARE(box.x0, static_cast<double>(box.buffer));
      QCOMPARE(box.x1, static_cast<double>(box.buffer) + 1.0);
    }
    chart_->set_data(data);
    chart_->plot()->replot();
    for (size_t b = 0; b < lists.buffers.size(); ++b)
      QCOMPARE(chart_->buffer_at(chart_->buffer_center(static_cast<int>(b))), static_cast<int>(b));
    QCOMPARE(chart_->plot()->axisRects().at(0)->axis(QCPAxis::atBottom)->label(),
             QStringLiteral("buffers, one column each (conflict lists: no time axis)"));
    save_artefact(QStringLiteral("conflict_list_columns.png"));
    // With lifetimes (the two-pool problem of the other cases) the axis is time again.
    chart_->set_data(views::build_chart_data(problem_, plan_, summarize_plan(problem_, plan_)));
    QCOMPARE(chart_->plot()->axisRects().at(1)->axis(QCPAxis::atBottom)->label(), QStringLiteral("time (ticks)"));
  }

  // One unit per axis: KiB or MiB by the axis's top above 10,000 bytes, plain bytes below.
  void byte_axis_labels_keep_one_unit() {
    using views::ByteTicker;
    QCOMPARE(ByteTicker::label(8192, QCPRange(0, 17000)), QStringLiteral("8 KiB"));
    QCOMPARE(ByteTicker::label(12288, QCPRange(0, 17000)), QStringLiteral("12 KiB"));
    QCOMPARE(ByteTicker::label(0, QCPRange(0, 17000)), QStringLiteral("0 B"));
    QCOMPARE(ByteTicker::label(4000, QCPRange(0, 9000)), QStringLiteral("4,000 B"));
    QCOMPARE(ByteTicker::label(1.5 * 1024 * 1024, QCPRange(0, 4.5 * 1024 * 1024)), QStringLiteral("1.5 MiB"));
    QCOMPARE(ByteTicker::label(512 * 1024, QCPRange(0, 2.2 * 1024 * 1024)), QStringLiteral("0.5 MiB"));
    QCOMPARE(ByteTicker::label(256 * 1024, QCPRange(0, 1.1 * 1024 * 1024)), QStringLiteral("0.25 MiB"));
  }

  void pixels_show_the_role_colour() {
    const QImage image = chart_->plot()->toPixmap().toImage();
    const QColor expected = views::role_color(BufferRole::kIntermediate);
    const auto near = [](int channel, int full) {
      return channel >= full - 2 && channel <= full + (255 - full) * 50 / 255 + 2;
    };
    for (size_t b = 0; b < problem_.buffers.size(); ++b) {
      // Boxes are drawn at alpha 210 over white: each channel lies between the colour and white.
      // Probe a few inner points, since a label or the live-bytes line may cross one of them.
      const QRect r = chart_->buffer_rect(static_cast<int>(b));
      QVERIFY(r.width() > 8 && r.height() > 8);
      int matching = 0;
      for (const QPoint& probe :
           {r.bottomLeft() + QPoint(4, -4), r.bottomRight() + QPoint(-4, -4), r.center() + QPoint(0, r.height() / 3)}) {
        const QColor pixel = image.pixelColor(probe);
        matching += near(pixel.red(), expected.red()) && near(pixel.green(), expected.green()) &&
                    near(pixel.blue(), expected.blue());
      }
      QVERIFY2(matching >= 2, problem_.buffers[b].name.c_str());
    }
    // Where no box is, the background shows (white, apart from grid lines and the marker lines).
    int empty = 0;
    int white = 0;
    for (int pool = 0; pool < 2; ++pool) {
      for (double tick = 0.25; tick < 7; tick += 0.5) {
        for (double offset = 5; offset < 200; offset += 10) {
          const QPoint at = chart_->pixel_of(pool, tick, offset);
          if (chart_->pool_at(at) != pool || chart_->buffer_at(at) >= 0) continue;
          ++empty;
          white += image.pixelColor(at).lightness() > 235;
        }
      }
    }
    QVERIFY(empty > 20);
    QVERIFY2(white * 10 >= empty * 8, qPrintable(QStringLiteral("%1 of %2").arg(white).arg(empty)));
    save_artefact(QStringLiteral("pool_chart.png"));
  }

  void click_selects_and_drag_between_pools_repins() {
    QSignalSpy clicked(chart_.get(), &views::PoolChartWidget::buffer_clicked);
    QSignalSpy pinned(chart_.get(), &views::PoolChartWidget::pin_requested);
    const int buffer = *problem_.find_buffer("bi_e");
    const int from_pool = plan_.allocations[static_cast<size_t>(buffer)].pool;
    const QPoint start = chart_->buffer_center(buffer);
    QTest::mouseClick(chart_->plot(), Qt::LeftButton, {}, start);
    QCOMPARE(clicked.count(), 1);
    QCOMPARE(clicked.at(0).at(0).toInt(), buffer);

    const int to_pool = 1 - from_pool;
    const QPoint target = chart_->pixel_of(to_pool, 4.5, 10.0);
    QTest::mousePress(chart_->plot(), Qt::LeftButton, {}, start);
    QTest::mouseMove(chart_->plot(), (start + target) / 2);
    QTest::mouseMove(chart_->plot(), target);
    QTest::mouseRelease(chart_->plot(), Qt::LeftButton, {}, target);
    QCOMPARE(pinned.count(), 1);
    QCOMPARE(pinned.at(0).at(0).toInt(), buffer);
    QCOMPARE(pinned.at(0).at(1).toInt(), to_pool);
    QCOMPARE(pinned.at(0).at(2).toLongLong(), -1LL);  // another pool: any offset
  }

  void vertical_drag_pins_an_offset() {
    QSignalSpy pinned(chart_.get(), &views::PoolChartWidget::pin_requested);
    const int buffer = *problem_.find_buffer("bi_a");
    const int pool = plan_.allocations[static_cast<size_t>(buffer)].pool;
    const QPoint start = chart_->buffer_center(buffer);
    const int dy = chart_->pixel_of(pool, 0, 0).y() - chart_->pixel_of(pool, 0, 40).y();  // 40 bytes up
    const QPoint end = start - QPoint(0, dy);
    QTest::mousePress(chart_->plot(), Qt::LeftButton, {}, start);
    QTest::mouseMove(chart_->plot(), end);
    QTest::mouseRelease(chart_->plot(), Qt::LeftButton, {}, end);
    QCOMPARE(pinned.count(), 1);
    QCOMPARE(pinned.at(0).at(1).toInt(), pool);
    const qint64 expected = plan_.allocations[static_cast<size_t>(buffer)].offset + 40;
    QVERIFY2(std::abs(pinned.at(0).at(2).toLongLong() - expected) <= 2,
             qPrintable(QString::number(pinned.at(0).at(2).toLongLong())));
  }

  void dragging_the_hint_line_resizes_the_pool() {
    QSignalSpy resized(chart_.get(), &views::PoolChartWidget::size_hint_requested);
    const QPoint start = chart_->hint_line_point(0);
    const QPoint end(start.x(), chart_->pixel_of(0, 0, 60).y());
    QTest::mousePress(chart_->plot(), Qt::LeftButton, {}, start);
    QTest::mouseMove(chart_->plot(), end);
    QTest::mouseRelease(chart_->plot(), Qt::LeftButton, {}, end);
    QCOMPARE(resized.count(), 1);
    QCOMPARE(resized.at(0).at(0).toInt(), 0);
    QVERIFY2(std::abs(resized.at(0).at(1).toLongLong() - 60) <= 2,
             qPrintable(QString::number(resized.at(0).at(1).toLongLong())));
  }
};

QTEST_MAIN(TestPoolChart)
#include "tst_pool_chart.moc"
