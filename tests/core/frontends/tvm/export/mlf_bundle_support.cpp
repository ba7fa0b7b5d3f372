#include "mlf_bundle_support.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "base/archive_reader.h"
#include "frontends/tvm/export/harness/tvm_selftest.h"
#include "frontends/tvm/export/mlf_export.h"
#include "test_support.h"

namespace usmpx::testing {

namespace fs = std::filesystem;

ExportBundle original_with_harness(const MlfModel& m) {
  ExportOptions eo;
  eo.harness = true;
  return mlf_original_bundle(m, eo);
}

ExportBundle replanned_bundle(const MlfModel& m, bool harness, const std::string& algorithm) {
  ExportOptions eo;
  eo.harness = harness;
  return export_mlf(m, m.problem, plan_with(algorithm, m.problem), eo);
}

void expect_bundle_holds_folder(const ExportBundle& bundle, const std::string& folder, size_t files) {
  const ArchiveContents input = read_folder(folder, [](std::string_view) { return true; });
  ASSERT_EQ(input.files.size(), files);
  for (const ArchiveFile& f : input.files) {
    const ExportFile* same = bundle.find(f.path);
    ASSERT_NE(same, nullptr) << f.path;
    EXPECT_EQ(same->data, f.data) << f.path;
  }
  for (const ExportFile& f : bundle.files)
    EXPECT_TRUE(f.path.rfind("harness/", 0) == 0 || input.find(f.path)) << f.path << " was added";
}

void expect_same_outputs(const ExportBundle& before, const ExportBundle& after, const std::vector<std::string>& targets,
                         const std::string& work_name, const std::string& output, int64_t bytes) {
  const fs::path work = fs::temp_directory_path() / ("usmpx-selftest-" + work_name);
  fs::remove_all(work);
  const auto results = run_selftest(before, after, targets, work.string());
  fs::remove_all(work);
  ASSERT_EQ(results.size(), targets.size());
  for (const SelftestResult& r : results) {
    EXPECT_TRUE(r.same) << r.target << ": " << r.verdict << r.original.log << r.replanned.log;
    EXPECT_EQ(r.original.model_rc, 0) << r.target;
    EXPECT_EQ(r.replanned.model_rc, 0) << r.target;
    ASSERT_EQ(r.replanned.outputs.size(), 1u) << r.target;
    EXPECT_EQ(r.replanned.outputs[0].first, output);
    EXPECT_EQ(r.replanned.outputs[0].second.substr(0, std::to_string(bytes).size() + 1), std::to_string(bytes) + " ");
    EXPECT_EQ(r.replanned.outputs, r.original.outputs) << r.target;
  }
}

}  // namespace usmpx::testing
