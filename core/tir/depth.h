#pragma once

#include <optional>

#include "tir/node.h"

namespace usmpx::tir {

// Deepest nesting of statements and expressions in a function body (without recursion), so that
// readers can refuse trees too deep for the recursive analyses. Returns the location of the first
// node found beyond `limit`, or nullopt when the whole tree is within it.
std::optional<SourceLocation> find_too_deep(const PrimFunc& function, int limit);

// Nesting depth the readers accept: statements inside statements (including the rest of a block
// that an allocate or let encloses) and expressions inside expressions together.
inline constexpr int kMaxTreeDepth = 2000;

}  // namespace usmpx::tir
