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
  std::string cmsis_nn;  // a CMSIS-NN checkout (Include/, Source/) the model's kernels are built from; "" = none
};

// Why the model cannot run in the harness, or "": Ethos-U NPU operators (ethosu_* calls,
// tvm_ethosu_runtime.h) need the NPU; CMSIS-NN kernels need `cmsis_nn`.
std::string selftest_obstacle(const ExportBundle& bundle, const SelftestOptions& options);

// Writes both bundles (each with its harness/) under `work_dir` and, per target, builds and runs
// them with the harness Makefile, then compares. CMSIS-NN is built once per target into
// `work_dir`/cmsis-nn. Throws ExportError when the folders cannot be written or the model cannot
// run here (selftest_obstacle).
std::vector<SelftestResult> run_selftest(const ExportBundle& original, const ExportBundle& replanned,
                                         const std::vector<std::string>& targets, const std::string& work_dir,
                                         const SelftestOptions& options = {});

// Runs the harness Makefile of an exported folder for one target ("host" = `make run`);
// `make_variables` are passed on the command line ("CMSIS_NN=...").
HarnessRun run_harness(const std::string& root, const std::string& target, const std::string& make_variables = "");

}  // namespace usmpx
