// How long `best` takes on problems shaped like real TVM models, next to greedy_by_size in the same
// run: a constant pool whose buffers are all live together (a clique) with unrounded sizes and
// mixed alignments (64, 16, 4, 1 bytes) or TVM's 16 bytes throughout, plus short-lived
// activations in two candidate pools (dtcm with a 128 KiB hint, sram). Such a constant pool is proven optimal at once
// when its stack meets the alignment-aware bound (clique_pool.h); before, the bound ignored
// padding, the proof never came, and the search ran to its time limit.
// Also runs the real inputs of the shared data (MLF archives, the firmware tree, the TFLite
// models) when they are there.
//
// usage: usmpx_bench_model_shaped [--time-limit SEC] [--shared DIR] [--verbose] [--buffers N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "inputs/input_file.h"
#include "model_problems.h"
#include "planners/common/validator.h"
#include "planners/registry.h"

namespace {

struct Timed {
  usmpx::Plan plan;
  double ms = 0;
};

Timed timed_run(const std::string& algorithm, const usmpx::Problem& problem, double limit) {
  usmpx::PlannerOptions options;
  options.time_limit_seconds = limit;
  const auto start = std::chrono::steady_clock::now();
  Timed t{usmpx::run_planner(*usmpx::make_planner(algorithm), problem, options), 0};
  t.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return t;
}

// "proven/searched" over the pools the exact search noted.
std::string proofs(const usmpx::Plan& plan) {
  int proven = 0;
  int noted = 0;
  for (const usmpx::Diagnostic& d : plan.diagnostics) {
    if (d.code != "exact-search") continue;
    ++noted;
    proven += d.message.find("proven optimal") != std::string::npos ? 1 : 0;
  }
  return std::to_string(proven) + "/" + std::to_string(noted);
}

bool verbose = false;  // --verbose: best's notes under each row

void row(const std::string& name, const usmpx::Problem& problem, double limit, int& slow) {
  const Timed greedy = timed_run("greedy_by_size", problem, limit);
  const Timed best = timed_run("best", problem, limit);
  if (best.ms > 1500) ++slow;
  // An invalid plan (buffers overlapping) is marked with *: its size means nothing.
  const std::string greedy_size =
      std::to_string(greedy.plan.total_size()) + (usmpx::validate(problem, greedy.plan).empty() ? " " : "*");
  std::printf("%-36s %7zu %13lld %14s %13lld %9.1f %9.1f %7.1fx  %s\n", name.c_str(), problem.buffers.size(),
              static_cast<long long>(best.plan.lower_bound_bytes), greedy_size.c_str(),
              static_cast<long long>(best.plan.total_size()), greedy.ms, best.ms, best.ms / std::max(greedy.ms, 0.01),
              proofs(best.plan).c_str());
  if (verbose) {
    for (const usmpx::Diagnostic& d : best.plan.diagnostics)
      std::printf("    %s\n", d.message.c_str());
  }
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  double limit = 5.0;
  int only = 0;  // --buffers N: only the model-shaped problems of N buffers
  std::string shared = USMPX_SHARED_DIR;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--verbose") verbose = true;
    if (i + 1 >= argc) break;
    if (arg == "--time-limit") limit = std::stod(argv[++i]);
    if (arg == "--shared") shared = argv[++i];
    if (arg == "--buffers") only = std::stoi(argv[++i]);
  }
  std::printf(
      "best (time limit %.1f s) against greedy_by_size, same run. Pools proven: exact-search notes saying "
      "'proven optimal' / all.\n\n",
      limit);
  std::printf("%-36s %7s %13s %14s %13s %9s %9s %8s  %s\n", "problem", "buffers", "lower bound", "greedy B", "best B",
              "greedy ms", "best ms", "ratio", "proven");
  int slow = 0;
  int rows = 0;
  for (const int buffers : {333, 650, 655, 2000, 20000}) {
    if (only > 0 && buffers != only) continue;
    if (only == 0 && buffers > 2000) continue;  // 20,000 only when asked for (--buffers 20000)
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      const usmpx::Problem problem = usmpx::testing::model_shaped_mixed_alignment_problem(buffers, 4'670'000, seed);
      row("mixed-alignment n=" + std::to_string(buffers) + " seed " + std::to_string(seed), problem, limit, slow);
      // TVM's own constants: all 16-byte aligned, sizes in bytes.
      usmpx::Problem tvm_like = problem;
      for (usmpx::Buffer& b : tvm_like.buffers) {
        if (b.kind == usmpx::BufferKind::kConstant) b.alignment = 16;
      }
      row("16-aligned n=" + std::to_string(buffers) + " seed " + std::to_string(seed), tvm_like, limit, slow);
      rows += 2;
    }
  }
  namespace fs = std::filesystem;
  std::vector<std::string> inputs;
  std::error_code ec;
  for (const char* folder : {"/mlf", "/mlf/firmware", "/tflite/models"}) {
    for (const fs::directory_entry& e : fs::directory_iterator(shared + folder, ec)) {
      const std::string name = e.path().filename().string();
      if (name == "NOTICE.md") continue;
      if (e.is_directory() && std::string(folder) != "/mlf/firmware") continue;
      inputs.push_back(e.path().string());
    }
  }
  std::sort(inputs.begin(), inputs.end());
  for (const std::string& path : only > 0 ? std::vector<std::string>{} : inputs) {
    try {
      const usmpx::LoadedInput input = usmpx::load_input(path);
      row(fs::path(path).filename().string(), input.problem, limit, slow);
      ++rows;
    } catch (const std::exception& e) {
      std::printf("%-36s skipped: %s\n", fs::path(path).filename().string().c_str(), e.what());
    }
  }
  std::printf("\nbest over 1.5 s: %d of %d problems\n", slow, rows);
  return 0;
}
