#pragma once

// One planning problem for several models of one firmware: every model's buffers ("model/buffer"),
// their timelines one after the other, the shared pools once, each model's other pools as its own
// ("model/pool"). Conflicts are explicit and follow the schedule: within a model as the model's own
// problem says; across models none in a sequence or exclusive modes (one model runs at a time),
// every pair that could share a pool when concurrent; a tensor passed from one model to a later one
// is one buffer, live from its producer's write to its consumer's last read, in conflict with
// whatever the models in between use.

#include <cstdint>
#include <string>
#include <vector>

#include "inputs/firmware/firmware_file.h"
#include "model/plan.h"
#include "model/problem.h"

namespace usmpx {

struct JointProblem {
  Problem problem;
  std::vector<std::string> pool_owner;            // per joint pool: "" when shared, else the model's name
  std::vector<std::vector<int>> buffer_of;        // per model: its buffer -> joint buffer
  std::vector<std::vector<int>> pool_of;          // per model: its pool -> joint pool
  std::vector<std::pair<int64_t, int64_t>> span;  // per model: first and last tick on the joint timeline
};

// `models[i]` is the problem of spec.models[i] as loaded. Throws InputError at the firmware file's
// positions for a shared pool no member has, a passed tensor that names no buffer or whose sizes
// differ, and for too large a problem.
JointProblem build_joint_problem(const FirmwareSpec& spec, const std::vector<const Problem*>& models);

// Model `m`'s part of a joint plan, as a plan of its own problem (its pools, its buffer order).
Plan model_plan(const JointProblem& joint, int m, const Problem& model_problem, const Plan& joint_plan);

}  // namespace usmpx
