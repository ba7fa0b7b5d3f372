#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "export/export_bundle.h"
#include "frontends/tvm/export/export_pools.h"

namespace usmpx {

struct HarnessTensor {
  std::string name;  // struct member (sanitized)
  int64_t size_bytes = -1;
  std::string dtype;  // "int8", "float32", ...; "" when unknown (filled as bytes)
};

// A parameter the generated code takes from the application (TVM's lookup_param): the harness
// defines it with seeded data.
struct HarnessParam {
  std::string symbol;  // e.g. "__tvm_param__p0"
  int64_t size_bytes = 0;
  std::string dtype;
};

// What the test harness of a model needs to know.
struct HarnessSpec {
  std::string module;
  std::vector<HarnessTensor> inputs;
  std::vector<HarnessTensor> outputs;
  std::vector<ExportPool> external_pools;  // the application passes these in (TVM's order)
  std::vector<HarnessParam> params;        // defined by the harness, for lookup_param
  bool use_workspace_io = false;           // I/O live in the pools: map_inputs / map_outputs
  std::string direct_entry;                // call this entry (inputs, outputs) instead of tvmgen_<mod>_run
  std::string packed_run;  // call this TVM 0.8 packed wrapper (args, type_codes, num_args, ...) with DLTensors
  // Run the model as TVM 0.8's C runtime does: tvm_runtime_run(&crt_model, inputs, outputs) on
  // this `const tvm_model_t` descriptor of lib0.c (main.c defines tvm_runtime_run).
  std::string crt_model;
  std::vector<std::string> model_sources;  // the model's .c files, relative to the bundle root
  std::vector<std::string> include_dirs = {"codegen/host/include"};  // where tvmgen_<mod>.h is
  std::string fragment_dir = "codegen/host";                         // where usmpx_pools.ld is
  bool linker_fragment = false;            // codegen/host/usmpx_pools.ld exists and places the pools
  std::vector<std::string> pool_sections;  // the sections that fragment places (pool_section of each pool)
  int64_t arena_bytes = 0;                 // for TVMBackendAllocWorkspace calls left in the code
  uint32_t seed = 1;
  std::vector<std::string> notes;  // what the harness assumed (sizes no file states), for the bundle's notes
};

// Adds harness/ to the bundle: main.c (fills the inputs from a xorshift generator seeded with
// `seed`, runs the model once, prints "output <name> <bytes> <fnv1a>" per output), platform.c
// (TVMBackendAllocWorkspace on a static arena), our stand-in TVM runtime headers (also where a
// model source's relative include of a runtime header, "../../src/standalone_crt/include/tvm/
// runtime/...", finds them from an include folder of harness/relative/), a host arm_acle.h
// written in C, a Cortex-M startup file, an MPS2 linker script sized from what the code declares
// (board_layout.h: PSRAM for what SSRAM cannot hold), and a Makefile:
// `make` builds and runs on this machine; `make cortex-m4` / `make cortex-m7` cross-compile with
// arm-none-eabi-gcc and run on qemu-system-arm's mps2-an386 / mps2-an500 with semihosting.
void add_harness(ExportBundle& bundle, const HarnessSpec& spec);

}  // namespace usmpx
