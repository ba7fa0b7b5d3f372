#pragma once

// A pool whose buffers all conflict with each other (TVM's constant pools: every constant is live
// for the whole run) has a closed-form optimum: the buffers stacked one above the other. Their
// sizes add up to a lower bound of any placement, so a stack without alignment padding is proven
// optimal without a search.

#include <optional>
#include <vector>

#include "model/plan.h"

namespace usmpx {

// When every buffer `allocations` put into `pool` conflicts with every other and none is pinned at
// an offset: stacks them (largest alignment first, so that padding is rare) and returns the pool's
// new size; the stack is optimal when that size equals the sum of the sizes. Otherwise returns
// nullopt and changes nothing.
std::optional<int64_t> stack_clique_pool(const Problem& problem, std::vector<Allocation>& allocations, int pool);

// Whether the buffers all conflict pairwise (lifetimes: all overlap at one tick; lists: every pair
// listed in either direction).
bool all_conflict(const Problem& problem, const std::vector<int>& buffers);

}  // namespace usmpx
