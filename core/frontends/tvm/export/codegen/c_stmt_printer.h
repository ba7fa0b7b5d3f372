#pragma once

#include <string>
#include <vector>

#include "frontends/tvm/export/codegen/c_context.h"
#include "frontends/tvm/tir/node.h"

// Prints the statements of one function body as C lines, TVM's CodeGenC style: two spaces per
// level, `for (int32_t i = 0; i < n; ++i) {`, `if (c) {` / `} else {`, let bindings as typed
// declarations, `if (f(...) != 0 ) return -1;` for tvm_check_return, AttrStmt and DeclBuffer
// transparent. Allocations and constants become pool lets, stack arrays, workspace calls or
// file-scope arrays (see tir_c_codegen.h). The chains of statements that enclose the rest of a
// block (allocations, lets, ...) are followed in a loop, so deep nesting costs no recursion.
namespace usmpx::cexport {

class StmtPrinter {
 public:
  explicit StmtPrinter(FunctionContext& ctx) : ctx_(ctx) {}

  void print(const tir::Stmt& first, int indent);
  std::vector<std::string>& lines() { return lines_; }

 private:
  // Each returns the statement to continue with (the body), or null.
  const tir::Stmt* allocate(const tir::Allocate& a, int indent, std::vector<std::vector<std::string>>& after);
  const tir::Stmt* allocate_const(const tir::AllocateConst& a, int indent);
  const tir::Stmt* let(const tir::LetStmt& l, int indent);
  const tir::Stmt* assert_stmt(const tir::AssertStmt& a, int indent);
  void leaf(const tir::Stmt& s, int indent);
  void loop(const tir::For& f, int indent);
  void evaluate(const tir::Evaluate& e, int indent);

  // `void* name = (&(<pool>_<k>_var[offset]));` for a planned statement.
  void pool_let(const tir::Var& var, const std::string& name, const TirPlacement& placement, int indent,
                const SourceLocation& at);
  // `(void)name;` when the body never uses the variable, or for an array never reads it (keeps
  // -Wunused-variable and -Wunused-but-set-variable quiet).
  void void_if_unused(const tir::Var& var, const std::string& name, int indent, bool array = false);
  void emit(int indent, const std::string& text) {
    lines_.push_back(std::string(static_cast<size_t>(indent), ' ') + text);
  }
  void emit_hoisted(std::vector<std::string>& hoisted);
  // `address_of(<pool buffer of a post-USMP dump>[...])`.
  bool points_into_old_pool(const tir::LetStmt& l) const;

  FunctionContext& ctx_;
  std::vector<std::string> lines_;
};

}  // namespace usmpx::cexport
