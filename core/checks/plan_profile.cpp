#include "checks/plan_profile.h"

#include <algorithm>
#include <limits>
#include <map>

namespace usmpx {

bool is_entry_function(const std::string& function) {
  return function.empty() || function.find("__tvm_main__") != std::string::npos ||
         function.find("run_model") != std::string::npos;
}

BufferRole buffer_role(const Buffer& buffer) {
  switch (buffer.kind) {
    case BufferKind::kConstant: return BufferRole::kConstant;
    case BufferKind::kInput:
    case BufferKind::kOutput: return BufferRole::kInputOutput;
    case BufferKind::kReserved: return BufferRole::kReserved;
    case BufferKind::kIntermediate: break;
  }
  return is_entry_function(buffer.origin.function) ? BufferRole::kIntermediate : BufferRole::kOperatorInternal;
}

std::string_view to_string(BufferRole role) {
  switch (role) {
    case BufferRole::kIntermediate: return "intermediate";
    case BufferRole::kOperatorInternal:
      // The same kind as in problem files, `usmpx info --json` and the CLI: one name per kind.
      return "intermediate (in operator)";
    case BufferRole::kConstant: return "constant";
    case BufferRole::kInputOutput: return "input/output";
    case BufferRole::kReserved: return "reserved";
  }
  return "intermediate";
}

std::string kind_label(const Buffer& buffer) {
  const BufferRole role = buffer_role(buffer);
  return std::string(role == BufferRole::kInputOutput ? to_string(buffer.kind) : to_string(role));
}

std::optional<Lifetime> display_lifetime(const Problem& problem, const Buffer& buffer) {
  if (buffer.kind == BufferKind::kConstant) {
    const auto [first, end] = tick_range(problem);
    return Lifetime{first, end};
  }
  return buffer.lifetime;
}

std::vector<LiveStep> live_bytes_profile(const Problem& problem, const Plan& plan, int pool) {
  std::map<int64_t, int64_t> delta;
  const auto [first, end] = tick_range(problem);  // once, not per constant (display_lifetime's rule)
  for (size_t b = 0; b < problem.buffers.size() && b < plan.allocations.size(); ++b) {
    const Buffer& buffer = problem.buffers[b];
    const std::optional<Lifetime> lt =
        buffer.kind == BufferKind::kConstant ? std::optional<Lifetime>(Lifetime{first, end}) : buffer.lifetime;
    if (plan.allocations[b].pool != pool || !lt || lt->empty()) continue;
    delta[lt->begin] += problem.buffers[b].size_bytes;
    delta[lt->end] -= problem.buffers[b].size_bytes;
  }
  std::vector<LiveStep> steps;
  int64_t live = 0;
  for (const auto& [tick, change] : delta) {
    live += change;
    if (!steps.empty() && steps.back().bytes == live) continue;
    steps.push_back({tick, live});
  }
  return steps;
}

std::pair<int64_t, int64_t> tick_range(const Problem& problem) {
  int64_t first = std::numeric_limits<int64_t>::max();
  int64_t end = std::numeric_limits<int64_t>::min();
  for (const Buffer& b : problem.buffers) {
    if (!b.lifetime || b.lifetime->empty()) continue;
    first = std::min(first, b.lifetime->begin);
    end = std::max(end, b.lifetime->end);
  }
  if (first > end) return {0, 1};
  return {first, end};
}

}  // namespace usmpx
