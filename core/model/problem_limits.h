#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "model/problem.h"

namespace usmpx {

// Every planner adds sizes, alignments and pinned offsets in 64-bit integers. Keeping each
// total below 2^60 bytes (an exbibyte, far beyond any memory) means no sum can overflow.
inline constexpr int64_t kMaxPlannableBytes = int64_t{1} << 60;

// Why `problem` is too large to plan safely (sum of buffer sizes and alignments, a pinned
// offset, a pool's size hint or alignment beyond kMaxPlannableBytes), or nullopt.
std::optional<std::string> problem_limit_error(const Problem& problem);

}  // namespace usmpx
