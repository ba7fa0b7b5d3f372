#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/plan.h"
#include "model/problem.h"

namespace usmpx {

// A pool as TVM's ConvertPoolAllocationsToOffsets hands it to code generation: only pools that
// hold at least one buffer, ordered by name, each with its allocated size (the unaligned end of
// its highest buffer).
struct ExportPool {
  int index = -1;  // into Problem::pools
  std::string name;
  PoolKind kind = PoolKind::kWorkspace;
  bool internal = false;
  int64_t size_bytes = 0;
  int64_t alignment = 16;
  std::string section;  // user's linker section; empty = TVM's default
};

std::vector<ExportPool> export_pools(const Problem& problem, const Plan& plan);

// "<pool>_<k>_var": the parameter USMP adds for a pool; k counts pool parameters over all
// functions in the order USMP visits them (main first, then callees in first-call order).
std::string pool_param_name(const std::string& pool, int64_t k);

// Refuses plans that cannot become code: unplaced buffers, validator errors, pools over their
// size hint, pools whose names are not C identifiers. Throws ExportError listing the problems.
void check_exportable(const Problem& problem, const Plan& plan);

// Sum of the allocated sizes of the workspace (constant) pools.
int64_t workspace_pool_bytes(const std::vector<ExportPool>& pools);
int64_t constant_pool_bytes(const std::vector<ExportPool>& pools);

}  // namespace usmpx
