#include "planners/registry.h"

#include <algorithm>
#include <chrono>

#include "model/problem_limits.h"
#include "planners/anytime/best.h"
#include "planners/anytime/exact.h"
#include "planners/common/validator.h"
#include "planners/exact/bound_search.h"
#include "planners/exact/lower_bound.h"
#include "planners/heuristics/best_fit.h"
#include "planners/heuristics/first_fit.h"
#include "planners/heuristics/multi_start.h"
#include "planners/toolchains/et_greedy.h"
#include "planners/toolchains/tflm_greedy.h"
#include "planners/toolchains/tvm_greedy.h"
#include "planners/toolchains/tvm_hill_climb.h"

namespace usmpx {
namespace {

// The factory of a planner that is one function.
std::function<std::unique_ptr<Planner>()> function_planner(std::string_view name, FunctionPlanner::Function plan) {
  return [name, plan] { return std::make_unique<FunctionPlanner>(name, plan); };
}

}  // namespace

const std::vector<PlannerInfo>& planner_catalog() {
  static const std::vector<PlannerInfo> catalog = {
      {"greedy_by_size", "TVM USMP: largest first, above all placed conflicts (TVM's default)", true,
       [] { return std::make_unique<TvmGreedyPlanner>(TvmGreedyPlanner::Order::kBySize); }},
      {"greedy_by_conflicts", "TVM USMP: most conflicted first, above all placed conflicts", true,
       [] { return std::make_unique<TvmGreedyPlanner>(TvmGreedyPlanner::Order::kByConflicts); }},
      {"hill_climb", "TVM USMP: 500 randomised swaps of a gap-filling greedy order", true,
       function_planner("hill_climb", plan_tvm_hill_climb)},
      {"tflm_greedy", "TFLite Micro's GreedyMemoryPlanner, bit for bit (pinned offsets as its offline plan)", false,
       function_planner("tflm_greedy", plan_tflm_greedy), false, "TFLM"},
      {"et_greedy", "ExecuTorch's greedy memory planner, bit for bit (buckets of equal lifetimes, largest first)",
       false, [] { return std::make_unique<EtGreedyPlanner>(); }, false, "ExecuTorch"},
      {"et_greedy_2024", "ExecuTorch's greedy before 2025 (graph order, closest-sized free bucket)", false,
       [] { return std::make_unique<EtGreedyPlanner>(EtGreedyPlanner::Variant::k2024); }, false, "ExecuTorch"},
      {"first_fit", "TFLite Micro: largest first, into the lowest gap that holds it", false,
       function_planner("first_fit", plan_first_fit)},
      {"best_fit_size", "TFLite: largest first, into the smallest gap that holds it", false,
       [] { return std::make_unique<BestFitPlanner>(GreedyOrder::kSize); }},
      {"best_fit_size_duration", "XLA kSpatial: by size then lifetime, best fit", false,
       [] { return std::make_unique<BestFitPlanner>(GreedyOrder::kSizeDuration); }},
      {"best_fit_duration_size", "XLA kTemporal: by lifetime then size, best fit", false,
       [] { return std::make_unique<BestFitPlanner>(GreedyOrder::kDurationSize); }},
      {"best_fit_area", "by size x lifetime, best fit", false,
       [] { return std::make_unique<BestFitPlanner>(GreedyOrder::kArea); }},
      {"best_fit_breadth", "by the heaviest moment of each buffer's life, best fit", false,
       [] { return std::make_unique<BestFitPlanner>(GreedyOrder::kBreadth); }},
      {"multi_start", "every greedy order and fit, then randomised restarts until the time limit", false,
       function_planner("multi_start", plan_multi_start), true},
      {"exact", "MiniMalloc-style exact search from the lower bound, anytime, proves optimality", false,
       function_planner("exact", plan_exact), true},
      {"best", "the strongest planners within the time limit; the best valid plan", false,
       function_planner("best", plan_best), true},
  };
  return catalog;
}

bool planner_applies(const PlannerInfo& info, std::string_view toolchain) {
  return info.toolchain.empty() || info.toolchain == toolchain;
}

std::unique_ptr<Planner> make_planner(std::string_view name) {
  for (const PlannerInfo& info : planner_catalog()) {
    if (info.name == name) return info.make();
  }
  return nullptr;
}

std::string planner_names() {
  std::string names;
  for (const PlannerInfo& info : planner_catalog()) {
    if (!names.empty()) names += ", ";
    names += info.name;
  }
  return names;
}

void finish_plan(const Problem& problem, Plan& plan) {
  plan.allocations.resize(problem.buffers.size());
  compute_pool_sizes(problem, plan);
  // The bound is the problem's, searched to a fixed node budget (bound_search.h): what a planner
  // proved within its time limit is left out, so the same input always gets the same bound and gap.
  plan.pool_lower_bounds = searched_pool_bounds(problem);
  plan.lower_bound_bytes = total_lower_bound(problem, plan.pool_lower_bounds).bytes;
  std::vector<Diagnostic> findings = validate(problem, plan);
  plan.proven_optimal = findings.empty() && plan_fits(problem, plan) && plan.total_size() <= plan.lower_bound_bytes;
  for (Diagnostic& d : findings)
    plan.diagnostics.push_back(std::move(d));
  // Errors first, then warnings, then notes (each group in the order it was found).
  std::stable_sort(plan.diagnostics.begin(), plan.diagnostics.end(),
                   [](const Diagnostic& a, const Diagnostic& b) { return a.severity < b.severity; });
}

Plan run_planner(const Planner& planner, const Problem& problem, const PlannerOptions& options) {
  if (auto error = problem_limit_error(problem)) {
    Plan refused;
    refused.algorithm = std::string(planner.name());
    refused.diagnostics.push_back({Severity::kError, "planner-error", *error, {}, -1, {}});
    refused.allocations.resize(problem.buffers.size());
    return refused;
  }
  const auto started = std::chrono::steady_clock::now();
  Plan plan = planner.plan(problem, options);
  const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - started;
  plan.algorithm = std::string(planner.name());
  plan.runtime_ms = elapsed.count();
  finish_plan(problem, plan);
  return plan;
}

}  // namespace usmpx
