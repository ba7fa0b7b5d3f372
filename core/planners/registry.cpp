#include "planners/registry.h"

#include <chrono>

#include "planners/lower_bound.h"
#include "planners/tvm_greedy.h"
#include "planners/tvm_hill_climb.h"
#include "planners/validator.h"

namespace usmpx {

const std::vector<PlannerInfo>& planner_catalog() {
  static const std::vector<PlannerInfo> catalog = {
      {"greedy_by_size", "TVM USMP: largest first, above all placed conflicts (TVM's default)", true,
       [] { return std::make_unique<TvmGreedyPlanner>(TvmGreedyPlanner::Order::kBySize); }},
      {"greedy_by_conflicts", "TVM USMP: most conflicted first, above all placed conflicts", true,
       [] { return std::make_unique<TvmGreedyPlanner>(TvmGreedyPlanner::Order::kByConflicts); }},
      {"hill_climb", "TVM USMP: 500 randomised swaps of a gap-filling greedy order", true,
       [] { return std::make_unique<TvmHillClimbPlanner>(); }},
  };
  return catalog;
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
  const LowerBound lb = total_lower_bound(problem);
  plan.lower_bound_bytes = lb.bytes;
  std::vector<Diagnostic> findings = validate(problem, plan);
  if (findings.empty() && plan.total_size() == lb.bytes) plan.proven_optimal = true;
  for (Diagnostic& d : findings) plan.diagnostics.push_back(std::move(d));
}

Plan run_planner(const Planner& planner, const Problem& problem, const PlannerOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  Plan plan = planner.plan(problem, options);
  const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - started;
  plan.algorithm = std::string(planner.name());
  plan.runtime_ms = elapsed.count();
  finish_plan(problem, plan);
  return plan;
}

}  // namespace usmpx
