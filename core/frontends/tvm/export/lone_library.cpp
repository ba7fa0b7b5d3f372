#include "frontends/tvm/export/lone_library.h"

#include "export/export_error.h"

namespace usmpx {

void check_constants_stay(const MlfModel& m, const Problem& problem, const Plan& plan) {
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    if (problem.buffers[b].kind != BufferKind::kConstant) continue;
    const Allocation& now = plan.allocations[b];
    const bool known = m.as_built && b < m.as_built->allocations.size();
    if (known && m.as_built->allocations[b].pool == now.pool && m.as_built->allocations[b].offset == now.offset)
      continue;
    const std::string& pool = problem.pools[static_cast<size_t>(now.pool)].name;
    throw ExportError("the plan moves constant '" + problem.buffers[b].name + "' to offset " +
                      std::to_string(now.offset) + " of pool '" + pool + "', but its data is in " + m.module +
                      "_lib0.c, which the input does not hold: pin the constants where TVM put them (as-built "
                      "offsets) or give the whole codegen/host/src TVM wrote");
  }
}

std::vector<std::string> pools_defined_elsewhere(const MlfModel& m, const Problem& problem, const Plan& plan,
                                                 const std::vector<ExportPool>& pools) {
  Plan tvm;
  if (m.as_built) {
    tvm = *m.as_built;
    compute_pool_sizes(problem, tvm);
  }
  Plan now = plan;
  compute_pool_sizes(problem, now);
  std::vector<std::string> lines;
  for (const ExportPool& p : pools) {
    const size_t i = static_cast<size_t>(p.index);
    const int64_t before = i < tvm.pool_sizes.size() ? tvm.pool_sizes[i] : -1;
    const int64_t after = i < now.pool_sizes.size() ? now.pool_sizes[i] : p.size_bytes;
    if (before == after) continue;
    lines.push_back("pool '" + p.name + "' is defined outside the input (no " + m.module +
                    "_lib0.c): it must now hold " + std::to_string(after) + " bytes, aligned to " +
                    std::to_string(p.alignment) + (before >= 0 ? " (TVM's plan: " + std::to_string(before) + ")" : ""));
  }
  return lines;
}

}  // namespace usmpx
