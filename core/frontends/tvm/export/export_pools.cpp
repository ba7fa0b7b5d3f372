#include "frontends/tvm/export/export_pools.h"

#include <algorithm>
#include <cctype>

#include "export/export_error.h"

namespace usmpx {

std::vector<ExportPool> export_pools(const Problem& problem, const Plan& plan) {
  std::vector<ExportPool> pools;
  std::vector<bool> used(problem.pools.size(), false);
  for (const Allocation& a : plan.allocations) {
    if (a.placed() && static_cast<size_t>(a.pool) < used.size()) used[static_cast<size_t>(a.pool)] = true;
  }
  for (size_t p = 0; p < problem.pools.size(); ++p) {
    if (!used[p]) continue;
    const Pool& pool = problem.pools[p];
    const int64_t size = p < plan.pool_sizes.size() ? plan.pool_sizes[p] : 0;
    pools.push_back({static_cast<int>(p), pool.name, pool.kind, pool.internal, size, pool.alignment, pool.section});
  }
  std::sort(pools.begin(), pools.end(), [](const ExportPool& a, const ExportPool& b) { return a.name < b.name; });
  return pools;
}

std::string pool_param_name(const std::string& pool, int64_t k) {
  return pool + "_" + std::to_string(k) + "_var";
}

namespace {

bool is_c_identifier(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// With --use-workspace-io the application writes the inputs before a run and reads the outputs
// after it. TVM's liveness keeps them only while the model accesses them, so a buffer sharing an
// input's bytes and live before its first read, or sharing an output's bytes and live after its
// last write, destroys it.
void io_clobbers(const Problem& problem, const Plan& plan, std::vector<std::string>& problems) {
  for (size_t x = 0; x < problem.buffers.size() && x < plan.allocations.size(); ++x) {
    const Buffer& io = problem.buffers[x];
    const bool input = io.kind == BufferKind::kInput;
    if ((!input && io.kind != BufferKind::kOutput) || !io.lifetime || !plan.allocations[x].placed()) continue;
    const Allocation& a = plan.allocations[x];
    for (size_t b = 0; b < problem.buffers.size() && b < plan.allocations.size(); ++b) {
      const Buffer& other = problem.buffers[b];
      const Allocation& o = plan.allocations[b];
      if (b == x || o.pool != a.pool || !other.lifetime || other.size_bytes <= 0 || io.size_bytes <= 0) continue;
      if (o.offset >= a.offset + io.size_bytes || a.offset >= o.offset + other.size_bytes) continue;
      const bool clobbers =
          input ? other.lifetime->first() < io.lifetime->first() : other.lifetime->last() > io.lifetime->last();
      if (!clobbers) continue;
      problems.push_back(std::string(input ? "input '" : "output '") + io.name + "' shares bytes with '" + other.name +
                         "', which is live " + (input ? "before it is read" : "after it is written") +
                         " (TVM's liveness keeps I/O only while accessed); plan with --io-live-throughout");
      break;
    }
  }
}

}  // namespace

void check_exportable(const Problem& problem, const Plan& plan) {
  std::vector<std::string> problems;
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    if (b >= plan.allocations.size() || !plan.allocations[b].placed())
      problems.push_back("buffer '" + problem.buffers[b].name + "' has no place");
  }
  for (const Diagnostic& d : plan.diagnostics) {
    if (d.severity == Severity::kError) problems.push_back(d.message);
  }
  for (const ExportPool& p : export_pools(problem, plan)) {
    if (!is_c_identifier(p.name)) problems.push_back("pool name '" + p.name + "' is not a C identifier");
    const bool section_ok = std::all_of(p.section.begin(), p.section.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$';
    });
    if (!section_ok)
      problems.push_back("linker section '" + p.section + "' of pool '" + p.name +
                         "' may hold only letters, digits, '_', '.' and '$'");
  }
  // With --use-workspace-io the application reaches its inputs and outputs through the
  // workspace_pools struct, which lists only the pools it passes in.
  for (size_t b = 0; b < problem.buffers.size() && b < plan.allocations.size(); ++b) {
    const Buffer& buf = problem.buffers[b];
    const Allocation& a = plan.allocations[b];
    if ((buf.kind == BufferKind::kInput || buf.kind == BufferKind::kOutput) && a.placed() &&
        problem.pools[static_cast<size_t>(a.pool)].internal)
      problems.push_back(std::string(buf.kind == BufferKind::kInput ? "input" : "output") + " '" + buf.name +
                         "' is planned into the internal pool '" + problem.pools[static_cast<size_t>(a.pool)].name +
                         "', which the application cannot reach; give the pools it passes in (--workspace-pools) "
                         "with --use-workspace-io");
  }
  io_clobbers(problem, plan, problems);
  if (problems.empty()) return;
  std::string message = "the plan cannot be exported:";
  const size_t shown = std::min<size_t>(problems.size(), 10);
  for (size_t i = 0; i < shown; ++i)
    message += "\n  " + problems[i];
  if (problems.size() > shown) message += "\n  ... and " + std::to_string(problems.size() - shown) + " more";
  throw ExportError(message);
}

int64_t workspace_pool_bytes(const std::vector<ExportPool>& pools) {
  int64_t sum = 0;
  for (const ExportPool& p : pools)
    sum += p.kind == PoolKind::kWorkspace ? p.size_bytes : 0;
  return sum;
}

int64_t constant_pool_bytes(const std::vector<ExportPool>& pools) {
  int64_t sum = 0;
  for (const ExportPool& p : pools)
    sum += p.kind == PoolKind::kConstant ? p.size_bytes : 0;
  return sum;
}

}  // namespace usmpx
