// From an edit to the repainted charts, for 200, 2,000 and 20,000 buffers: the edit (a pin)
// re-plans on the worker thread, the window receives the plan and the charts replot. Printed next
// to the planner's own time in the same run, so the GUI's share shows as a ratio.
//
// Then "instant, then better" on model-shaped problems (1,000 and 20,000 buffers, 4 MiB of
// constants all live together) with best, the explorer's default: for each edit the time to the
// first repaint (the greedy first pass) and to the final plan's repaint, next to best re-planning
// the whole problem from scratch (what every edit cost before) in the same run. Targets: first
// repaint <= 100 ms and final <= 1 s at 1,000 buffers; first repaint <= 250 ms at 20,000.
//
// Runs offscreen: QT_QPA_PLATFORM=offscreen usmpx_bench_gui_edit [buffers]
#include <QApplication>
#include <QElapsedTimer>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "base/text_file.h"
#include "chart/pool_chart_widget.h"
#include "chart/qcustomplot_include.h"
#include "explorer_controller.h"
#include "frontends/problem_files/problem_json.h"
#include "main_window.h"
#include "model_problems.h"
#include "planners/registry.h"

#include <QEventLoop>

namespace {

// A two-pool interval problem with `n` buffers of realistic proportions, written to a file.
std::string make_problem_file(int n) {
  std::mt19937_64 rng(static_cast<uint64_t>(n));
  usmpx::Problem p;
  p.conflict_source = usmpx::ConflictSource::kLifetimes;
  p.pools = {usmpx::Pool{.name = "dtcm", .size_hint_bytes = 131072}, usmpx::Pool{.name = "sram"}};
  const int64_t horizon = std::max(20, n / 4);
  for (int i = 0; i < n; ++i) {
    usmpx::Buffer b;
    b.name = "b" + std::to_string(i);
    b.size_bytes = 16 * std::uniform_int_distribution<int64_t>(1, 2048)(rng);
    b.alignment = 16;
    const int64_t start = std::uniform_int_distribution<int64_t>(0, horizon - 1)(rng);
    b.lifetime = usmpx::Lifetime{start, start + std::uniform_int_distribution<int64_t>(1, 8)(rng)};
    b.pool_candidates = {0, 1};
    p.buffers.push_back(std::move(b));
  }
  const std::string path = "/tmp/usmpx_gui_bench_" + std::to_string(n) + ".json";
  usmpx::write_file_atomically(path, usmpx::write_problem_json(p));
  return path;
}

}  // namespace

struct EditTiming {
  double first_ms = -1;  // the first repaint after the edit
  double final_ms = -1;  // the repaint of the search's plan
};

// Applies `edits` and runs the event loop as the explorer does, timing the repaints.
EditTiming time_edit(usmpx::app::MainWindow& window, const usmpx::SessionEdits& edits) {
  EditTiming timing;
  QElapsedTimer timer;
  QEventLoop loop;
  auto* controller = window.controller();
  const auto repaint = [&] {
    window.chart()->plot()->replot(QCustomPlot::rpImmediateRefresh);
    return static_cast<double>(timer.nsecsElapsed()) / 1e6;
  };
  const QMetaObject::Connection ready = QObject::connect(controller, &usmpx::app::ExplorerController::plan_ready, [&] {
    if (std::getenv("USMPX_BENCH_TRACE"))
      std::fprintf(stderr, "plan_ready handled from %.1f ms (planner %.1f ms)\n",
                   static_cast<double>(timer.nsecsElapsed()) / 1e6, controller->plan().runtime_ms);
    const double at = repaint();
    if (timing.first_ms < 0) timing.first_ms = at;
  });
  const QMetaObject::Connection done =
      QObject::connect(controller, &usmpx::app::ExplorerController::planning_finished, [&] {
        timing.final_ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        loop.quit();
      });
  timer.start();
  controller->apply_edit(QStringLiteral("edit"), edits);
  if (std::getenv("USMPX_BENCH_TRACE"))
    std::fprintf(stderr, "apply_edit returned after %.1f ms\n", static_cast<double>(timer.nsecsElapsed()) / 1e6);
  if (controller->planning()) loop.exec();
  QObject::disconnect(ready);
  QObject::disconnect(done);
  return timing;
}

