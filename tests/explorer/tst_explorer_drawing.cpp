// The explorer's charts draw what the checker uses: a buffer's boxes are its live ranges (an
// operator called twice draws two), a remaining overlap is explained, pool headers claim only
// what holds, and no valid plan of the real models draws two boxes over each other.
#include <QtTest>

#include "chart/chart_data.h"
#include "checks/plan_summary.h"
#include "checks/shared_addresses.h"
#include "explorer_window_fixture.h"
#include "inputs/input_file.h"
#include "model/conflict_graph.h"
#include "panels/inspector_widget.h"
#include "planners/registry.h"
#include "test_support.h"

using namespace usmpx;

namespace {

QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

int buffer_index(const Problem& problem, const char* name) {
  const std::optional<int> b = problem.find_buffer(name);
  return b ? *b : -1;
}

// Pairs of buffers of one pool whose drawn rectangles (chart coordinates) overlap with an area.
std::vector<std::pair<int, int>> drawn_overlaps(const views::PoolChartData& pool) {
  std::vector<std::pair<int, int>> out;
  for (size_t i = 0; i < pool.boxes.size(); ++i) {
    for (size_t j = i + 1; j < pool.boxes.size(); ++j) {
      bool overlap = false;
      for (const QRectF& a : pool.boxes[i].drawn()) {
        for (const QRectF& b : pool.boxes[j].drawn()) {
          const QRectF both = a.normalized().intersected(b.normalized());
          overlap = overlap || (both.width() > 0 && both.height() > 0);
        }
      }
      if (overlap) out.emplace_back(pool.boxes[i].buffer, pool.boxes[j].buffer);
    }
  }
  return out;
}

// Every drawn overlap of a plan's charts, "a / b" per pair.
QStringList drawn_overlaps(const Problem& problem, const Plan& plan) {
  const views::ChartData data = views::build_chart_data(problem, plan, summarize_plan(problem, plan));
  QStringList out;
  for (const views::PoolChartData& pool : data.pools) {
    for (const auto& [a, b] : drawn_overlaps(pool))
      out << qs(problem.buffers[static_cast<size_t>(a)].name + " / " + problem.buffers[static_cast<size_t>(b)].name);
  }
  return out;
}

bool valid(const Problem& problem, const Plan& plan) {
  return !plan.has_errors() && plan_fits(problem, plan);
}

}  // namespace

