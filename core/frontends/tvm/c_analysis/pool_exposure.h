#pragma once

#include <map>
#include <string>

#include "frontends/tvm/c_analysis/c_model.h"
#include "frontends/tvm/c_analysis/tvm_code.h"

namespace usmpx {

// Code the tool cannot read that receives a pool: `callee` (a function without a body in the
// sources: an NPU driver such as TVMEthosULaunch, a vendor library, an operator whose file is
// missing) is given the pool's base or a pointer computed from it, in function `caller`.
struct PoolExposure {
  std::string callee;
  std::string caller;
};

// The pools (by name) that reach code without a body, directly or through locals, arrays and
// structs the pointer is stored into, and through the parameters of the functions it is passed
// to. A pointer to a known buffer (a `X_let` of USMP's plan) is not a pool: the liveness walk
// already counts such a call as an access of that buffer. The first exposure found per pool, in
// the entry's call order.
std::map<std::string, PoolExposure> pools_exposed_to_unreadable_code(const CProgram& program, const TvmCode& code);

}  // namespace usmpx
