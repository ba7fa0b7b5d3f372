#pragma once

#include <optional>

#include "frontends/tvm/tir/node.h"

namespace usmpx::tir {

// Deepest nesting of statements and expressions in a function body (without recursion), so that
// readers can refuse trees too deep for the recursive analyses. The body of a statement that
// encloses the rest of its block (enclosed_body) counts as the same level: every walker follows
// those chains in a loop. Returns the location of the first node found beyond `limit`, or
// nullopt when the whole tree is within it.
std::optional<SourceLocation> find_too_deep(const PrimFunc& function, int limit);

// Nesting depth the readers accept: loops, conditions and sequences inside each other and
// expressions inside expressions, together. Real dumps stay far below it; the limit keeps the
// recursive walkers within the stack even in sanitizer builds.
inline constexpr int kMaxTreeDepth = 1000;

// One level of a recursive walk that follows calls into their callees (whose bodies nest inside
// the caller's, so the walk may go twice kMaxTreeDepth deep): counts it in `depth` for the
// guard's life and throws InputError at `at` beyond that.
class WalkDepthGuard {
 public:
  WalkDepthGuard(int& depth, const SourceLocation& at);
  ~WalkDepthGuard() { --depth_; }
  WalkDepthGuard(const WalkDepthGuard&) = delete;
  WalkDepthGuard& operator=(const WalkDepthGuard&) = delete;

 private:
  int& depth_;
};

}  // namespace usmpx::tir
