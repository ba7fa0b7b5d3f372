#pragma once

#include <functional>

#include "tir/node.h"

namespace usmpx::tir {

// The direct children of a node, in TVM's visiting order.
void for_each_child(const Stmt& s, const std::function<void(const Stmt&)>& on_stmt,
                    const std::function<void(const Expr&)>& on_expr);
void for_each_child(const Expr& e, const std::function<void(const Expr&)>& on_expr);

// Every node of a function body, parents before children, without recursion.
void walk(const PrimFunc& function, const std::function<void(const Stmt&)>& on_stmt,
          const std::function<void(const Expr&)>& on_expr);

}  // namespace usmpx::tir
