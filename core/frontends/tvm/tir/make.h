#pragma once

#include <string>
#include <vector>

#include "frontends/tvm/tir/node.h"

// Builders shared by the dump readers and by tree transforms. They fill dtypes the way TVM's
// expression constructors do for the subset the dumps use.
namespace usmpx::tir {

ExprRef make_int(int64_t value, DataType dtype, const SourceLocation& at);
ExprRef make_float(double value, DataType dtype, const SourceLocation& at);
ExprRef make_string(std::string value, const SourceLocation& at);
ExprRef make_var_use(const VarRef& var, const SourceLocation& at);
// Arithmetic takes the wider operand type (an int32 literal adopts the other side's type);
// comparisons and logical operators give bool.
ExprRef make_binary(BinaryOp op, ExprRef a, ExprRef b, const SourceLocation& at);
ExprRef make_not(ExprRef a, const SourceLocation& at);
ExprRef make_cast(DataType dtype, ExprRef value, const SourceLocation& at);
ExprRef make_call(std::string op, std::vector<ExprRef> args, DataType dtype, const SourceLocation& at,
                  bool global = false);
ExprRef make_load(BufferRef buffer, std::vector<ExprRef> indices, const SourceLocation& at);

// A statement list as one statement: the statement itself when there is one, else a SeqStmt
// (an empty list gives an empty SeqStmt).
StmtRef make_seq(std::vector<StmtRef> stmts, const SourceLocation& at);

}  // namespace usmpx::tir
