#pragma once

#include <string>
#include <vector>

#include "config/pool_options.h"
#include "model/pool.h"

namespace usmpx {

// The pools of a model and each target's candidate pools, as TVM's AssignPoolInfo decides them.
//
// Workspace pools: the user's (--workspace-pools, in that order), else one internal pool
// "global_workspace" for every target. Constant pools: the user's (--constant-pools), else, only
// when the user gave no workspace pools, an internal "global_const_workspace"; otherwise none, and
// constants stay where the operators define them. A pool without --*-pools-targets serves every
// target. Size hints from the options apply, including to the default pools.
struct PoolAssignment {
  std::vector<Pool> pools;

  // Indices of the pools a buffer of a function built for `target` may use, in preference order.
  std::vector<int> workspace_candidates(const std::string& target) const;
  std::vector<int> constant_candidates(const std::string& target) const;
  bool has_constant_pools() const;
};

// `targets`: the distinct targets of the model's functions (e.g. "c -keys=arm_cpu,cpu ...").
// Throws ConfigError for options naming unknown pools.
PoolAssignment assign_pools(const PoolOptions& options, const std::vector<std::string>& targets);

// Whether a pool target given by the user ("c") designates a function target
// ("c -keys=arm_cpu,cpu -mcpu=cortex-m7"): equal strings, or equal target kinds (first word).
bool target_matches(const std::string& pool_target, const std::string& function_target);

inline constexpr const char* kDefaultWorkspacePool = "global_workspace";
inline constexpr const char* kDefaultConstantPool = "global_const_workspace";

}  // namespace usmpx
