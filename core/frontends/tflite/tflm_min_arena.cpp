#include "frontends/tflite/tflm_min_arena.h"

#include <algorithm>

#include "base/alignment.h"

namespace usmpx {
namespace {

constexpr int64_t kPlannerBytesPerBuffer = 40;  // GreedyMemoryPlanner::per_buffer_size()

int64_t align_down(int64_t x, int64_t a) {
  return x >= 0 ? x / a * a : -((-x + a - 1) / a * a);
}

// Replays the steps; the tail's final position, or -1 where a step fails.
int64_t replay(const TflmTail& t, int64_t plan_head, int64_t arena, bool until_planned) {
  using Kind = TflmArenaStep::Kind;
  int64_t head = 0, temp = 0, tail = arena;
  for (const TflmArenaStep& s : t.steps) {
    switch (s.kind) {
      case Kind::kPersistent: {
        // Below the temporary allocations a kernel holds while it prepares, not just the head.
        const int64_t at = align_down(tail - s.bytes, s.align);
        if (at < temp) return -1;
        tail = at;
        break;
      }
      case Kind::kHead:
      case Kind::kPlanHead: {
        const int64_t bytes = s.kind == Kind::kPlanHead ? plan_head : s.bytes;
        const int64_t start = align_up(0, s.align);
        if (tail - start < bytes) return -1;
        head = temp = start + bytes;
        break;
      }
      case Kind::kTemp: {
        const int64_t at = align_up(temp, s.align);
        if (tail - at < s.bytes) return -1;
        temp = at + s.bytes;
        break;
      }
      case Kind::kResetTemp: temp = head; break;
      case Kind::kPlanner: {
        const int64_t available = align_down(tail, s.align) - align_up(temp, s.align);
        if (available < 0 || available / kPlannerBytesPerBuffer < s.bytes) return -1;
        if (until_planned) return tail;
        break;
      }
    }
  }
  return tail;
}

// The smallest arena for which `runs` holds: runs grow with the arena but for a few bytes of
// alignment, so bisect for the edge, then take the smallest size just below it that still runs.
template <typename Runs>
int64_t smallest(int64_t start, Runs runs) {
  int64_t lo = 0, hi = std::max<int64_t>(start, 64);
  while (!runs(hi)) {
    if (hi > (int64_t{1} << 50)) return hi;  // nothing runs: no real model reaches here
    hi *= 2;
  }
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    (runs(mid) ? hi : lo) = mid;
  }
  int64_t best = hi;
  for (int64_t n = hi - 1; n >= std::max<int64_t>(0, hi - 32); --n)
    if (runs(n)) best = n;
  return best;
}

}  // namespace

bool tflm_arena_runs(const TflmTail& t, int64_t plan_head, int64_t arena, bool until_planned) {
  return replay(t, plan_head, arena, until_planned) >= 0;
}

int64_t tflm_min_arena(const TflmTail& t, int64_t head) {
  return smallest(head + t.bytes, [&](int64_t n) { return tflm_arena_runs(t, head, n); });
}

int64_t tflm_planning_arena(const TflmTail& t) {
  return smallest(t.bytes, [&](int64_t n) { return tflm_arena_runs(t, 0, n, true); });
}

int64_t tflm_plain_tail(const TflmTail& t) {
  const int64_t arena = int64_t{1} << 40;
  return arena - replay(t, 0, arena, false);
}

}  // namespace usmpx
