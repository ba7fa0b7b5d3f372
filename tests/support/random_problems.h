#pragma once

#include <cstdint>
#include <random>

#include "model/problem.h"

namespace usmpx::testing {

struct RandomProblemSpec {
  int buffers = 20;
  int pools = 1;
  int64_t max_size = 100;
  int64_t horizon = 30;             // lifetimes lie in [0, horizon)
  bool mixed_alignment = false;     // alignments from {1, 4, 16} instead of one per problem
  bool capacities = false;          // give pools size hints (possibly too small)
  double pin_fraction = 0.0;        // share of buffers pinned (half of them at an offset)
  bool explicit_conflicts = false;  // write the overlaps out as conflict lists
};

// A random problem whose conflicts come from lifetimes. Pinned offsets never overlap each other.
Problem random_interval_problem(std::mt19937_64& rng, const RandomProblemSpec& spec);

// A random general conflict graph (not an interval graph): each pair conflicts with probability
// `density`, listed one-directionally by the lower index. Pools, alignments, pins and capacities
// as in RandomProblemSpec (horizon and explicit_conflicts are ignored; no lifetimes).
Problem random_graph_problem(std::mt19937_64& rng, const RandomProblemSpec& spec, double density);

}  // namespace usmpx::testing
