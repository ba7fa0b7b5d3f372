#pragma once

// A pool whose buffers all conflict with each other (TVM's constant pools: every constant is live
// for the whole run) has a closed-form optimum: the buffers stacked one above the other. Their
// sizes, plus the alignment padding no order can avoid (clique_lower_bound), bound any placement,
// so a stack that meets that bound is proven optimal without a search.

#include <cstdint>
#include <optional>
#include <vector>

#include "model/plan.h"

namespace usmpx {

// When every buffer `allocations` put into `pool` conflicts with every other and none is pinned at
// an offset: stacks them and returns the pool's new size. Largest alignment first; within one
// alignment, the buffers whose size leaves the least padding first (the one leaving the most goes
// on top, where its padding costs nothing); buffers of smaller alignment first fill the padding
// left below. When that stack pads more than clique_lower_bound allows, a second one is built
// bottom up, each step taking a buffer that needs no padding where the top is, and the lower of
// the two is kept. The stack is optimal when its size equals clique_lower_bound. Otherwise
// returns nullopt and changes nothing.
std::optional<int64_t> stack_clique_pool(const Problem& problem, std::vector<Allocation>& allocations, int pool);

// For a pool stack_clique_pool stacked but could not prove optimal (padding left that the bound
// does not explain): a local search over the stacking order, moving one buffer at a time while the
// stack does not grow, `moves` attempts, deterministic. Returns the pool's new size (never more).
int64_t improve_clique_stack(const Problem& problem, std::vector<Allocation>& allocations, int pool, int64_t moves);

// A lower bound on the bytes that `buffers` need when no two of them may share an address (a
// clique of conflicts), accounting for alignment. For each alignment a among them, take the
// buffers aligned to at least a: each starts at a multiple of a, so above each of them, except the
// topmost, lie at least (size rounded up to a) - size bytes before the next one starts, holding
// padding or buffers of smaller alignment. So the bytes are at least the sizes of the a-aligned
// buffers plus the larger of that padding (the largest single one left out, as it may be on top)
// and the sizes of the others. With a = 1 this is the sum of the sizes.
// With `tops` > 1 the buffers may be split among that many pools, each with a top of its own: the
// `tops` largest paddings are left out instead of one.
int64_t clique_lower_bound(const Problem& problem, const std::vector<int>& buffers, int tops = 1);

// Whether the buffers all conflict pairwise (lifetimes: all overlap at one tick; lists: every pair
// listed in either direction).
bool all_conflict(const Problem& problem, const std::vector<int>& buffers);

}  // namespace usmpx
