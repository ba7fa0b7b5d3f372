#include "planners/heuristics/multi_start.h"

#include <algorithm>

#include "planners/exact/lower_bound.h"

namespace usmpx {
namespace {

constexpr int kMaxRestarts = 2000;

// splitmix64: small, fast and identical on every platform.
struct Random {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(next() % n); }
};

// Swaps a few buffers with others a short distance later in the order.
std::vector<int> perturb(std::vector<int> order, Random& random) {
  if (order.size() < 2) return order;
  const size_t window = 1 + random.below(8);
  const size_t swaps = 1 + random.below(std::max<size_t>(1, order.size() / 16));
  for (size_t k = 0; k < swaps; ++k) {
    const size_t i = random.below(order.size() - 1);
    const size_t j = std::min(order.size() - 1, i + 1 + random.below(window));
    std::swap(order[i], order[j]);
  }
  return order;
}

// Runs one pass and keeps it when it beats `best`; false when the deadline stopped it.
bool consider(const GreedyContext& context, PortfolioResult& best, const std::vector<int>& order, FitRule rule,
              std::string label, Deadline& deadline) {
  GreedyResult result = greedy_place(context, order, rule, &deadline);
  ++best.passes;
  if (!result.complete) return false;
  PlanCost cost = plan_cost(context.problem, result.allocations);
  if (!best.result.complete || cost < best.cost) {
    best.result = std::move(result);
    best.cost = std::move(cost);
    best.label = std::move(label);
    best.order = order;
    best.rule = rule;
  }
  return true;
}

}  // namespace

bool ideal_cost(const PlanCost& cost, int64_t ideal_total) {
  return cost.unplaced == 0 && cost.overflow_bytes == 0 && cost.total <= ideal_total &&
         std::all_of(cost.displaced.begin(), cost.displaced.end(), [](int64_t d) { return d == 0; });
}

PortfolioResult greedy_portfolio(const GreedyContext& context, const OrderKeys& keys, int64_t ideal_total,
                                 Deadline& deadline) {
  PortfolioResult best;
  // The first pass ignores the time limit (only cancellation stops it): there is always a plan.
  Deadline first = Deadline::cancel_only(deadline.options());
  bool first_pass = true;
  // Breadth first: on real traces it is the most often ideal, and an ideal pass ends the portfolio.
  for (GreedyOrder order : {GreedyOrder::kBreadth, GreedyOrder::kSize, GreedyOrder::kSizeDuration,
                            GreedyOrder::kDurationSize, GreedyOrder::kArea}) {
    const std::vector<int> sequence = greedy_order(keys, order);
    for (FitRule rule : {FitRule::kBestFit, FitRule::kFirstFit}) {
      const std::string label =
          std::string(rule == FitRule::kBestFit ? "best_fit/" : "first_fit/") + std::string(to_string(order));
      if (!consider(context, best, sequence, rule, label, first_pass ? first : deadline)) return best;
      first_pass = false;
      if (ideal_cost(best.cost, ideal_total) || deadline.check_now()) return best;
    }
  }
  return best;
}

void greedy_restarts(const GreedyContext& context, PortfolioResult& best, int64_t ideal_total, Deadline& deadline) {
  if (!best.result.complete) return;
  Random random{0x5EED1234ABCDULL};
  const std::string label = std::string(best.rule == FitRule::kBestFit ? "best_fit" : "first_fit") + "/restart";
  for (int r = 0; r < kMaxRestarts && !ideal_cost(best.cost, ideal_total); ++r) {
    if (deadline.check_now()) break;
    consider(context, best, perturb(best.order, random), best.rule, label, deadline);
  }
}

Plan plan_multi_start(const Problem& problem, const PlannerOptions& options) {
  Deadline deadline(options);
  const GreedyContext context(problem);
  const OrderKeys keys = OrderKeys::of(context);
  const int64_t lb = total_lower_bound(problem).bytes;
  PortfolioResult best = greedy_portfolio(context, keys, lb, deadline);
  greedy_restarts(context, best, lb, deadline);
  if (!best.result.complete) return to_plan(problem, std::move(best.result));  // stopped before any pass ended
  Plan plan = to_plan(problem, std::move(best.result));
  plan.diagnostics.push_back({Severity::kNote,
                              "multi-start",
                              "best of " + std::to_string(best.passes) + " greedy passes: " + best.label,
                              {},
                              -1,
                              {}});
  return plan;
}

}  // namespace usmpx
