#pragma once

// Whether the pool arrays a harness allocates hold what the model's code reaches into them: an
// internal pool as lib0.c defines it, an external one at the size the interface header declares
// (the harness allocates TVMGEN_<MOD>_<POOL>_WORKSPACE_POOL_SIZE bytes). The code's reach is each
// let's offset plus the bytes its accesses imply (the C analysis's liveness walk).

#include <cstdint>
#include <string>
#include <vector>

#include "export/export_bundle.h"

namespace usmpx {

struct PoolOverrun {
  std::string pool;
  int64_t array_bytes = 0;  // what the harness allocates
  std::string declared_by;  // "TVMGEN_MINI_SRAM_WORKSPACE_POOL_SIZE in tvmgen_mini.h" or "default_lib0.c"
  int64_t reach = 0;        // the end of the farthest buffer
  std::string buffer;       // that buffer's let, e.g. "dense_let"
  int64_t offset = 0;
  int64_t bytes = 0;
  std::string file;  // where the let is, e.g. "mini_lib1.c"
  int line = 0;
};

std::vector<PoolOverrun> find_pool_overruns(const ExportBundle& bundle);

}  // namespace usmpx
