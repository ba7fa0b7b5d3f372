#include "model/problem_limits.h"

namespace usmpx {
namespace {

std::string too_large(const std::string& what) {
  return what + " is beyond the 2^60 bytes planning supports";
}

}  // namespace

std::optional<std::string> problem_limit_error(const Problem& problem) {
  for (const Pool& pool : problem.pools) {
    if (pool.size_hint_bytes > kMaxPlannableBytes) return too_large("the size hint of pool '" + pool.name + "'");
    if (pool.alignment > kMaxPlannableBytes) return too_large("the alignment of pool '" + pool.name + "'");
  }
  int64_t total = 0;
  for (const Buffer& b : problem.buffers) {
    if (b.size_bytes > kMaxPlannableBytes || b.alignment > kMaxPlannableBytes) {
      return too_large("buffer '" + b.name + "' (size or alignment)");
    }
    total += b.size_bytes + b.alignment;  // both below 2^60, total checked below 2^60: no overflow
    if (total > kMaxPlannableBytes) return too_large("the total size of the buffers");
    if (b.pin && b.pin->offset && *b.pin->offset > kMaxPlannableBytes) {
      return too_large("the pinned offset of buffer '" + b.name + "'");
    }
  }
  return std::nullopt;
}

}  // namespace usmpx
