#pragma once

#include <functional>

#include "frontends/tvm/tir/node.h"

namespace usmpx::tir {

// The direct children of a node, in TVM's visiting order.
void for_each_child(const Stmt& s, const std::function<void(const Stmt&)>& on_stmt,
                    const std::function<void(const Expr&)>& on_expr);
void for_each_child(const Expr& e, const std::function<void(const Expr&)>& on_expr);

// The body of a statement that encloses the rest of its block (Allocate, AllocateConst,
// DeclBuffer, LetStmt, AttrStmt, AssertStmt), or null for other statements. A main function with
// hundreds of allocations nests them hundreds deep, so walkers follow these bodies in a loop
// rather than by recursion.
const StmtRef* enclosed_body(const Stmt& s);

// Every node of a function body, parents before children, without recursion.
void walk(const PrimFunc& function, const std::function<void(const Stmt&)>& on_stmt,
          const std::function<void(const Expr&)>& on_expr);

}  // namespace usmpx::tir
