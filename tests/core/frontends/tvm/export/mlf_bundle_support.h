#pragma once

#include <string>
#include <vector>

#include "export/export_bundle.h"
#include "frontends/tvm/mlf/mlf_model.h"

// Shared by the tests of TVM outputs' bundles: the original and re-planned bundles with the
// harness, the input kept byte for byte, and selftest's verdict on them.
namespace usmpx::testing {

// The input as it is, with the test harness.
ExportBundle original_with_harness(const MlfModel& m);

// The model exported for `algorithm`'s plan, with the harness when `harness`.
ExportBundle replanned_bundle(const MlfModel& m, bool harness = false, const std::string& algorithm = "greedy_by_size");

// Every file of the input folder is in `bundle` byte for byte, and the bundle adds only harness/
// files; `files` is how many the folder holds.
void expect_bundle_holds_folder(const ExportBundle& bundle, const std::string& folder, size_t files);

// selftest of `before` against `after` on `targets` says "same outputs" on each, both models
// return 0, and the one output `output` has `bytes` bytes.
void expect_same_outputs(const ExportBundle& before, const ExportBundle& after, const std::vector<std::string>& targets,
                         const std::string& work_name, const std::string& output, int64_t bytes);

}  // namespace usmpx::testing
