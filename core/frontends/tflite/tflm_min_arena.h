#pragma once

#include <cstdint>

#include "frontends/tflite/tflm_tail.h"

namespace usmpx {

// Whether a plain MicroInterpreter's AllocateTensors succeeds in an arena of `arena` bytes (its
// start 16-aligned) when the plan's head is `head` bytes: every step of `tail.steps` replayed with
// TFLM's own checks (SingleArenaBufferAllocator: a persistent allocation below the head fails, a
// temporary one or a head resize past the tail fails; the GreedyMemoryPlanner needs 40 bytes per
// buffer of what is left between them).
// With `until_planned`, only up to the memory planner's working set (AllocateTensors' peak of
// temporary memory), before the head takes the plan's size.
bool tflm_arena_runs(const TflmTail& tail, int64_t head, int64_t arena, bool until_planned = false);

// The smallest such arena: the kTensorArenaSize a firmware pastes.
int64_t tflm_min_arena(const TflmTail& tail, int64_t head);

// The smallest arena in which AllocateTensors gets as far as planning (what planning needs).
int64_t tflm_planning_arena(const TflmTail& tail);

// What a plain MicroInterpreter keeps in the tail once AllocateTensors is done (its allocator
// objects are smaller than the recording interpreter's that TflmTail::bytes counts), for an
// arena whose end is 16-aligned.
int64_t tflm_plain_tail(const TflmTail& tail);

}  // namespace usmpx
