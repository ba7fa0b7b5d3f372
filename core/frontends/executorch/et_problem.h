#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/pool_options.h"
#include "frontends/executorch/et_program.h"
#include "model/diagnostic.h"
#include "model/plan.h"
#include "model/problem.h"

namespace usmpx {

// One memory-planned tensor of one method, as ExecuTorch's memory planning saw it.
struct EtTensorInfo {
  int method = 0;
  int value = 0;      // index into the method's values
  int64_t bytes = 0;  // unrounded
  uint32_t memory_id = 0;
  int64_t offset = 0;  // the program's own plan
  int64_t first = 0;   // ticks (instruction indices from the method's first tick), closed
  int64_t last = 0;
  int buffer = -1;      // index into the Problem's buffers
  int64_t delta = 0;    // offset inside that buffer (aliases share one buffer)
  int alias_of = -1;    // the value whose storage this one shares (-1: none)
  bool view = false;    // read before anything writes it (or an et_view's output): a view of alias_of
  bool unused = false;  // no instruction names it
  bool pinned = false;  // kept where the program put it: the tool cannot tell what it aliases
};

// One (method, memory id): a planned buffer the firmware must provide, a pool of the Problem.
struct EtPoolInfo {
  int method = 0;
  uint32_t memory_id = 0;
  int64_t file_size = 0;  // non_const_buffer_sizes[memory_id] as the program says
  // Bytes the program's buffer holds past its last planned tensor (XNNPACK's 64-byte tail, room
  // for control-flow submodules): kept by an export, since the tool cannot tell who uses them.
  int64_t tail_bytes = 0;
};

struct EtMethodInfo {
  int64_t first_tick = 0;  // the method's instructions take ticks first_tick ..
  int64_t ticks = 0;
  std::vector<int> pools;  // indices into the Problem's pools, by memory id - 1 (-1: none)
};

// An ExecuTorch program analysed for memory planning: every method's memory-planned tensors
// (aliases merged into one buffer), one pool per (method, memory id), ExecuTorch's own plan.
struct EtAnalysis {
  EtProgram program;
  Problem problem;
  std::vector<EtTensorInfo> tensors;
  std::vector<EtPoolInfo> pools;
  std::vector<EtMethodInfo> methods;
  Plan as_built;              // the plan the program carries
  std::string reproduced_by;  // the ExecuTorch greedy that gives the program's offsets ("" none)
  std::vector<Diagnostic> warnings;
};

inline constexpr int64_t kEtAlignment = 16;

// The size a planned buffer gets for a plan whose pool reaches `plan_pool_bytes`: rounded up to
// ExecuTorch's alignment, plus the program's own tail.
inline int64_t et_buffer_bytes(const EtPoolInfo& pool, int64_t plan_pool_bytes) {
  return (plan_pool_bytes + kEtAlignment - 1) / kEtAlignment * kEtAlignment + pool.tail_bytes;
}

// Reads and analyses a program. Throws InputError on a bad file, ConfigError on pool options
// that do not fit it.
EtAnalysis analyse_et(const std::string& bytes, const std::string& path, const PoolOptions& pools);

}  // namespace usmpx
