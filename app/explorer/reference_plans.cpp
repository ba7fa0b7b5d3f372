#include "reference_plans.h"

#include "inputs/reference_plan.h"
#include "planners/registry.h"
#include "planning_job.h"

namespace usmpx::app {

void ReferencePlans::reset(const LoadedInput& input, std::optional<Plan> runtime_plan, QString fidelity) {
  fidelity_ = std::move(fidelity);
  plan_.reset();
  label_.clear();
  unpinned_total_ = -1;
  if (input.as_built) {
    plan_ = *input.as_built;
    plan_->algorithm = kAsBuilt;
    finish_plan(input.problem, *plan_);
  } else {
    plan_ = std::move(runtime_plan);
  }
  // The reference plan, as `usmpx` defaults to it: TVM's or the model's own plan when the input
  // carries one, else the plan its toolchain makes (TFLM's for .tflite, TVM's greedy_by_size).
  algorithm_ = reference_algorithm(input);
  plan_text_ = QString::fromStdString(reference_description(input));
  plan_bytes_ = plan_ ? plan_->total_size() : -1;
}

void ReferencePlans::take(const LoadedInput& input, const Problem& problem, const SessionEdits& edits,
                          const Plan& plan) {
  const bool own_pools = edits.pools == initial_edits(input.problem, "").pools;
  const bool fits = plan_ok(problem, plan);
  // The reference plan's bytes, from its own run on the input as it is; where the input carries
  // no plan and its frontend names none, that run is the reference every other plan is measured against.
  if (plan_bytes_ < 0 && plan.algorithm == algorithm_ && own_pools && edits.pins.empty()) {
    plan_bytes_ = plan.total_size();
    if (!plan_ && fits) {
      plan_ = plan;
      label_ = QString::fromStdString(plan.algorithm);
    }
  }
  // What pins cost: the same planner and pools without them, remembered while there are none.
  if (edits.pins.empty() && fits) {
    unpinned_total_ = plan.total_size();
    unpinned_algorithm_ = plan.algorithm;
    unpinned_pools_ = edits.pools;
  }
}

QString ReferencePlans::name(const LoadedInput* input) const {
  // A reference that is the toolchain's planner run here (TVM's greedy_by_size for USMP-off
  // output) is named by that planner: "-7.9 KiB vs greedy_by_size".
  if (!label_.isEmpty()) return label_;
  return input ? QString::fromStdString(input->reference) : QStringLiteral("TVM");
}

std::optional<qint64> ReferencePlans::pin_cost(const Problem& problem, const SessionEdits& edits,
                                               const Plan& plan) const {
  if (edits.pins.empty() || unpinned_total_ < 0) return std::nullopt;
  if (plan.algorithm != unpinned_algorithm_ || edits.pools != unpinned_pools_) return std::nullopt;
  if (!plan_ok(problem, plan)) return std::nullopt;
  return plan.total_size() - unpinned_total_;
}

std::vector<qint64> ReferencePlans::pool_bytes(const LoadedInput& input, const Problem& problem,
                                               const SessionEdits& edits) const {
  std::vector<qint64> bytes(problem.pools.size(), -1);
  if (!plan_) return bytes;
  const std::vector<PoolSetting>& pools = edits.pools;
  for (size_t p = 0; p < pools.size() && p < bytes.size(); ++p) {
    const std::optional<int> base = input.problem.find_pool(pools[p].base);
    if (base && static_cast<size_t>(*base) < plan_->pool_sizes.size())
      bytes[p] = plan_->pool_sizes[static_cast<size_t>(*base)];
  }
  return bytes;
}

std::vector<Allocation> ReferencePlans::allocations(const LoadedInput& input, const Problem& problem,
                                                    const SessionEdits& edits) const {
  std::vector<Allocation> mapped(problem.buffers.size(), Allocation{});
  if (!plan_) return mapped;
  std::vector<int> current_of_base(input.problem.pools.size(), -1);
  const std::vector<PoolSetting>& pools = edits.pools;
  for (size_t p = 0; p < pools.size(); ++p) {
    if (const std::optional<int> base = input.problem.find_pool(pools[p].base))
      current_of_base[static_cast<size_t>(*base)] = static_cast<int>(p);
  }
  for (size_t b = 0; b < mapped.size() && b < plan_->allocations.size(); ++b) {
    const Allocation& a = plan_->allocations[b];
    if (a.placed() && static_cast<size_t>(a.pool) < current_of_base.size() &&
        current_of_base[static_cast<size_t>(a.pool)] >= 0)
      mapped[b] = Allocation{current_of_base[static_cast<size_t>(a.pool)], a.offset};
  }
  return mapped;
}

std::optional<qint64> ReferencePlans::difference(const Problem& problem, const Plan& plan) const {
  if (!plan_ || plan.algorithm == kAsBuilt || !plan_fits(problem, plan)) return std::nullopt;
  return plan.total_size() - plan_->total_size();
}

}  // namespace usmpx::app
