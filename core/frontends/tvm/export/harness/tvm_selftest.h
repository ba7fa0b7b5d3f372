#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "export/export_bundle.h"
#include "export/selftest.h"

namespace usmpx {

// TVM's selftest (export/selftest.h): each export gets a harness (harness.h), built with its
// Makefile on the host and the emulated Cortex-M4/M7 boards.
class TvmSelftest : public Selftest {
 public:
  std::string obstacle(const ExportBundle& original, const SelftestOptions& options) const override;
  SelftestTargets choose_targets(const ExportBundle& original, const SelftestOptions& options) const override;
  bool target_available(const std::string& target, std::string* missing) const override;
  std::vector<SelftestResult> run(const ExportBundle& original, const ExportBundle& replanned,
                                  const std::vector<std::string>& targets, const std::string& work_dir,
                                  const SelftestOptions& options) const override;
};

// The targets this machine can run: "host" when `make` and `cc` exist, the boards when
// arm-none-eabi-gcc and qemu-system-arm exist.
bool selftest_target_available(const std::string& target, std::string* missing = nullptr);

// Why the model cannot run in the harness, or "": one line naming what is missing, decided from
// the sources before anything is compiled. Ethos-U NPU operators (ethosu_* calls,
// tvm_ethosu_runtime.h) need the NPU; a missing lib0.c (the entry function defined nowhere); a
// lib0.c allocating with a vendor SDK's heap API; functions called and defined nowhere (vendor
// kernels, which --kernels DIR supplies) and headers nothing provides.
std::string selftest_obstacle(const ExportBundle& bundle, const SelftestOptions& options);

// The targets that can build a bundle's code: the host for portable C, the emulated Cortex-M4 and
// Cortex-M7 when the code calls Arm intrinsics or includes arm_acle.h or CMSIS headers. Boards
// whose tools are missing give way to the host when the host's arm_acle.h stand-in covers every
// intrinsic the code calls.
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

// Runs the harness Makefile of an exported folder for one target (the host: `make host`, then the
// program, with a stack of `stack_bytes` when > 0); `make_variables` are passed on the command
// line ("CMSIS_NN=...").
HarnessRun run_harness(const std::string& root, const std::string& target, const std::string& make_variables = "",
                       int64_t stack_bytes = 0);

}  // namespace usmpx
