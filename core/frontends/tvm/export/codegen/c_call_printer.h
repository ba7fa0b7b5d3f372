#pragma once

#include <string>

#include "frontends/tvm/export/codegen/c_expr_printer.h"

// Prints TIR calls as C the way TVM's CodeGenC does: module functions with the caller's pool
// parameters (and a cast where C wants another pointer type), C functions, TVM's builtins and
// lowerings (address_of, if_then_else, lookup_param, bitwise operators, q_multiply_shift) and the
// math intrinsics as C library functions. Operands are printed by the expression printer that met
// the call, so its temporaries and conditional branches hold for them too.
namespace usmpx::cexport {

class CallPrinter {
 public:
  CallPrinter(ExprPrinter& exprs, FunctionContext& ctx) : exprs_(exprs), ctx_(ctx) {}

  std::string print(const tir::Call& c);

 private:
  std::string module_call(const tir::Call& c, const tir::PrimFunc& callee);
  std::string extern_call(const tir::Call& c);
  std::string q_multiply_shift(const tir::Call& c);
  std::string math(const tir::Call& c);

  ExprPrinter& exprs_;
  FunctionContext& ctx_;
};

}  // namespace usmpx::cexport
