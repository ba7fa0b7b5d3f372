#include "frontends/tvm/tir/depth.h"

#include <vector>

#include "base/input_error.h"
#include "frontends/tvm/tir/walk.h"

namespace usmpx::tir {

std::optional<SourceLocation> find_too_deep(const PrimFunc& function, int limit) {
  struct Item {
    const Stmt* stmt;
    const Expr* expr;
    int depth;
  };
  std::vector<Item> stack;
  if (function.body) stack.push_back({function.body.get(), nullptr, 1});
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    if (item.depth > limit) return item.stmt ? item.stmt->location : item.expr->location;
    const auto add_expr = [&](const Expr& e) { stack.push_back({nullptr, &e, item.depth + 1}); };
    if (item.stmt) {
      const StmtRef* body = enclosed_body(*item.stmt);
      for_each_child(
          *item.stmt,
          [&](const Stmt& s) {
            const bool same_level = body && body->get() == &s;
            stack.push_back({&s, nullptr, same_level ? item.depth : item.depth + 1});
          },
          add_expr);
    } else {
      for_each_child(*item.expr, add_expr);
    }
  }
  return std::nullopt;
}

WalkDepthGuard::WalkDepthGuard(int& depth, const SourceLocation& at) : depth_(depth) {
  if (++depth_ > 2 * kMaxTreeDepth) {
    --depth_;
    throw InputError(at, "calls and statements nested too deeply to analyse");
  }
}

}  // namespace usmpx::tir
