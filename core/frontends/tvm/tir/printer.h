#pragma once

#include <string>

#include "frontends/tvm/tir/node.h"

namespace usmpx::tir {

struct PrintOptions {
  // Name variables v0, v1, ... and buffers b0, b1, ... in order of first appearance, so that two
  // trees print the same exactly when they are structurally equal (TVM's StructuralEqual ignores
  // names the same way). Function names, attribute keys and strings are printed as they are.
  bool canonical_names = false;
};

// A compact, deterministic, indented text form of the tree (not TVMScript): one line per
// statement, every literal with its dtype. Meant for tests, diffs and debugging.
std::string print_module(const Module& module, const PrintOptions& options = {});
std::string print_function(const PrimFunc& function, const PrintOptions& options = {});
std::string print_expr(const Expr& expr);

// Whether two modules are equal up to the names of variables and buffers.
bool structurally_equal(const Module& a, const Module& b);

}  // namespace usmpx::tir
