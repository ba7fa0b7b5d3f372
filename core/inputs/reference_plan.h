#pragma once

// The reference plan of an input: what its firmware does today, the plan the explorer opens on and
// `usmpx` uses without --algorithm, the same for both. as-built where the input carries a plan
// (USMP-on TVM output, a post-USMP TIR dump, a .tflite with an offline plan); else the planner the
// input's toolchain runs: tflm_greedy for a .tflite, greedy_by_size (TVM's default) otherwise.

#include <string>
#include <vector>

#include "frontends/frontend.h"

namespace usmpx {

inline constexpr const char* kAsBuiltAlgorithm = "as-built";

// The reference plan's algorithm. The as-built plan holds only for the input's own pools: with
// `pools_edited` (pool options, pins) the toolchain's planner stands in for it.
std::string reference_algorithm(const LoadedInput& input, bool pools_edited = false);

// The reference in words, for status lines and CLI output: "as-built (the plan the input
// carries)", "tflm_greedy (TFLM's own planner)", "greedy_by_size (TVM's default planner)".
std::string reference_description(const LoadedInput& input, bool pools_edited = false);

// The reference plan's allocations, for Problem::reference_allocations (the searching planners'
// incumbent, planners/incumbent.h): the plan the input carries, else the toolchain planner's plan
// (a greedy, run once here). Empty when the reference is itself a searching planner.
std::vector<Allocation> reference_allocations(const LoadedInput& input, bool pools_edited = false);

}  // namespace usmpx
