#include "inputs/firmware/tflm_shared.h"

#include <algorithm>

namespace usmpx {

// RecordingMicroAllocator::Create's tail (recording arena allocator, planner, recording allocator,
// builtin data allocator), and the difference to MicroAllocator::Create's (MicroAllocator 36 vs 124
// bytes and SingleArenaBufferAllocator 36 vs 52 on a 32-bit target; 72 vs 248 and 72 vs 104 on
// x86-64), TFLM 90b983c, measured in tflm_multi_tenant.json and tflm_min_arena.json.
int64_t tflm_recording_allocator_objects(TflmTarget target) {
  return target == TflmTarget::kX86_64 ? 424 : 220;
}
int64_t tflm_plain_allocator_saving(TflmTarget target) {
  return target == TflmTarget::kX86_64 ? 208 : 104;
}

int64_t tflm_single_arena(const TflmTenant& t, TflmTarget target) {
  return std::max(t.head + t.tail, t.planning) - tflm_plain_allocator_saving(target);
}

TflmSharedArena tflm_shared_arena(const std::vector<TflmTenant>& tenants, const TflmBuild& build) {
  TflmSharedArena s;
  s.build = build;
  if (tenants.empty()) return s;
  const int64_t objects = tflm_recording_allocator_objects(build.target);
  int64_t tails_before = 0;  // the tails of the models already allocated, without the allocator's objects
  for (const TflmTenant& t : tenants) {
    s.head = std::max(s.head, t.head);
    const int64_t alone = tflm_single_arena(t, build.target);
    s.need_while_planning.push_back(tails_before + alone);
    s.separate_arenas += alone;
    tails_before += t.tail - objects;
    s.exact = s.exact && t.exact;
  }
  s.tail = tails_before + objects;
  s.recording_total = s.head + s.tail;
  s.arena = s.recording_total - tflm_plain_allocator_saving(build.target);
  for (int64_t need : s.need_while_planning)
    s.arena = std::max(s.arena, need);
  return s;
}

}  // namespace usmpx
