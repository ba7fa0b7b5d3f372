#pragma once

#include <functional>

#include "frontends/tvm/c_analysis/c_model.h"
#include "frontends/tvm/c_analysis/value_range.h"

namespace usmpx {

// The values a variable of the function being read holds where an expression reads it (by CExpr::decl).
using VariableValue = std::function<ValueRange(int decl)>;

// The values an integer expression can take, given those of the variables it reads.
ValueRange evaluate_expr(const CExpr& e, RangeContext& ranges, const VariableValue& value_of);

// Whether a for-loop's increment steps `var` upwards: `++var`, `var++`, `var += c`, `var = var + c`.
bool steps_up(const CExpr& inc, int var);

// The loop variable of `for (T i = a; i < b; ++i)` (or `i = a;` as init, `<=`, the steps above) and
// the range it runs over, given the range `start` of `a`; unknown when the loop is not of that shape.
ValueRange loop_range(const CStmt& loop, int var, const ValueRange& start, RangeContext& ranges,
                      const VariableValue& value_of);

}  // namespace usmpx
