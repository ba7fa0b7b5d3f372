#include "random_problems.h"

#include <algorithm>
#include <numeric>

#include "model/conflict_graph.h"
#include "model/live_bytes.h"
#include "planners/exact/lower_bound.h"

namespace usmpx::testing {

Problem random_interval_problem(std::mt19937_64& rng, const RandomProblemSpec& spec) {
  auto uniform = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  Problem problem;
  problem.conflict_source = ConflictSource::kLifetimes;
  for (int p = 0; p < spec.pools; ++p) {
    Pool pool;
    pool.name = "pool" + std::to_string(p);
    pool.alignment = 16;
    problem.pools.push_back(pool);
  }
  const int64_t alignments[] = {1, 4, 16};
  const int64_t shared_alignment = alignments[uniform(0, 2)];
  for (int i = 0; i < spec.buffers; ++i) {
    Buffer b;
    b.name = "b" + std::to_string(i);
    b.size_bytes = uniform(1, spec.max_size);
    b.alignment = spec.mixed_alignment ? alignments[uniform(0, 2)] : shared_alignment;
    const int64_t start = uniform(0, spec.horizon - 1);
    b.lifetime = Lifetime{start, std::min(spec.horizon, start + uniform(1, std::max<int64_t>(1, spec.horizon / 3)))};
    std::vector<int> pools(static_cast<size_t>(spec.pools));
    std::iota(pools.begin(), pools.end(), 0);
    std::shuffle(pools.begin(), pools.end(), rng);
    pools.resize(static_cast<size_t>(uniform(1, spec.pools)));
    b.pool_candidates = pools;
    problem.buffers.push_back(std::move(b));
  }
  // Pins: half at the bottom of their pool only, half at offsets stacked so they never overlap.
  std::vector<int64_t> stack(static_cast<size_t>(spec.pools), 0);
  for (Buffer& b : problem.buffers) {
    if (std::uniform_real_distribution<double>(0, 1)(rng) >= spec.pin_fraction) continue;
    Pin pin;
    pin.pool = b.pool_candidates.front();
    if (uniform(0, 1) == 1) {
      int64_t& top = stack[static_cast<size_t>(pin.pool)];
      top = (top + b.alignment - 1) / b.alignment * b.alignment;
      pin.offset = top;
      top += b.size_bytes;
    }
    b.pin = pin;
  }
  if (spec.capacities) {
    const int64_t lb = total_lower_bound(problem).bytes;
    for (Pool& pool : problem.pools) {
      pool.size_hint_bytes = uniform(lb / std::max(1, spec.pools), lb * 2);
    }
  }
  if (spec.explicit_conflicts) {
    const ConflictLists lists = conflict_lists(problem);
    problem.conflict_source = ConflictSource::kExplicit;
    for (size_t i = 0; i < lists.size(); ++i)
      problem.buffers[i].conflicts = lists[i];
  }
  if (problem.buffers.empty()) problem.conflict_source = ConflictSource::kExplicit;  // as the reader sees it
  // As the readers define it: the most bytes live at once (no alignment), for lifetime problems.
  problem.memory_pressure =
      problem.interval_conflicts() ? lifetime_memory_pressure(problem) : total_lower_bound(problem).bytes;
  return problem;
}

Problem random_graph_problem(std::mt19937_64& rng, const RandomProblemSpec& spec, double density) {
  RandomProblemSpec shape = spec;
  shape.explicit_conflicts = false;
  shape.capacities = false;
  Problem problem = random_interval_problem(rng, shape);
  problem.conflict_source = ConflictSource::kExplicit;
  std::bernoulli_distribution edge(density);
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    problem.buffers[i].lifetime.reset();
    problem.buffers[i].conflicts.clear();
    for (size_t j = i + 1; j < problem.buffers.size(); ++j) {
      if (edge(rng)) problem.buffers[i].conflicts.push_back(static_cast<int>(j));
    }
  }
  // Pinned offsets stacked per pool never overlap, so the pins stay satisfiable.
  if (spec.capacities) {
    const int64_t lb = total_lower_bound(problem).bytes;
    for (Pool& pool : problem.pools) {
      pool.size_hint_bytes = std::uniform_int_distribution<int64_t>(lb / std::max(1, spec.pools), lb * 2)(rng);
    }
  }
  problem.memory_pressure = total_lower_bound(problem).bytes;
  return problem;
}

}  // namespace usmpx::testing
