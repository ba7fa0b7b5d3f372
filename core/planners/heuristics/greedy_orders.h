#pragma once

// The orders the greedy planners place buffers in, as published for TFLite, TFLite Micro and XLA
// (see ../shared/reference/memory-planning-sota.md §3-5, §8):
//
// - size:          size descending (TFLite Micro, TFLite GreedyBySize)
// - size_duration: size, then lifetime length, descending (XLA kSpatial)
// - duration_size: lifetime length, then size, descending (XLA kTemporal)
// - area:          size x lifetime length descending
// - breadth:       the heaviest moment of the buffer's life (total bytes live then), then size,
//                  descending (TFLite's greedy-by-breadth idea applied to offsets)
//
// Ties go to the lower buffer index, so every order is deterministic. Without lifetimes (conflict
// lists only) the length is the number of conflicts and the breadth is the weight of a clique of
// conflicting buffers found greedily around the buffer (heaviest neighbours first).

#include <cstdint>
#include <string_view>
#include <vector>

#include "planners/heuristics/greedy_fit.h"

namespace usmpx {

enum class GreedyOrder { kSize, kSizeDuration, kDurationSize, kArea, kBreadth };

inline constexpr GreedyOrder kGreedyOrders[] = {GreedyOrder::kSize, GreedyOrder::kSizeDuration,
                                                GreedyOrder::kDurationSize, GreedyOrder::kArea, GreedyOrder::kBreadth};

std::string_view to_string(GreedyOrder order);

// Per-buffer keys the orders sort by; computed once per problem.
struct OrderKeys {
  std::vector<int64_t> size;
  std::vector<int64_t> duration;
  std::vector<int64_t> breadth;

  static OrderKeys of(const GreedyContext& context);
};

std::vector<int> greedy_order(const OrderKeys& keys, GreedyOrder order);

}  // namespace usmpx
