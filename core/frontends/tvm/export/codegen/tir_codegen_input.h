#pragma once

#include <string>

#include "frontends/tvm/export/codegen/tir_c_codegen.h"
#include "frontends/tvm/usmp/tir_problem.h"
#include "model/plan.h"

// Builds the input of emit_tir_host_module from an analysed TIR module and a plan of its
// problem: every placed buffer's statement with its pool and offset, and the pools that received
// at least one buffer, sorted by name as TVM orders pool parameters.
namespace usmpx {

// Throws std::invalid_argument when the plan does not belong to the problem (sizes differ) or
// the TirProblem carries no module.
TirCodegenInput tir_codegen_input(const TirProblem& tir, const Plan& plan, std::string module_name = "default",
                                  std::string target = "c -keys=cpu ");

}  // namespace usmpx