class TestExplorerDrawing : public ExplorerWindowFixture {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("usmpx-drawing-tests"));
  }

  void init() {
    QSettings().clear();
    make_window();
  }

  void cleanup() { window_.reset(); }

  // An operator called twice: its own buffer is drawn as two boxes, one per call, and the tensor
  // that lives between the calls at the same addresses is drawn in the gap, over nothing.
  void boxes_are_the_intervals_the_checker_uses() {
    open(qs(testing::fixture_path("tir/operator_called_twice.py")));
    use_algorithm("greedy_by_size");
    const Problem& problem = controller()->problem();
    const Plan& plan = controller()->plan();
    QVERIFY(valid(problem, plan));
    const int trans = buffer_index(problem, "T_layout_trans");
    const int sid15 = buffer_index(problem, "sid_15");
    QVERIFY(trans >= 0 && sid15 >= 0);
    // The situation of the ESP32 model: same pool, same offset, lifetimes nested, no conflict.
    QCOMPARE(plan.allocations[trans].pool, plan.allocations[sid15].pool);
    QCOMPARE(plan.allocations[trans].offset, int64_t{0});
    QCOMPARE(plan.allocations[sid15].offset, int64_t{0});
    const std::vector<int> conflicts = controller()->conflicts_of(sid15);
    QVERIFY(std::find(conflicts.begin(), conflicts.end(), trans) == conflicts.end());
    const Buffer& t = problem.buffers[static_cast<size_t>(trans)];
    const Buffer& s = problem.buffers[static_cast<size_t>(sid15)];
    QVERIFY(t.lifetime->begin < s.lifetime->begin && s.lifetime->end < t.lifetime->end);
    // Two live ranges, one per call of layout_trans, with sid_15's lifetime between them.
    QCOMPARE(t.live_ranges.size(), size_t{2});
    QVERIFY(t.live_ranges[0].end <= s.lifetime->begin);
    QVERIFY(s.lifetime->end <= t.live_ranges[1].begin);
    QCOMPARE(t.live_ranges[0].begin, t.lifetime->begin);
    QCOMPARE(t.live_ranges[1].end, t.lifetime->end);

    const views::ChartData& data = window_->chart()->data();
    const views::PoolChartData& pool = data.pools[static_cast<size_t>(plan.allocations[trans].pool)];
    const views::BufferBox* tbox = nullptr;
    const views::BufferBox* sbox = nullptr;
    for (const views::BufferBox& box : pool.boxes) {
      if (box.buffer == trans) tbox = &box;
      if (box.buffer == sid15) sbox = &box;
    }
    QVERIFY(tbox && sbox);
    const std::vector<QRectF> tparts = tbox->drawn();
    QCOMPARE(tparts.size(), size_t{2});
    QCOMPARE(tparts[0].left(), double(t.live_ranges[0].begin));
    QCOMPARE(tparts[0].right(), double(t.live_ranges[0].end));
    QCOMPARE(tparts[1].left(), double(t.live_ranges[1].begin));
    QCOMPARE(tparts[1].right(), double(t.live_ranges[1].end));
    QCOMPARE(sbox->drawn().size(), size_t{1});
    // First-to-last tick boxes would overlap; the drawn ones do not, in any pool.
    QVERIFY(tbox->x0 < sbox->x0 && sbox->x1 < tbox->x1 && tbox->y0 == sbox->y0);
    QCOMPARE(drawn_overlaps(problem, plan), QStringList{});
    QVERIFY(drawn_over_without_conflict(problem, plan, sid15, conflicts).empty());

    // The mouse finds sid_15 in the gap, and T_layout_trans in each of its boxes.
    views::PoolChartWidget* chart = window_->chart();
    const int p = plan.allocations[trans].pool;
    const double mid_y = (tbox->y0 + tbox->y1) / 2;
    QCOMPARE(chart->buffer_at(chart->pixel_of(p, (sbox->x0 + sbox->x1) / 2, (sbox->y0 + sbox->y1) / 2)), sid15);
    QCOMPARE(chart->buffer_at(chart->pixel_of(p, (tparts[0].left() + tparts[0].right()) / 2, mid_y)), trans);
    QCOMPARE(chart->buffer_at(chart->pixel_of(p, (tparts[1].left() + tparts[1].right()) / 2, mid_y)), trans);

    // The tooltip and the inspector say where it is live.
    const QString ranges = views::live_ranges_text(t);
    QCOMPARE(ranges, QStringLiteral("%1–%2, %3–%4")
                         .arg(t.live_ranges[0].first())
                         .arg(t.live_ranges[0].last())
                         .arg(t.live_ranges[1].first())
                         .arg(t.live_ranges[1].last()));
    window_->select_buffers({trans}, false);
    QVERIFY(window_->inspector()->toPlainText().contains(QStringLiteral("only in ticks ") + ranges));
    save_artefact(window_.get(), QStringLiteral("round4_operator_called_twice_1600x1000.png"));
  }

  // Buffers a problem file lists as not conflicting although their lifetimes overlap share
  // addresses in a valid plan: the overlap that remains is explained, naming the other buffer.
  void a_remaining_overlap_is_explained() {
    const QString path = QDir::temp().filePath(QStringLiteral("usmpx_round4_listed.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(R"({"format": "usmpx-problem", "version": 1,
      "pools": [{"name": "sram", "kind": "workspace", "size_hint_bytes": -1, "alignment": 1}],
      "buffers": [
        {"name": "a", "size_bytes": 100, "pool_candidates": ["sram"], "conflicts": [], "lifetime": [0, 9]},
        {"name": "b", "size_bytes": 60, "pool_candidates": ["sram"], "conflicts": ["c"], "lifetime": [2, 5]},
        {"name": "c", "size_bytes": 40, "pool_candidates": ["sram"], "conflicts": ["b"], "lifetime": [3, 6]}]})");
    file.close();
    open(path);
    use_algorithm("greedy_by_size");
    const Problem& problem = controller()->problem();
    const Plan& plan = controller()->plan();
    QVERIFY(valid(problem, plan));
    const int a = buffer_index(problem, "a");
    const int b = buffer_index(problem, "b");
    QCOMPARE(plan.allocations[a].offset, int64_t{0});
    QCOMPARE(plan.allocations[b].offset, int64_t{0});
    QCOMPARE(drawn_over_without_conflict(problem, plan, a, controller()->conflicts_of(a)), (std::vector<int>{1, 2}));
    window_->select_buffers({a}, false);
    const QString inspector = window_->inspector()->toPlainText();
    QVERIFY2(inspector.contains(QStringLiteral("Drawn over b, c: not live at the same time")), qPrintable(inspector));
    QFile::remove(path);
  }

  // Pool headers: a saving only for a plan that fits; a pool no buffer must go into has no bound.
  void pool_headers_claim_only_what_holds() {
    open(qs(testing::fixture_path("mlf/usmp_default_pools")));
    const int workspace = *controller()->problem().find_pool("global_workspace");
    SessionEdits next = controller()->edits();
    next.algorithm = "best";
    QVERIFY(controller()->apply_edit(QStringLiteral("best"), next));
    controller()->wait_idle();
    QVERIFY(window_->chart()->pool_title(workspace).contains(QStringLiteral(" vs TVM")));
    // Too small a hint: the plan does not fit, and no pool claims a saving.
    next = controller()->edits();
    for (PoolSetting& p : next.pools) {
      if (p.pool.name == "global_workspace") p.pool.size_hint_bytes = 64;
    }
    QVERIFY(controller()->apply_edit(QStringLiteral("hint"), next));
    controller()->wait_idle();
    QVERIFY(!plan_fits(controller()->problem(), controller()->plan()));
    for (int p = 0; p < window_->chart()->pool_count(); ++p)
      QVERIFY2(!window_->chart()->pool_title(p).contains(QStringLiteral(" vs TVM")),
               qPrintable(window_->chart()->pool_title(p)));
    QVERIFY(window_->chart()->pool_title(workspace).contains(QStringLiteral("DOES NOT FIT")));
    controller()->undo();
    controller()->wait_idle();
    // A pool added: nothing must go there, so it has no bound (not "lower bound 0 B").
    next = controller()->edits();
    PoolSetting added;
    added.pool.name = "sram2";
    added.pool.kind = PoolKind::kWorkspace;
    next.pools.push_back(added);
    QVERIFY(controller()->apply_edit(QStringLiteral("add"), next));
    controller()->wait_idle();
    const int sram2 = *controller()->problem().find_pool("sram2");
    const QString title = window_->chart()->pool_title(sram2);
    QVERIFY2(title.contains(QStringLiteral("no bound")) && !title.contains(QStringLiteral("lower bound 0 B")),
             qPrintable(title));
  }

  // No valid plan of the real models and the bundled examples draws two boxes over each other.
  void real_models_draw_no_collision() {
    std::vector<std::string> inputs = {testing::source_path("resources/examples/kws_dscnn.tvmscript.py"),
                                       testing::source_path("resources/examples/kws_dscnn.planned.tvmscript.py"),
                                       testing::source_path("resources/examples/vww_mobilenet.legacy.txt"),
                                       testing::source_path("resources/examples/tiny_classifier.tflite"),
                                       testing::fixture_path("mlf/usmp_cmsis_nn"),
                                       testing::fixture_path("tir/operator_called_twice.py")};
    for (const char* shared : {"mlf/firmware/mlperf_tiny_ic_cmsis_nn", "mlf/letscope_v7.tar"}) {
      const std::string path = testing::shared_path(shared);
      if (!path.empty()) inputs.push_back(path);
    }
    int checked = 0;
    for (const std::string& path : inputs) {
      const LoadedInput input = load_input(path);
      std::vector<Plan> plans;
      if (input.as_built) plans.push_back(*input.as_built);
      plans.push_back(testing::plan_with("greedy_by_size", input.problem));
      for (const Plan& plan : plans) {
        if (!valid(input.problem, plan)) continue;
        ++checked;
        const QStringList overlaps = drawn_overlaps(input.problem, plan);
        QVERIFY2(overlaps.isEmpty(), qPrintable(qs(path + " (" + plan.algorithm + "): ") + overlaps.join(", ")));
      }
    }
    QVERIFY(checked >= 6);
  }
};

QTEST_MAIN(TestExplorerDrawing)
#include "tst_explorer_drawing.moc"
