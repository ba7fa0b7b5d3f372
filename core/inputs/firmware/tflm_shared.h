#pragma once

// Several TFLite Micro interpreters on one MicroAllocator (TFLM's multi-tenant arena): each model is
// planned from the start of the one head, so the shared head is the largest head; every model's
// persistent tail stacks below the others; the allocator's own objects are there once. The smallest
// shared kTensorArenaSize also depends on the order the interpreters are created in: model i plans
// (AllocateTensors) with the tails of models 0..i-1 already in the arena, and planning takes
// temporary memory that for some models exceeds their final head. Ground truth:
// ../shared/tflite/tflm_multi_tenant.json (TFLM 90b983c, three builds).

#include <cstdint>
#include <string>
#include <vector>

#include "frontends/tflite/tflm_build.h"

namespace usmpx {

// One model's own figures for the build (tflite frontend: its plan's head, TflmTail).
struct TflmTenant {
  std::string name;
  int64_t head = 0;      // the arena head of the plan the model runs with
  int64_t tail = 0;      // TflmTail::bytes (recording allocator objects included)
  int64_t planning = 0;  // TflmTail::planning_bytes (same)
  bool exact = true;
};

struct TflmSharedArena {
  TflmBuild build;
  int64_t head = 0;                          // the largest head
  int64_t tail = 0;                          // every tail, the recording allocator's objects once
  int64_t recording_total = 0;               // head + tail: what a RecordingMicroAllocator counts
  int64_t arena = 0;                         // the smallest kTensorArenaSize with a plain allocator, in this order
  std::vector<int64_t> need_while_planning;  // per model, in creation order: what its AllocateTensors needs
  int64_t separate_arenas = 0;               // sum of each model's own smallest arena
  bool exact = true;
  // The figures are TFLM's to within this many bytes: a model's tail, stacked below another's,
  // starts at a different address modulo 16 and so pads its 16-byte aligned allocations differently.
  static constexpr int64_t kTolerance = 16;
};

// The allocator's own objects, made by MicroAllocator::Create before any model: what the tail holds
// after Create with a RecordingMicroAllocator, and how much smaller a plain allocator's are.
int64_t tflm_recording_allocator_objects(TflmTarget target);
int64_t tflm_plain_allocator_saving(TflmTarget target);

// A model alone with a plain MicroInterpreter: the smallest arena it runs in.
int64_t tflm_single_arena(const TflmTenant& tenant, TflmTarget target);

// `tenants` in the order the firmware creates the interpreters (and calls AllocateTensors).
TflmSharedArena tflm_shared_arena(const std::vector<TflmTenant>& tenants, const TflmBuild& build);

}  // namespace usmpx
