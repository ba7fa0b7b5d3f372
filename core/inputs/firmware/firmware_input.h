#pragma once

// A firmware file loaded: each model read by its own frontend, the joint problem, and for models
// run by TFLite Micro, the arenas they share (one MicroAllocator per arena).

#include <memory>
#include <string>
#include <vector>

#include "frontends/frontend.h"
#include "frontends/tflite/tflite_problem.h"
#include "inputs/firmware/firmware_file.h"
#include "inputs/firmware/joint_problem.h"
#include "inputs/firmware/tflm_shared.h"

namespace usmpx {

// TFLite models whose arenas are one pool of the joint problem: one MicroAllocator, the
// interpreters created in the firmware file's order.
struct TflmArenaGroup {
  int joint_pool = -1;
  std::vector<int> models;      // indices into FirmwareInput::models, in creation order
  int64_t declared_bytes = -1;  // kTensorArenaSize the file gives (-1: none)
  TflmSharedArena own;          // TFLM by itself: each model with the plan it carries or TFLM's greedy
};

struct FirmwareInput {
  FirmwareSpec spec;
  std::vector<LoadedInput> models;  // parallel to spec.models
  std::vector<std::string> family;  // "tflite", "tvm", "executorch"
  // TFLite models' analyses (null for the other families), for TFLM's arena figures.
  std::vector<std::shared_ptr<const TfliteAnalysis>> tflite;
  std::vector<Plan> own_plans;  // each model's own plan: the one it carries, else its runtime's planner's
  JointProblem joint;
  std::vector<TflmArenaGroup> tflm_arenas;
  std::vector<Diagnostic> notes;
};

// Reads the firmware file and every model it names. Throws InputError (the file's position, or the
// model's own reader's) and ConfigError.
FirmwareInput load_firmware(const std::string& path, const LoadOptions& options);

// The family a firmware file names an input of this kind by: "tflite", "executorch", "tvm",
// "problem"; "" for a kind that is not a model.
std::string firmware_family(InputFormat format);

// Each model's own plans put together (a passed tensor where its producer's plan has it): what the
// firmware does today, with its pool sizes (make_plan or finish_plan completes it).
Plan combined_own_plans(const FirmwareInput& input);

// The offsets a plan of a TFLite model gives its tensors (-1: not planned), as its offline plan.
std::vector<int32_t> tflite_offsets(const TfliteAnalysis& analysis, const Plan& plan);

// One TFLM arena's figures for a joint plan: each model's head as TFLM will run it (its tensors
// where the plan puts them, scratch placed by TFLM around them), the shared tail and arena.
TflmSharedArena tflm_arena_for(const FirmwareInput& input, const TflmArenaGroup& group, const Plan& joint_plan);

}  // namespace usmpx
