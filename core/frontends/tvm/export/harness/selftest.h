#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "export/export_bundle.h"

namespace usmpx {

// One build and run of a harness (see harness.h) on one target.
struct HarnessRun {
  bool built = false;
  bool ran = false;                                          // the program ran and printed its result line
  int model_rc = -1;                                         // what tvmgen_<mod>_run returned
  std::vector<std::pair<std::string, std::string>> outputs;  // name -> "<bytes> <fnv1a>"
  int64_t text = -1, data = -1, bss = -1;                    // section sizes of the firmware image (boards only)
  // As a person budgets the image (boards only): flash holds every loaded byte (code, constants,
  // the initial values of .data), RAM every byte placed at a RAM address (.data, .bss, pools).
  int64_t flash_bytes = -1, ram_bytes = -1;
  std::string log;  // everything make printed
};

struct SelftestResult {
  std::string target;  // "host", "cortex-m4", "cortex-m7"
  HarnessRun original;
  HarnessRun replanned;
  bool same = false;    // both ran, the model returned 0 in both and every checksum agrees
  std::string verdict;  // one line for the user
};

// The targets this machine can run: "host" when `make` and `cc` exist, the boards when
// arm-none-eabi-gcc and qemu-system-arm exist.
bool selftest_target_available(const std::string& target, std::string* missing = nullptr);

struct SelftestOptions {
  // A CMSIS-NN checkout (Include/, Source/) the model's kernels are built from; "" = the project's
  // own CMSIS-NN-compatible kernels (builtin_kernels.h) when the model calls CMSIS-NN.
  std::string cmsis_nn;
  std::string kernels;  // --kernels DIR: the user's vendor kernels (DIR/*.c; headers in DIR, DIR/include)
};

// Why the model cannot run in the harness, or "": one line naming what is missing, decided from
// the sources before anything is compiled. Ethos-U NPU operators (ethosu_* calls,
// tvm_ethosu_runtime.h) need the NPU; a missing lib0.c (the entry function defined nowhere); a
// lib0.c allocating with a vendor SDK's heap API; functions called and defined nowhere (vendor
// kernels, which --kernels DIR supplies) and headers nothing provides.
std::string selftest_obstacle(const ExportBundle& bundle, const SelftestOptions& options);

// The targets that can build a bundle's code, and why, in one line: the host for portable C, the
// emulated Cortex-M4 and Cortex-M7 when the code calls Arm intrinsics or includes arm_acle.h or
// CMSIS headers. Boards whose tools are missing give way to the host when the host's arm_acle.h
// stand-in covers every intrinsic the code calls.
struct SelftestTargets {
  std::vector<std::string> targets;
  std::string reason;
};
SelftestTargets choose_selftest_targets(const ExportBundle& bundle, const SelftestOptions& options);

// Whether the model calls CMSIS-NN and no checkout was given: the built-in kernels are built.
bool selftest_uses_builtin_cmsis_nn(const ExportBundle& bundle, const SelftestOptions& options);

// Writes both bundles (each with its harness/) under `work_dir` and, per target, builds and runs
// them with the harness Makefile, then compares. CMSIS-NN (a checkout, else the built-in kernels
// written to `work_dir`/builtin-cmsis-nn) is built once per target into `work_dir`/cmsis-nn. Throws ExportError when
// the folders cannot be written or the model cannot run here (selftest_obstacle).
std::vector<SelftestResult> run_selftest(const ExportBundle& original, const ExportBundle& replanned,
                                         const std::vector<std::string>& targets, const std::string& work_dir,
                                         const SelftestOptions& options = {});

// Runs the harness Makefile of an exported folder for one target ("host" = `make run`);
// `make_variables` are passed on the command line ("CMSIS_NN=...").
HarnessRun run_harness(const std::string& root, const std::string& target, const std::string& make_variables = "");

}  // namespace usmpx
