#include "tir/depth.h"

#include <vector>

namespace usmpx::tir {
namespace {

struct Item {
  const Stmt* stmt = nullptr;
  const Expr* expr = nullptr;
  int depth = 0;
};

void push_expr(std::vector<Item>& stack, const ExprRef& e, int depth) {
  if (e) stack.push_back({nullptr, e.get(), depth});
}

void push_stmt(std::vector<Item>& stack, const StmtRef& s, int depth) {
  if (s) stack.push_back({s.get(), nullptr, depth});
}

void push_children(std::vector<Item>& stack, const Expr& e, int d) {
  switch (e.kind) {
    case ExprKind::kBufferLoad:
      for (const ExprRef& i : static_cast<const BufferLoad&>(e).indices)
        push_expr(stack, i, d);
      return;
    case ExprKind::kCall:
      for (const ExprRef& a : static_cast<const Call&>(e).args)
        push_expr(stack, a, d);
      return;
    case ExprKind::kBinary:
      push_expr(stack, static_cast<const Binary&>(e).a, d);
      push_expr(stack, static_cast<const Binary&>(e).b, d);
      return;
    case ExprKind::kNot:
      push_expr(stack, static_cast<const Not&>(e).a, d);
      return;
    case ExprKind::kCast:
      push_expr(stack, static_cast<const Cast&>(e).value, d);
      return;
    case ExprKind::kSelect: {
      const auto& n = static_cast<const Select&>(e);
      push_expr(stack, n.condition, d);
      push_expr(stack, n.true_value, d);
      push_expr(stack, n.false_value, d);
      return;
    }
    case ExprKind::kRamp:
      push_expr(stack, static_cast<const Ramp&>(e).base, d);
      push_expr(stack, static_cast<const Ramp&>(e).stride, d);
      return;
    case ExprKind::kBroadcast:
      push_expr(stack, static_cast<const Broadcast&>(e).value, d);
      return;
    default:
      return;
  }
}

void push_children(std::vector<Item>& stack, const Stmt& s, int d) {
  switch (s.kind) {
    case StmtKind::kAllocate: {
      const auto& n = static_cast<const Allocate&>(s);
      for (const ExprRef& e : n.extents)
        push_expr(stack, e, d);
      push_expr(stack, n.condition, d);
      push_stmt(stack, n.body, d);
      return;
    }
    case StmtKind::kAllocateConst: {
      const auto& n = static_cast<const AllocateConst&>(s);
      for (const ExprRef& e : n.extents)
        push_expr(stack, e, d);
      push_stmt(stack, n.body, d);
      return;
    }
    case StmtKind::kDeclBuffer:
      push_stmt(stack, static_cast<const DeclBuffer&>(s).body, d);
      return;
    case StmtKind::kLet:
      push_expr(stack, static_cast<const LetStmt&>(s).value, d);
      push_stmt(stack, static_cast<const LetStmt&>(s).body, d);
      return;
    case StmtKind::kAttr:
      push_expr(stack, static_cast<const AttrStmt&>(s).value, d);
      push_stmt(stack, static_cast<const AttrStmt&>(s).body, d);
      return;
    case StmtKind::kAssert:
      push_expr(stack, static_cast<const AssertStmt&>(s).condition, d);
      push_expr(stack, static_cast<const AssertStmt&>(s).message, d);
      push_stmt(stack, static_cast<const AssertStmt&>(s).body, d);
      return;
    case StmtKind::kFor:
      push_expr(stack, static_cast<const For&>(s).min, d);
      push_expr(stack, static_cast<const For&>(s).extent, d);
      push_stmt(stack, static_cast<const For&>(s).body, d);
      return;
    case StmtKind::kIfThenElse:
      push_expr(stack, static_cast<const IfThenElse&>(s).condition, d);
      push_stmt(stack, static_cast<const IfThenElse&>(s).then_case, d);
      push_stmt(stack, static_cast<const IfThenElse&>(s).else_case, d);
      return;
    case StmtKind::kSeq:
      for (const StmtRef& c : static_cast<const SeqStmt&>(s).seq)
        push_stmt(stack, c, d);
      return;
    case StmtKind::kEvaluate:
      push_expr(stack, static_cast<const Evaluate&>(s).value, d);
      return;
    case StmtKind::kBufferStore:
      push_expr(stack, static_cast<const BufferStore&>(s).value, d);
      for (const ExprRef& i : static_cast<const BufferStore&>(s).indices)
        push_expr(stack, i, d);
      return;
  }
}

}  // namespace

std::optional<SourceLocation> find_too_deep(const PrimFunc& function, int limit) {
  std::vector<Item> stack;
  push_stmt(stack, function.body, 1);
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    if (item.depth > limit) return item.stmt ? item.stmt->location : item.expr->location;
    if (item.stmt) {
      push_children(stack, *item.stmt, item.depth + 1);
    } else {
      push_children(stack, *item.expr, item.depth + 1);
    }
  }
  return std::nullopt;
}

}  // namespace usmpx::tir
