#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <string_view>

#include "model/plan.h"
#include "model/problem.h"

namespace usmpx {

// Progress reports from long-running planners: the fraction done (0..1, or -1 when unknown),
// the best total size found so far (-1 when none) and a short description.
struct PlannerProgress {
  double fraction = -1.0;
  int64_t best_total_bytes = -1;
  std::string_view message;
};

struct PlannerOptions {
  double time_limit_seconds = 5.0;
  // The question is "does it fit?", not "how small can it get?": searching planners stop as soon
  // as their plan fits every pool's size hint, and search each pool at its hint rather than
  // below it (unrestricted pools then need no search).
  bool stop_at_fit = false;
  const std::atomic<bool>* cancel = nullptr;  // planners stop at their next check after it becomes true
  // A work budget that no clock decides (-1: none): searching planners stop after this many steps
  // (search nodes, greedy placements, hill-climb attempts) as they stop at their time limit. The
  // same input, options and budget give the same plan on any machine, however busy.
  int64_t step_budget = -1;
  std::function<void(const PlannerProgress&)> progress;

  bool cancelled() const { return cancel != nullptr && cancel->load(std::memory_order_relaxed); }
};

// A memory planner: a deterministic function from a Problem to a Plan. Every planner respects
// pins (Buffer::pin) as hard constraints. Planners fill Plan::allocations and may add
// diagnostics; run_planner() (registry.h) fills in sizes, bounds, timing and validation.
class Planner {
 public:
  virtual ~Planner() = default;
  virtual std::string_view name() const = 0;
  virtual Plan plan(const Problem& problem, const PlannerOptions& options) const = 0;
};

// A planner that keeps no state of its own: one function of the problem, under the name the
// registry gives it.
class FunctionPlanner final : public Planner {
 public:
  using Function = Plan (*)(const Problem& problem, const PlannerOptions& options);
  FunctionPlanner(std::string_view name, Function function) : name_(name), plan_(function) {}
  std::string_view name() const override { return name_; }
  Plan plan(const Problem& problem, const PlannerOptions& options) const override { return plan_(problem, options); }

 private:
  std::string_view name_;  // a literal of the registry
  Function plan_;
};

}  // namespace usmpx
