#pragma once

// Several TFLite Micro interpreters on one MicroAllocator (TFLM's multi-tenant arena): each model is
// planned from the start of the one head, and the allocator keeps the largest plan's head reserved,
// so the shared head is the largest head; every model's persistent tail stacks below the others';
// the allocator's own objects are there once. The smallest shared kTensorArenaSize depends on the
// order the interpreters are created in: model i plans (AllocateTensors) with the tails of models
// 0..i-1 already in the arena. Worked out by replaying every model's AllocateTensors steps
// (TflmTail::steps, tflm_min_arena.h) one after the other on one arena. Ground truth:
// ../shared/tflite/tflm_multi_tenant.json (TFLM 90b983c, three builds).

#include <cstdint>
#include <string>
#include <vector>

#include "frontends/tflite/tflm_build.h"
#include "frontends/tflite/tflm_tail.h"

namespace usmpx {

struct TfliteAnalysis;

// One model's own figures for the build (tflite frontend: its plan's head, TflmTail).
struct TflmTenant {
  std::string name;
  int64_t head = 0;  // the arena head of the plan the model runs with
  TflmTail tail;     // its persistent allocations and AllocateTensors' steps
  bool exact = true;
};

TflmTenant tflm_tenant(const std::string& name, const TfliteAnalysis& analysis, int64_t head);

struct TflmSharedArena {
  TflmBuild build;
  int64_t head = 0;              // the largest head
  int64_t tail = 0;              // every tail, the recording allocator's objects once (TFLM's figure)
  int64_t recording_total = 0;   // head + tail: what a RecordingMicroAllocator counts
  int64_t arena = 0;             // the smallest kTensorArenaSize with a plain allocator, in this order
  int64_t arena_order_free = 0;  // head + the plain tails: what the arena would need were order free
  int64_t separate_arenas = 0;   // sum of each model's own smallest arena
  bool exact = true;
};

// The allocator's own objects, made by MicroAllocator::Create before any model: what the tail holds
// after Create with a RecordingMicroAllocator (220 bytes Cortex-M, 424 x86-64).
int64_t tflm_recording_allocator_objects(TflmTarget target);

// A model alone with a plain MicroInterpreter: the smallest arena it runs in.
int64_t tflm_single_arena(const TflmTenant& tenant);

// `tenants` in the order the firmware creates the interpreters (and calls AllocateTensors).
TflmSharedArena tflm_shared_arena(const std::vector<TflmTenant>& tenants, const TflmBuild& build);

}  // namespace usmpx
