#include "frontends/tvm/mlf/reserved_bytes.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "model/live_ranges.h"

namespace usmpx {
namespace {

using Range = Lifetime;  // bytes [begin, end)

// The merged byte ranges the known buffers of pool `p` occupy in the plan.
std::vector<Range> occupied(const Problem& problem, const Plan& plan, int p) {
  std::vector<Range> ranges;
  for (size_t b = 0; b < problem.buffers.size() && b < plan.allocations.size(); ++b) {
    const Allocation& a = plan.allocations[b];
    if (a.pool == p && problem.buffers[b].size_bytes > 0)
      ranges.push_back({a.offset, a.offset + problem.buffers[b].size_bytes});
  }
  return merged_ranges(std::move(ranges));
}

// The bytes of [0, limit) outside `taken`.
std::vector<Range> gaps(const std::vector<Range>& taken, int64_t limit) {
  std::vector<Range> out;
  int64_t at = 0;
  for (const Range& r : taken) {
    if (r.begin > at) out.push_back({at, std::min(r.begin, limit)});
    at = std::max(at, r.end);
    if (at >= limit) break;
  }
  if (at < limit) out.push_back({at, limit});
  out.erase(std::remove_if(out.begin(), out.end(), [](const Range& r) { return r.end <= r.begin; }), out.end());
  return out;
}

}  // namespace

std::optional<Diagnostic> reserve_unknown_pool_bytes(Problem& problem, Plan& as_built, const ReservationInput& in) {
  const size_t known = problem.buffers.size();
  std::vector<std::string> said;
  for (size_t p = 0; p < problem.pools.size(); ++p) {
    const Pool& pool = problem.pools[p];
    if (pool.kind != PoolKind::kWorkspace) continue;
    const std::vector<Range> taken = occupied(problem, as_built, static_cast<int>(p));
    const int64_t end = taken.empty() ? 0 : taken.back().end;
    const auto declared_it = in.declared_size.find(pool.name);
    const int64_t declared = declared_it != in.declared_size.end() ? declared_it->second : 0;  // 0: not declared
    const auto exposure = in.exposed.find(pool.name);
    std::vector<Range> reserve;
    if (exposure != in.exposed.end()) {
      reserve = gaps(taken, std::max(declared, end));
    } else if (declared > end) {
      reserve.push_back({end, declared});
    }
    if (reserve.empty()) continue;
    int64_t bytes = 0;
    for (const Range& r : reserve) {
      Buffer b;
      b.name = "reserved_" + pool.name + "_" + std::to_string(r.begin);
      b.size_bytes = r.end - r.begin;
      b.alignment = 1;
      b.kind = BufferKind::kReserved;
      b.pool_candidates = {static_cast<int>(p)};
      b.lifetime = Lifetime::closed(0, std::max<int64_t>(0, in.last_tick));
      b.pin = Pin{static_cast<int>(p), r.begin};
      if (exposure != in.exposed.end()) b.origin.function = exposure->second.callee;
      problem.buffers.push_back(std::move(b));
      as_built.allocations.push_back({static_cast<int>(p), r.begin});
      problem.memory_pressure += r.end - r.begin;
      bytes += r.end - r.begin;
    }
    const std::string ranges =
        std::to_string(reserve.size()) + (reserve.size() == 1 ? " range" : " ranges") + " of pool '" + pool.name + "'";
    const std::string size = std::to_string(std::max(declared, end));
    if (exposure != in.exposed.end()) {
      said.push_back(std::to_string(bytes) + " bytes in " + ranges + ": " + exposure->second.callee + " (called from " +
                     exposure->second.caller +
                     ") receives the pool and may use every byte no known buffer holds; the pool stays at least " +
                     size + " bytes");
    } else {
      said.push_back(std::to_string(bytes) + " bytes in " + ranges + ": the code declares it " + size +
                     " bytes but its known buffers end at " + std::to_string(end) + "; the pool stays at least " +
                     size + " bytes");
    }
  }
  if (said.empty()) return std::nullopt;
  // Every known buffer that may go into a reserved buffer's pool conflicts with it, both ways.
  for (size_t r = known; r < problem.buffers.size(); ++r) {
    const int pool = problem.buffers[r].pool_candidates.front();
    for (size_t b = 0; b < known; ++b) {
      Buffer& other = problem.buffers[b];
      if (std::find(other.pool_candidates.begin(), other.pool_candidates.end(), pool) == other.pool_candidates.end())
        continue;
      other.conflicts.push_back(static_cast<int>(r));
      problem.buffers[r].conflicts.push_back(static_cast<int>(b));
    }
  }
  std::string message = "reserved for the whole run, pinned where TVM's plan left them (kind 'reserved'): ";
  for (size_t i = 0; i < said.size(); ++i)
    message += (i ? "; " : "") + said[i];
  Diagnostic d;
  d.severity = Severity::kWarning;
  d.code = "mlf-reserved-bytes";
  d.location = {in.display_path, 0, 0};
  d.message = message;
  return d;
}

int64_t reserved_bytes(const Problem& problem) {
  int64_t sum = 0;
  for (const Buffer& b : problem.buffers)
    sum += b.kind == BufferKind::kReserved ? b.size_bytes : 0;
  return sum;
}

}  // namespace usmpx
