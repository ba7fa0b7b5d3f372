#pragma once

// Proving an export by running it: the input as it is and re-planned are built and run on the same
// inputs, and what they compute is compared. A family whose exports can be run this way offers a
// Selftest through its exporter (frontends/frontend.h; TVM's C test harness on the host and on
// emulated Cortex-M boards); `usmpx selftest` drives it.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "export/export_bundle.h"

namespace usmpx {

// One build and run of an export on one target.
struct HarnessRun {
  bool built = false;
  bool ran = false;                                          // the program ran and printed its result line
  int model_rc = -1;                                         // what the model's run function returned
  std::vector<std::pair<std::string, std::string>> outputs;  // name -> "<bytes> <fnv1a>"
  int64_t text = -1, data = -1, bss = -1;                    // section sizes of the firmware image (boards only)
  // As a person budgets the image (boards only): flash holds every loaded byte (code, constants,
  // the initial values of .data), RAM every byte placed at a RAM address (.data, .bss, pools).
  int64_t flash_bytes = -1, ram_bytes = -1;
  std::string log;     // everything the build printed
  int exit_code = -1;  // of the program (the board's semihosting exit; 99: a fault), -1 when not run
  int signal = 0;      // the signal that killed the program on the host, 0 = none
  std::string fault;   // boards: the fault the harness's handler reported, described ("" = none)
};

struct SelftestResult {
  std::string target;  // "host", "cortex-m4", "cortex-m7"
  HarnessRun original;
  HarnessRun replanned;
  bool same = false;    // both ran, the model returned 0 in both and every checksum agrees
  std::string verdict;  // one line for the user
  // When the original crashed on the host: why (one line), and that this result is the retry
  // ("the original build crashed on the host (SIGSEGV): ...; retried on the emulated Cortex-M4").
  std::string diagnosis;
};

struct SelftestOptions {
  // A CMSIS-NN checkout (Include/, Source/) the model's kernels are built from; "" = the project's
  // own CMSIS-NN-compatible kernels when the model calls CMSIS-NN.
  std::string cmsis_nn;
  std::string kernels;  // --kernels DIR: the user's vendor kernels (DIR/*.c; headers in DIR, DIR/include)
};

// The targets that can build an export, and why, in one line.
struct SelftestTargets {
  std::vector<std::string> targets;
  std::string reason;
};

class Selftest {
 public:
  virtual ~Selftest() = default;
  // Why `original` cannot be run, or "": decided from its files before anything is built.
  virtual std::string obstacle(const ExportBundle& original, const SelftestOptions& options) const = 0;
  // The targets that can build `original`.
  virtual SelftestTargets choose_targets(const ExportBundle& original, const SelftestOptions& options) const = 0;
  // Whether this machine has the tools for `target` (else `missing` names them).
  virtual bool target_available(const std::string& target, std::string* missing) const = 0;
  // Builds and runs both exports under `work_dir` on each target and compares them. Throws
  // ExportError when the folders cannot be written or the model cannot run here.
  virtual std::vector<SelftestResult> run(const ExportBundle& original, const ExportBundle& replanned,
                                          const std::vector<std::string>& targets, const std::string& work_dir,
                                          const SelftestOptions& options) const = 0;
};

}  // namespace usmpx
