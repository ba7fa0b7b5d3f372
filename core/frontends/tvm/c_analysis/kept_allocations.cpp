#include "frontends/tvm/c_analysis/kept_allocations.h"

#include <string>
#include <utility>
#include <vector>

namespace usmpx {
namespace {

std::string position(const CProgram& program, const CRange& at) {
  if (!at.valid()) return "";
  return " (" + program.files[static_cast<size_t>(at.file)].path + ":" + std::to_string(at.line) + ":" +
         std::to_string(at.column) + ")";
}

}  // namespace

void keep_unbounded_allocations(const CProgram& program, WalkResult& result) {
  std::vector<int> renumber(result.buffers.size(), -1);
  int planned = 0;
  for (size_t b = 0; b < result.buffers.size(); ++b) {
    const WalkBuffer& w = result.buffers[b];
    std::string reason;
    if (w.source == WalkBufferSource::kWorkspaceAlloc) {
      if (w.accesses.unbounded > 0)
        reason = "an index the analysis cannot bound" + position(program, w.accesses.first_unbounded);
      else if (w.escaped.valid())
        reason = "its address is stored where the analysis does not follow it" + position(program, w.escaped);
      else if (w.accesses.unsized_pun.valid())
        reason = "read through a pointer to another element type further than the analysis can bound, " +
                 w.accesses.unsized_pun_why;
    }
    if (reason.empty()) {
      renumber[b] = planned++;
    } else {
      const bool unbounded = w.accesses.unbounded > 0 || w.accesses.unsized_pun.valid();
      result.kept.push_back({w.index, w.name, reason, unbounded, w.accesses.implied_bytes()});
    }
  }
  if (result.kept.empty()) return;
  std::vector<WalkBuffer> remaining;
  for (size_t b = 0; b < result.buffers.size(); ++b) {
    if (renumber[b] >= 0) remaining.push_back(std::move(result.buffers[b]));
  }
  result.buffers = std::move(remaining);
  std::vector<AccessInterval> intervals;
  for (const AccessInterval& iv : result.intervals) {
    if (renumber[static_cast<size_t>(iv.buffer)] >= 0)
      intervals.push_back({renumber[static_cast<size_t>(iv.buffer)], iv.first, iv.last});
  }
  result.intervals = std::move(intervals);
}

}  // namespace usmpx
