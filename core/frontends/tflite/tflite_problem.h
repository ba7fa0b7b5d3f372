#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/pool_options.h"
#include "frontends/tflite/tflite_model.h"
#include "frontends/tflite/tflm_build.h"
#include "frontends/tflite/tflm_log.h"
#include "frontends/tflite/tflm_tail.h"
#include "model/diagnostic.h"
#include "model/plan.h"
#include "model/problem.h"

namespace usmpx {

// Why TFLM does or does not place a tensor in its arena's head.
// kKernel: a tensor whose data a kernel points at its own persistent data in Prepare (VAR_HANDLE's
// resource id), so TFLM does not plan it.
enum class TensorPlacement { kPlanned, kConstant, kVariable, kEmpty, kKernel };
std::string_view to_string(TensorPlacement placement);

// One tensor of one subgraph, as TFLM's AllocationInfo sees it.
struct TfliteTensorInfo {
  int subgraph = 0;
  int index = 0;       // within its subgraph
  int64_t bytes = 0;   // shape x type size, unrounded
  int64_t first = -1;  // TFLM's first_created (-1: no operator touches it)
  int64_t last = -1;   // TFLM's last_used
  TensorPlacement placement = TensorPlacement::kPlanned;
  int buffer = -1;  // index into the Problem's buffers when planned
};

// One operator, with the time step TFLM gives it.
struct TfliteOperatorInfo {
  int subgraph = 0;
  int index = 0;
  std::string name;                  // builtin name, or the custom code
  int64_t time = -1;                 // -1: in a subgraph no operator calls
  std::vector<int> scratch_buffers;  // indices into the Problem's buffers
};

// A .tflite analysed the way TFLM plans it (tflm-memory-planning.md §2): the Problem's buffers
// are TFLM's AddBuffer calls in order (every planned tensor of every subgraph, then the scratch
// buffers in request order), each rounded up to 16 bytes, in one workspace pool "arena".
struct TfliteAnalysis {
  TfliteModel model;
  Problem problem;
  std::vector<TfliteTensorInfo> tensors;  // all subgraphs concatenated, as the offline plan indexes them
  std::vector<TfliteOperatorInfo> operators;
  std::vector<std::string> unknown_scratch;             // operators whose scratch sizes are not known
  std::optional<std::vector<int32_t>> offline_offsets;  // the model's OfflineMemoryAllocation, per tensor
  std::optional<Plan> as_built;  // TFLM's plan with those offsets (the others placed around them)
  // Buffers Vela laid out for its ethos-u operators (the tensors only they use, at offline
  // offsets): overlapping on purpose, so pinned there and free of conflicts with one another.
  std::vector<int> npu_layout;
  std::optional<TflmLog> log;
  std::vector<Diagnostic> warnings;
  TflmBuild build;  // the TFLM build the scratch requests and the tail are for
  TflmTail tail;    // TFLM's persistent allocations for that build (independent of the plan)
};

struct TfliteLoadOptions {
  PoolOptions pools;
  std::string tflm_log;  // path of a TFLM memory-plan printout, empty for none
  TflmBuild build;
};

inline constexpr int64_t kTflmAlignment = 16;

// Reads and analyses a model. Throws InputError on a bad file (or log), ConfigError on pool
// options that do not fit one arena.
TfliteAnalysis analyse_tflite(const std::string& bytes, const std::string& path, const TfliteLoadOptions& options);

// The plan TFLM makes when the tensors in `offsets` (per tensor, -1 = plan at run time) are
// fixed: those at their offsets, every other planned buffer (scratch included) greedily around them.
Plan tflm_plan_with_offsets(const TfliteAnalysis& analysis, const std::vector<int32_t>& offsets);

}  // namespace usmpx
