#include "frontends/tvm/export/codegen/tir_codegen_input.h"

#include <algorithm>
#include <stdexcept>

namespace usmpx {

TirCodegenInput tir_codegen_input(const TirProblem& tir, const Plan& plan, std::string module_name,
                                  std::string target) {
  const Problem& problem = tir.problem;
  if (!tir.module) throw std::invalid_argument("the TIR problem carries no module");
  if (tir.statements.size() != problem.buffers.size() || plan.allocations.size() != problem.buffers.size()) {
    throw std::invalid_argument("the plan, the buffers and their statements do not match");
  }
  TirCodegenInput input;
  input.module = tir.module.get();
  input.main = &find_main_function(*tir.module);
  input.module_name = std::move(module_name);
  input.target = std::move(target);
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    const Allocation& a = plan.allocations[i];
    if (!a.placed()) continue;
    const std::string& pool = problem.pools.at(static_cast<size_t>(a.pool)).name;
    input.placements[tir.statements[i]] = {pool, a.offset, problem.buffers[i].kind == BufferKind::kConstant};
    if (std::find(input.pools.begin(), input.pools.end(), pool) == input.pools.end()) input.pools.push_back(pool);
  }
  std::sort(input.pools.begin(), input.pools.end());
  return input;
}

}  // namespace usmpx
