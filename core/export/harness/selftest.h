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
  std::string log;                                           // everything make printed
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

// Writes both bundles (each with its harness/) under `work_dir` and, per target, builds and runs
// them with the harness Makefile, then compares. Throws ExportError when the folders cannot be written.
std::vector<SelftestResult> run_selftest(const ExportBundle& original, const ExportBundle& replanned,
                                         const std::vector<std::string>& targets, const std::string& work_dir);

// Runs the harness Makefile of an exported folder for one target ("host" = `make run`).
HarnessRun run_harness(const std::string& root, const std::string& target);

}  // namespace usmpx
