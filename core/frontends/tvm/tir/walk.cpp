#include "frontends/tvm/tir/walk.h"

#include <vector>

namespace usmpx::tir {

void for_each_child(const Stmt& s, const std::function<void(const Stmt&)>& on_stmt,
                    const std::function<void(const Expr&)>& on_expr) {
  const auto stmt = [&](const StmtRef& c) {
    if (c) on_stmt(*c);
  };
  const auto expr = [&](const ExprRef& c) {
    if (c) on_expr(*c);
  };
  switch (s.kind) {
    case StmtKind::kAllocate: {
      const auto& n = static_cast<const Allocate&>(s);
      for (const ExprRef& e : n.extents)
        expr(e);
      stmt(n.body);
      expr(n.condition);
      return;
    }
    case StmtKind::kAllocateConst: {
      const auto& n = static_cast<const AllocateConst&>(s);
      for (const ExprRef& e : n.extents)
        expr(e);
      stmt(n.body);
      return;
    }
    case StmtKind::kDeclBuffer: stmt(static_cast<const DeclBuffer&>(s).body); return;
    case StmtKind::kLet:
      expr(static_cast<const LetStmt&>(s).value);
      stmt(static_cast<const LetStmt&>(s).body);
      return;
    case StmtKind::kAttr:
      expr(static_cast<const AttrStmt&>(s).value);
      stmt(static_cast<const AttrStmt&>(s).body);
      return;
    case StmtKind::kAssert:
      expr(static_cast<const AssertStmt&>(s).condition);
      expr(static_cast<const AssertStmt&>(s).message);
      stmt(static_cast<const AssertStmt&>(s).body);
      return;
    case StmtKind::kFor:
      expr(static_cast<const For&>(s).min);
      expr(static_cast<const For&>(s).extent);
      stmt(static_cast<const For&>(s).body);
      return;
    case StmtKind::kIfThenElse:
      expr(static_cast<const IfThenElse&>(s).condition);
      stmt(static_cast<const IfThenElse&>(s).then_case);
      stmt(static_cast<const IfThenElse&>(s).else_case);
      return;
    case StmtKind::kSeq:
      for (const StmtRef& c : static_cast<const SeqStmt&>(s).seq)
        stmt(c);
      return;
    case StmtKind::kEvaluate: expr(static_cast<const Evaluate&>(s).value); return;
    case StmtKind::kBufferStore:
      expr(static_cast<const BufferStore&>(s).value);
      for (const ExprRef& i : static_cast<const BufferStore&>(s).indices)
        expr(i);
      return;
  }
}

void for_each_child(const Expr& e, const std::function<void(const Expr&)>& on_expr) {
  const auto expr = [&](const ExprRef& c) {
    if (c) on_expr(*c);
  };
  switch (e.kind) {
    case ExprKind::kBufferLoad:
      for (const ExprRef& i : static_cast<const BufferLoad&>(e).indices)
        expr(i);
      return;
    case ExprKind::kCall:
      for (const ExprRef& a : static_cast<const Call&>(e).args)
        expr(a);
      return;
    case ExprKind::kBinary:
      expr(static_cast<const Binary&>(e).a);
      expr(static_cast<const Binary&>(e).b);
      return;
    case ExprKind::kNot: expr(static_cast<const Not&>(e).a); return;
    case ExprKind::kCast: expr(static_cast<const Cast&>(e).value); return;
    case ExprKind::kSelect:
      expr(static_cast<const Select&>(e).condition);
      expr(static_cast<const Select&>(e).true_value);
      expr(static_cast<const Select&>(e).false_value);
      return;
    case ExprKind::kRamp:
      expr(static_cast<const Ramp&>(e).base);
      expr(static_cast<const Ramp&>(e).stride);
      return;
    case ExprKind::kBroadcast: expr(static_cast<const Broadcast&>(e).value); return;
    default: return;
  }
}

const StmtRef* enclosed_body(const Stmt& s) {
  switch (s.kind) {
    case StmtKind::kAllocate: return &static_cast<const Allocate&>(s).body;
    case StmtKind::kAllocateConst: return &static_cast<const AllocateConst&>(s).body;
    case StmtKind::kDeclBuffer: return &static_cast<const DeclBuffer&>(s).body;
    case StmtKind::kLet: return &static_cast<const LetStmt&>(s).body;
    case StmtKind::kAttr: return &static_cast<const AttrStmt&>(s).body;
    case StmtKind::kAssert: return &static_cast<const AssertStmt&>(s).body;
    default: return nullptr;
  }
}

void walk(const PrimFunc& function, const std::function<void(const Stmt&)>& on_stmt,
          const std::function<void(const Expr&)>& on_expr) {
  struct Item {
    const Stmt* stmt;
    const Expr* expr;
  };
  std::vector<Item> stack;
  if (function.body) stack.push_back({function.body.get(), nullptr});
  std::vector<Item> children;
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    children.clear();
    if (item.stmt) {
      on_stmt(*item.stmt);
      for_each_child(
          *item.stmt,
          [&](const Stmt& s) {
            children.push_back({&s, nullptr});
          },
          [&](const Expr& e) {
            children.push_back({nullptr, &e});
          });
    } else {
      on_expr(*item.expr);
      for_each_child(*item.expr, [&](const Expr& e) { children.push_back({nullptr, &e}); });
    }
    stack.insert(stack.end(), children.rbegin(), children.rend());
  }
}

}  // namespace usmpx::tir
