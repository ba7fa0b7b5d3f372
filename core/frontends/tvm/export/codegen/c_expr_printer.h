#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "frontends/tvm/export/codegen/c_context.h"
#include "frontends/tvm/tir/node.h"

// Prints TIR expressions as C the way TVM's CodeGenC does: every binary operation in
// parentheses, casts as ((T)x), loads as name[i] or ((T*)name)[i] with indices flattened,
// min/max as ((a) > (b) ? (a) : (b)) with non-trivial operands bound to temporaries
// (`int32_t v_ = ...;`) that are emitted before the statement, and TVM's lowerings of
// floordiv/floormod and q_multiply_shift. Temporaries are never made inside a branch of a
// conditional (select, if_then_else, the right side of && and ||), where hoisting the operand
// would evaluate it when the branch is not taken; there the operand is repeated instead.
namespace usmpx::cexport {

class ExprPrinter {
 public:
  // Temporaries are appended to `hoisted` as complete lines indented by `indent`.
  ExprPrinter(FunctionContext& ctx, std::vector<std::string>& hoisted, std::string indent)
      : ctx_(ctx), hoisted_(hoisted), indent_(std::move(indent)) {}

  std::string print(const tir::Expr& e);
  // One element of a buffer as an lvalue.
  std::string element(const tir::Buffer& buffer, const std::vector<tir::ExprRef>& indices, const SourceLocation& at);
  // A call (module functions with the caller's pool parameters, externs, intrinsics).
  std::string call(const tir::Call& c);
  // Whether the value is known to be >= 0 (constants, loop counters from a non-negative start,
  // and sums, products and quotients of those).
  bool non_negative(const tir::Expr& e) const;
  // The C pointer type of a pointer-valued expression when it is known ("int8_t*",
  // "const float*", "void*"), else "".
  std::string pointer_type(const tir::Expr& e) const;

 private:
  // The text of `e`, bound to a temporary unless it is simple or inside a conditional branch.
  std::string operand(const tir::Expr& e);
  std::string print_conditional(const tir::Expr& e);
  std::string binary(const tir::Binary& b);
  std::string floor_div_mod(const tir::Binary& b);
  std::string flat_index(const tir::Buffer& buffer, const std::vector<tir::ExprRef>& indices, const SourceLocation& at);

  friend class CallPrinter;  // prints a call's operands as this printer does (operand, print_conditional)

  FunctionContext& ctx_;
  std::vector<std::string>& hoisted_;
  std::string indent_;
  int conditional_ = 0;
  std::unordered_map<std::string, std::string> temps_;  // expression text -> temporary
};

}  // namespace usmpx::cexport
