// `best` on problems shaped like models whose opaque operators own reserved pool bytes (blocks
// pinned at fixed offsets, live throughout, as reserved_bytes.h makes them), next to
// greedy_by_size on the same problems in the same run: the lower bound without the blocks'
// positions (the bytes live together) and with them (lower_bound.h), the sizes reached, whether
// best proved its plan, and the times as ratios to greedy_by_size's.
//
// usage: usmpx_bench_reserved_bounds [--time-limit SEC] [--problems N] [--write-problems DIR]
// (--write-problems saves each problem as DIR/reserved_<k>.problem.json, to open in the explorer)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "base/text_file.h"
#include "model/live_bytes.h"
#include "model/problem_json_writer.h"
#include "planners/common/validator.h"
#include "planners/exact/lower_bound.h"
#include "planners/registry.h"

namespace {

using Clock = std::chrono::steady_clock;

// `buffers` activations (16-byte aligned, lifetimes over 200 ticks) and `blocks` reserved ranges
// spread over the first `span` bytes of the one workspace pool.
usmpx::Problem blocked_problem(uint64_t seed, int buffers, int blocks, int64_t span) {
  std::mt19937_64 rng(seed);
  usmpx::Problem p;
  p.conflict_source = usmpx::ConflictSource::kLifetimes;
  p.pools.push_back(usmpx::Pool{.name = "workspace"});
  const int64_t slot = span / blocks;
  for (int k = 0; k < blocks; ++k) {
    usmpx::Buffer b;
    b.name = "reserved_workspace_" + std::to_string(k);
    b.kind = usmpx::BufferKind::kReserved;
    b.alignment = 1;
    b.size_bytes = slot / 4 + static_cast<int64_t>(rng() % static_cast<uint64_t>(slot / 2));
    b.pool_candidates = {0};
    b.pin = usmpx::Pin{0, k * slot + static_cast<int64_t>(rng() % static_cast<uint64_t>(slot - b.size_bytes))};
    b.lifetime = usmpx::Lifetime{0, 201};
    p.buffers.push_back(b);
  }
  for (int i = 0; i < buffers; ++i) {
    usmpx::Buffer b;
    b.name = "sid_" + std::to_string(i);
    b.alignment = 16;
    b.size_bytes = 16 + static_cast<int64_t>(rng() % (i % 7 == 0 ? 6000 : 600));
    b.pool_candidates = {0};
    const int64_t start = static_cast<int64_t>(rng() % 195);
    b.lifetime = usmpx::Lifetime{start, start + 1 + static_cast<int64_t>(rng() % 6)};
    p.buffers.push_back(b);
  }
  return p;
}

double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

}  // namespace

int main(int argc, char** argv) {
  double limit = 5.0;
  int problems = 5;
  std::string write_dir;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--time-limit") == 0 && i + 1 < argc) {
      limit = std::atof(argv[++i]);
    } else if (std::strcmp(argv[i], "--problems") == 0 && i + 1 < argc) {
      problems = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--write-problems") == 0 && i + 1 < argc) {
      write_dir = argv[++i];
    } else {
      std::fprintf(stderr,
                   "usage: usmpx_bench_reserved_bounds [--time-limit SEC] [--problems N] [--write-problems DIR]\n");
      return 2;
    }
  }
  std::printf("%-8s %9s %11s %11s %11s %11s %7s %10s %10s\n", "problem", "live", "bound", "greedy", "best", "gap",
              "proven", "greedy ms", "best/greedy");
  int proven = 0;
  for (int k = 0; k < problems; ++k) {
    const usmpx::Problem p = blocked_problem(1000 + static_cast<uint64_t>(k), 510, 6, 24000);
    if (!write_dir.empty())
      usmpx::write_file_atomically(write_dir + "/reserved_" + std::to_string(k) + ".problem.json",
                                   usmpx::write_problem_json(p));
    std::vector<int> all(p.buffers.size());
    for (size_t i = 0; i < all.size(); ++i)
      all[i] = static_cast<int>(i);
    const int64_t live = usmpx::peak_live_bytes(p, all).bytes;
    const int64_t bound = usmpx::total_lower_bound(p).bytes;
    auto start = Clock::now();
    const usmpx::Plan greedy = usmpx::run_planner(*usmpx::make_planner("greedy_by_size"), p, {});
    const double greedy_ms = ms_since(start);
    usmpx::PlannerOptions options;
    options.time_limit_seconds = limit;
    start = Clock::now();
    const usmpx::Plan best = usmpx::run_planner(*usmpx::make_planner("best"), p, options);
    const double best_ms = ms_since(start);
    const bool valid = usmpx::validate(p, best).empty();
    proven += best.proven_optimal ? 1 : 0;
    std::printf(
        "%-8d %9lld %11lld %11lld %11lld %10.2f%% %7s %10.1f %10.1f%s\n", k, static_cast<long long>(live),
        static_cast<long long>(bound), static_cast<long long>(greedy.total_size()),
        static_cast<long long>(best.total_size()),
        100.0 * static_cast<double>(best.total_size() - bound) / static_cast<double>(std::max<int64_t>(bound, 1)),
        best.proven_optimal ? "yes" : "no", greedy_ms, best_ms / std::max(greedy_ms, 1e-3), valid ? "" : "  (INVALID)");
  }
  std::printf("best proved %d of %d plans within %.1f s each\n", proven, problems, limit);
  return 0;
}
