#pragma once

#include <string>
#include <string_view>

#include "model/plan.h"
#include "model/problem.h"

namespace usmpx {

// Reads MiniMalloc's CSV: a header naming the columns id, lower, upper, size and optionally
// alignment, hint and offset (`begin,end` with an inclusive end may replace lower,upper).
// Lifetimes are half-open [lower, upper). All buffers go into one unrestricted workspace pool
// named "default"; an `offset` pins the buffer there (MiniMalloc's fixed buffers).
// Throws InputError with file:line:column on bad input.
Problem read_minimalloc_csv(std::string_view text, const std::string& file_name);

// Writes a problem whose buffers all have lifetimes as MiniMalloc CSV. Offsets come from `plan`
// when given (MiniMalloc's solution format), otherwise from pinned offsets.
std::string write_minimalloc_csv(const Problem& problem, const Plan* plan = nullptr);

}  // namespace usmpx
