#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "frontends/tvm/export/export_pools.h"
#include "frontends/tvm/export/tvm_style.h"

namespace usmpx {

// What `codegen/host/include/tvmgen_<mod>.h` declares (TVM's InterfaceC, interface-api c).
struct InterfaceHeaderSpec {
  std::string module;
  std::vector<std::string> inputs;  // struct member names (sanitized), in order
  std::vector<std::string> outputs;
  std::vector<std::pair<std::string, int64_t>> input_sizes;  // macro name part, bytes (style.io_size_macros)
  std::vector<std::pair<std::string, int64_t>> output_sizes;
  std::vector<ExportPool> external_pools;  // in TVM's pool order
  std::vector<std::string>
      external_constant_data;        // per external pool: NDArrayDataToC text of its bytes ("" for workspace pools)
  bool use_workspace_io = false;     // map_inputs / map_outputs instead of run's I/O
  int64_t workspace_size_bytes = 0;  // metadata.json's main workspace size
  TvmStyle style;
};

// The header text, byte for byte as TVM writes it: size macros per input and output, the
// inputs/outputs structs, the workspace_pools struct of the external pools, the I/O map
// functions, the run function, TVMGEN_<MOD>_WORKSPACE_SIZE and the size of every external pool.
std::string emit_interface_header(const InterfaceHeaderSpec& spec);

// TVM's ToCConstantStyle of "tvmgen_<mod>_<name>": every character not a letter or digit
// becomes '_', letters upper case.
std::string c_constant_name(const std::string& module, const std::string& name);

}  // namespace usmpx
