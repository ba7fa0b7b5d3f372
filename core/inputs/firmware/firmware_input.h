#pragma once

// A firmware file loaded: each model read once by its own frontend, the joint problem, and the
// pools a model's runtime lays out itself when models share them (a TFLM arena: one
// MicroAllocator), as each model's family describes them (FirmwareRole, frontends/frontend.h).

#include <memory>
#include <string>
#include <vector>

#include "frontends/frontend.h"
#include "inputs/firmware/firmware_file.h"
#include "inputs/firmware/joint_problem.h"

namespace usmpx {

// A pool of the joint problem its models' runtime lays out itself.
struct RuntimeArenaPool {
  int joint_pool = -1;
  std::vector<int> models;      // indices into FirmwareInput::models, in creation order
  int64_t declared_bytes = -1;  // the size the file gives (-1: none)
  std::shared_ptr<const RuntimeArena> arena;
};

struct FirmwareInput {
  FirmwareSpec spec;
  std::vector<std::shared_ptr<const LoadedInput>> models;  // parallel to spec.models
  std::vector<std::string> family;                         // each model's, as its frontend names it
  std::vector<Plan> own_plans;  // each model's own plan: the one it carries, else its runtime's planner's
  JointProblem joint;
  std::vector<RuntimeArenaPool> arenas;
  std::vector<Diagnostic> notes;

  // Model `m` as its family sees it.
  FirmwareTenant tenant(size_t m) const;
  // Each model of `pool`'s part of `joint_plan`, in the pool's order.
  std::vector<Plan> parts(const RuntimeArenaPool& pool, const Plan& joint_plan) const;
};

// Reads the firmware file and every model it names. Throws InputError (the file's position, or the
// model's own reader's) and ConfigError.
FirmwareInput load_firmware(const std::string& path, const LoadOptions& options);

// The family a firmware file names an input of this kind by (its frontend's family: "tflite",
// "executorch", "tvm", "problem"); "" for a kind that is not a model.
std::string firmware_family(InputFormat format);

// Each model's own plans put together (a passed tensor where its producer's plan has it): what the
// firmware does today, with its pool sizes (make_plan or finish_plan completes it).
Plan combined_own_plans(const FirmwareInput& input);

}  // namespace usmpx
