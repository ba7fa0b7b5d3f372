#include "frontends/tflite/tflm_shared.h"

#include <algorithm>

#include "frontends/tflite/tflite_problem.h"
#include "frontends/tflite/tflm_min_arena.h"

namespace usmpx {
namespace {

// Every model's AllocateTensors steps one after the other on one arena: the allocator's objects
// once (the first model's first step; `objects` >= 0 replaces their size), each model's plan head
// the largest so far (MicroAllocator reserves the largest head it has planned).
TflmTail stacked(const std::vector<TflmTenant>& tenants, int64_t objects) {
  TflmTail all;
  int64_t head = 0;
  for (size_t i = 0; i < tenants.size(); ++i) {
    const TflmTenant& t = tenants[i];
    head = std::max(head, t.head);
    all.bytes += t.tail.bytes;
    for (size_t s = 0; s < t.tail.steps.size(); ++s) {
      TflmArenaStep step = t.tail.steps[s];
      if (s == 0) {
        if (i > 0) continue;  // MicroAllocator::Create's objects: once
        if (objects >= 0) step.bytes = objects;
      }
      if (step.kind == TflmArenaStep::Kind::kPlanHead) {
        step.kind = TflmArenaStep::Kind::kHead;
        step.bytes = head;
      }
      all.steps.push_back(step);
    }
  }
  return all;
}

}  // namespace

int64_t tflm_recording_allocator_objects(TflmTarget target) {
  return target == TflmTarget::kX86_64 ? 424 : 220;
}

TflmTenant tflm_tenant(const std::string& name, const TfliteAnalysis& a, int64_t head) {
  return {name, head, a.tail, a.tail.exact && a.unknown_scratch.empty()};
}

int64_t tflm_single_arena(const TflmTenant& t) {
  return tflm_min_arena(t.tail, t.head);
}

TflmSharedArena tflm_shared_arena(const std::vector<TflmTenant>& tenants, const TflmBuild& build) {
  TflmSharedArena s;
  s.build = build;
  if (tenants.empty()) return s;
  for (const TflmTenant& t : tenants) {
    s.head = std::max(s.head, t.head);
    s.separate_arenas += tflm_single_arena(t);
    s.exact = s.exact && t.exact;
  }
  const TflmTail recording = stacked(tenants, tflm_recording_allocator_objects(build.target));
  const TflmTail plain = stacked(tenants, -1);
  s.tail = tflm_plain_tail(recording);
  s.recording_total = s.head + s.tail;
  s.arena = tflm_min_arena(plain, 0);
  s.arena_order_free = s.head + tflm_plain_tail(plain);
  return s;
}

}  // namespace usmpx
