#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontends/tflite/tflm_build.h"

namespace usmpx {

struct TfliteAnalysis;

// One category of TFLM's persistent allocations, as RecordingMicroAllocator names them: bytes
// taken with alignment padding (used), bytes asked for (requested) and how many.
struct TflmTailCategory {
  std::string name;
  int64_t used = 0;
  int64_t requested = 0;
  int64_t count = 0;
};

// What one operator's kernel keeps in the tail: its Init allocations (op data) and its Prepare
// allocations (per-channel arrays, precomputed sums), with the alignment padding each took.
struct TflmOperatorTail {
  int subgraph = 0;
  int index = 0;
  std::string name;
  std::string variant;  // what the proof table is keyed by (tflm_variant)
  int64_t init_bytes = 0;
  int64_t prepare_bytes = 0;
  int64_t scratch_requests = 0;
  bool known = true;
  bool proven = false;
};

// TFLM's persistent section (the arena's tail) for a named build, modelled allocation by
// allocation as TFLM makes them (each one taken from the top down and aligned, so padding is
// reproduced): the allocator's own objects, the subgraph records, one TfLiteEvalTensor per tensor,
// one NodeAndRegistration per operator, each operator's builtin options struct, each kernel's Init
// and Prepare allocations, the scratch buffer handles, variable tensors, and the TfLiteTensor (with
// quantization) of every model input and output.
// One step of what a plain MicroInterpreter's AllocateTensors does in its arena, in order, kept
// so the smallest arena that runs can be searched (tflm_min_arena.h): allocations from the tail
// down (each aligned down, refused below the head), the head's resizes, temporary allocations
// above the head (refused past the tail) and their reset, and the memory planner's working set.
struct TflmArenaStep {
  enum class Kind { kPersistent, kHead, kPlanHead, kTemp, kResetTemp, kPlanner };
  Kind kind = Kind::kPersistent;
  int64_t bytes = 0;  // kPlanner: the number of buffers planned
  int64_t align = 1;
};

struct TflmTail {
  TflmBuild build;
  int64_t bytes = 0;
  bool exact = true;
  std::vector<std::string> unknown;      // operators without a rule, one entry each (the figure is a lower bound)
  std::vector<std::string> unproven;     // operators whose rule's variant no test holds, one entry each
  std::vector<TflmArenaStep> steps;      // the plain interpreter's AllocateTensors, for tflm_min_arena
  std::vector<std::string> assumptions;  // what the figure assumes of the application ("a ... store of 8")
  std::vector<TflmTailCategory> categories;
  int64_t uncategorized = 0;  // allocator objects, subgraph records, options structs, scratch handles
  std::vector<TflmOperatorTail> operators;
};

// `analysis` must have been made for `build.kernels` (its scratch requests are that kernel set's).
TflmTail tflm_tail(const TfliteAnalysis& analysis, const TflmBuild& build);

}  // namespace usmpx
