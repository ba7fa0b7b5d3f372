#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontends/tvm/export/export_pools.h"
#include "frontends/tvm/export/tvm_style.h"

namespace usmpx {

// One constant of an internal constant pool: a member "<name>" of the pool's struct.
struct PoolConstant {
  std::string name;    // member name, e.g. "fused_constant_let"
  std::string c_type;  // element type, e.g. "int8_t", "float"
  int64_t elements = 0;
  int64_t element_bytes = 1;
  int64_t offset = 0;     // byte offset in the pool
  std::string data_text;  // the initializer's inner text in NDArrayDataToC form (indent 4, ends with "\n")
};

// Where a model input or output lives with --use-workspace-io.
struct IoPlacement {
  std::string tensor;  // the I/O name as the map function writes it (not sanitized, as TVM)
  std::string pool;
  int64_t offset = 0;
};

// What `<mod>_lib0.c` (TVM's CSourceCrtMetadataModule for AOT, interface-api c) defines.
struct Lib0Spec {
  std::string module;
  std::string entry;                      // the AoT main, e.g. "tvmgen_default___tvm_main__"
  std::vector<std::string> input_params;  // its I/O parameters as declared: "void* input", ...
  std::vector<std::string> inputs;        // struct members read by the run wrapper (sanitized)
  std::vector<std::string> outputs;
  std::vector<ExportPool> pools;  // every pool with buffers, TVM's order (main's params k = 0..)
  std::vector<std::vector<PoolConstant>> pool_constants;  // parallel to pools; internal constant pools only
  std::vector<IoPlacement> input_map;                     // with --use-workspace-io
  std::vector<IoPlacement> output_map;
  bool use_workspace_io = false;
  int64_t constant_alignment = 16;
  TvmStyle style;
};

// The text of <mod>_lib0.c as TVM writes it: the internal pools (a const struct of constants in
// ".rodata.tvm", byte arrays in ".bss.noinit.tvm" or the pool's own section), the I/O map
// functions, the declaration of the AoT main with its pool parameters and the run wrapper
// passing the pools in. Like TVM's, the text ends in ";" without a newline.
std::string emit_lib0_source(const Lib0Spec& spec);

// Pieces of that text, for editing an existing lib0.c: the definition of spec.pools[pool], the
// AoT entry's parameter list, the run wrapper's parameter list and its arguments to the entry.
std::string emit_lib0_pool(const Lib0Spec& spec, size_t pool);
std::string emit_lib0_entry_params(const Lib0Spec& spec);
std::string emit_lib0_run_params(const Lib0Spec& spec);
std::string emit_lib0_run_args(const Lib0Spec& spec);

}  // namespace usmpx