void model_section(const std::vector<int>& sizes) {
  std::printf("\ninstant, then better (best, 4 MiB constants):\n");
  std::printf("%8s %-26s %12s %12s %16s %8s\n", "buffers", "edit", "first ms", "final ms", "full re-plan ms", "ratio");
  for (int n : sizes) {
    const std::string path = "/tmp/usmpx_gui_bench_model_" + std::to_string(n) + ".json";
    usmpx::testing::write_model_shaped_problem(path, n, 4 * 1024 * 1024);
    usmpx::app::MainWindow window;
    window.set_batch_mode(true);
    window.resize(1500, 900);
    window.show();
    window.open_path(QString::fromStdString(path));
    window.controller()->wait_idle();
    QApplication::processEvents();
    // Reference: best re-planning the whole problem, as every edit did before.
    auto best = usmpx::make_planner("best");
    QElapsedTimer reference;
    reference.start();
    usmpx::run_planner(*best, window.controller()->problem(), {});
    const double full_ms = static_cast<double>(reference.nsecsElapsed()) / 1e6;

    const usmpx::SessionEdits start = window.controller()->edits();
    struct Edit {
      const char* name;
      usmpx::SessionEdits edits;
    };
    std::vector<Edit> edits;
    usmpx::SessionEdits flash = start;
    flash.pools[2].pool.size_hint_bytes = 5 * 1024 * 1024;
    edits.push_back({"resize constant pool", flash});
    usmpx::SessionEdits dtcm = flash;
    dtcm.pools[0].pool.size_hint_bytes = 120 * 1024;
    edits.push_back({"resize dtcm", dtcm});
    edits.push_back({"pin sid_1 to sram", usmpx::with_pin(dtcm, "sid_1", usmpx::PinSpec{"", "sram", std::nullopt})});
    for (const Edit& edit : edits) {
      const EditTiming t = time_edit(window, edit.edits);
      std::printf("%8d %-26s %12.1f %12.1f %16.1f %7.2fx\n", n, edit.name, t.first_ms, t.final_ms, full_ms,
                  t.final_ms / full_ms);
    }
  }
}

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM",
          qgetenv("QT_QPA_PLATFORM").isEmpty() ? QByteArray("offscreen") : qgetenv("QT_QPA_PLATFORM"));
  QApplication app(argc, argv);
  std::printf("%8s %14s %14s %14s %10s\n", "buffers", "plan only ms", "edit->paint ms", "replot ms", "ratio");
  std::vector<int> sizes = {200, 2000, 20000};
  std::vector<int> model_sizes = {1000, 20000};
  if (argc > 1) sizes = model_sizes = {std::atoi(argv[1])};  // one size, e.g. for profiling
  for (int n : sizes) {
    const std::string path = make_problem_file(n);
    usmpx::app::MainWindow window;
    window.set_batch_mode(true);
    window.resize(1500, 900);
    window.show();
    window.open_path(QString::fromStdString(path));
    window.controller()->wait_idle();
    QApplication::processEvents();

    // Reference: the planner alone on the same problem.
    auto planner = usmpx::make_planner("greedy_by_size");
    QElapsedTimer reference;
    reference.start();
    usmpx::run_planner(*planner, window.controller()->problem(), {});
    const double plan_ms = static_cast<double>(reference.nsecsElapsed()) / 1e6;

    constexpr int kEdits = 5;
    double total_ms = 0;
    double replot_ms = 0;
    for (int e = 0; e < kEdits; ++e) {
      usmpx::SessionEdits edits = window.controller()->edits();
      edits.algorithm = "greedy_by_size";  // the explorer's default is best; this measures the GUI's share
      edits =
          usmpx::with_pin(edits, "b" + std::to_string(e), usmpx::PinSpec{"", e % 2 ? "sram" : "dtcm", std::nullopt});
      QElapsedTimer timer;
      timer.start();
      window.controller()->apply_edit(QStringLiteral("pin"), edits);
      window.controller()->wait_idle();
      QElapsedTimer paint;
      paint.start();
      window.chart()->plot()->replot(QCustomPlot::rpImmediateRefresh);
      replot_ms += static_cast<double>(paint.nsecsElapsed()) / 1e6;
      total_ms += static_cast<double>(timer.nsecsElapsed()) / 1e6;
    }
    total_ms /= kEdits;
    replot_ms /= kEdits;
    std::printf("%8d %14.2f %14.2f %14.2f %9.1fx\n", n, plan_ms, total_ms, replot_ms,
                total_ms / std::max(plan_ms, 1e-3));
  }
  model_section(model_sizes);
  return 0;
}
