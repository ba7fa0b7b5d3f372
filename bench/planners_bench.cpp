// Runs every planner on every benchmark file of the shared data and prints one table (size,
// lower bound, gap and time per file and planner), also written as CSV. Times are given next to
// the time of greedy_by_size on the same file in the same run, so machines compare as ratios.
//
// usage: usmpx_bench_planners [--shared DIR] [--csv FILE] [--planners a,b] [--time-limit SEC]
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "io/minimalloc_csv.h"
#include "io/text_file.h"
#include "model/conflict_graph.h"
#include "planners/lower_bound.h"
#include "planners/registry.h"

namespace {

// TVM's planners need explicit conflict lists; beyond this many pairs they are not run.
constexpr int64_t kMaxConflictPairsForListPlanners = 20'000'000;

struct Row {
  std::string file;
  size_t buffers = 0;
  int64_t lower_bound = 0;
  std::string planner;
  int64_t size = -1;
  double ms = 0;
  double ratio = 0;  // time / time of greedy_by_size on the same file
  bool valid = false;
  std::string note;
};

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::string gap_text(int64_t size, int64_t lb) {
  if (size < 0 || lb <= 0) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.2f%%", 100.0 * static_cast<double>(size - lb) / static_cast<double>(lb));
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  std::string shared = USMPX_SHARED_DIR;
  std::string csv_path = "planners_bench.csv";
  std::vector<std::string> planners;
  double time_limit = 10.0;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--shared") shared = argv[i + 1];
    else if (flag == "--csv") csv_path = argv[i + 1];
    else if (flag == "--planners") planners = split(argv[i + 1]);
    else if (flag == "--time-limit") time_limit = std::stod(argv[i + 1]);
    else {
      std::cerr << "unknown option " << flag << "\n";
      return 2;
    }
  }
  if (planners.empty()) {
    for (const auto& info : usmpx::planner_catalog()) planners.push_back(info.name);
  }
  const std::filesystem::path root = std::filesystem::path(shared) / "benchmarks";
  if (!std::filesystem::exists(root)) {
    std::cerr << "SKIPPED: no benchmark data at " << root << " (pass --shared DIR)\n";
    return 0;
  }
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.path().extension() == ".csv") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());

  std::vector<Row> rows;
  for (const auto& path : files) {
    const std::string name = std::filesystem::relative(path, root).string();
    const usmpx::Problem problem = usmpx::read_minimalloc_csv(usmpx::read_text_file(path.string()), path.string());
    const int64_t lb = usmpx::total_lower_bound(problem).bytes;
    const int64_t pairs = usmpx::count_lifetime_overlaps(problem);
    double reference_ms = 0;
    for (const std::string& planner_name : planners) {
      Row row{name, problem.buffers.size(), lb, planner_name};
      auto planner = usmpx::make_planner(planner_name);
      const bool needs_lists = planner_name == "greedy_by_size" || planner_name == "greedy_by_conflicts" ||
                               planner_name == "hill_climb";
      if (!planner) {
        row.note = "unknown planner";
      } else if (needs_lists && pairs > kMaxConflictPairsForListPlanners) {
        row.note = "skipped: " + std::to_string(pairs) + " conflict pairs";
      } else {
        usmpx::PlannerOptions options;
        options.time_limit_seconds = time_limit;
        const usmpx::Plan plan = usmpx::run_planner(*planner, problem, options);
        row.size = plan.total_size();
        row.ms = plan.runtime_ms;
        row.valid = !plan.has_errors();
        if (planner_name == "greedy_by_size") reference_ms = row.ms;
        for (const auto& d : plan.diagnostics) {
          if (d.severity == usmpx::Severity::kWarning) row.note = d.message;
        }
      }
      row.ratio = reference_ms > 0 ? row.ms / reference_ms : 0;
      rows.push_back(row);
      std::fprintf(stdout, "%-40s %7zu %16lld  %-20s %16s %9s %10.1f ms %8.1fx %s %s\n", row.file.c_str(), row.buffers,
                   static_cast<long long>(row.lower_bound), row.planner.c_str(),
                   row.size < 0 ? "-" : std::to_string(row.size).c_str(), gap_text(row.size, row.lower_bound).c_str(),
                   row.ms, row.ratio, row.size < 0 ? "" : (row.valid ? "valid" : "INVALID"), row.note.c_str());
      std::fflush(stdout);
    }
  }
  std::ofstream csv(csv_path);
  csv << "file,buffers,lower_bound,planner,size,gap_percent,time_ms,time_vs_greedy_by_size,valid,note\n";
  for (const Row& r : rows) {
    csv << r.file << ',' << r.buffers << ',' << r.lower_bound << ',' << r.planner << ',' << r.size << ','
        << gap_text(r.size, r.lower_bound) << ',' << r.ms << ',' << r.ratio << ',' << (r.valid ? 1 : 0) << ",\""
        << r.note << "\"\n";
  }
  std::cout << "\nwritten " << csv_path << "\n";
  return 0;
}
