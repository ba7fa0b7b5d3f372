// From an edit to the repainted charts, for 200, 2,000 and 20,000 buffers: the edit (a pin)
// re-plans on the worker thread, the window receives the plan and the charts replot. Printed next
// to the planner's own time in the same run, so the GUI's share shows as a ratio.
//
// Runs offscreen: QT_QPA_PLATFORM=offscreen usmpx_bench_gui_edit
#include <QApplication>
#include <QElapsedTimer>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "chart/pool_chart_widget.h"
#include "chart/qcustomplot_include.h"
#include "explorer_controller.h"
#include "io/problem_json.h"
#include "io/text_file.h"
#include "main_window.h"
#include "planners/registry.h"

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

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? QByteArray("offscreen") : qgetenv("QT_QPA_PLATFORM"));
  QApplication app(argc, argv);
  std::printf("%8s %14s %14s %14s %10s\n", "buffers", "plan only ms", "edit->paint ms", "replot ms", "ratio");
  std::vector<int> sizes = {200, 2000, 20000};
  if (argc > 1) sizes = {std::atoi(argv[1])};  // one size, e.g. for profiling
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
      edits = usmpx::with_pin(edits, "b" + std::to_string(e), usmpx::PinSpec{"", e % 2 ? "sram" : "dtcm", std::nullopt});
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
    std::printf("%8d %14.2f %14.2f %14.2f %9.1fx\n", n, plan_ms, total_ms, replot_ms, total_ms / std::max(plan_ms, 1e-3));
  }
  return 0;
}
