#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontends/tvm/c_analysis/c_model.h"
#include "frontends/tvm/c_analysis/value_range.h"

namespace usmpx {

// How far a function reaches through one of its pointer parameters, from the address it receives.
struct PointerReach {
  bool bounded = true;
  int64_t bytes = 0;  // the end of the farthest element read or written, 0 when none is
  bool written = false;
  std::string why;  // when not bounded: what the analysis could not bound, and where
};

// Every dereference and subscript of parameter `param` of function `fn` (a definition), of the local
// pointers initialised from it and of what they are advanced to (`*kernel++` counted over the loops
// around it), each in the element type it is read through, over the ranges of the loops around it.
// Calls into functions defined here are followed with the offset they receive; memcpy, memmove and
// memset with a size the analysis can bound count that size. `arguments`: the values of the call's
// arguments, unknown where they are not integers.
PointerReach parameter_reach(const CProgram& program, int fn, int param, const std::vector<ValueRange>& arguments);

}  // namespace usmpx
