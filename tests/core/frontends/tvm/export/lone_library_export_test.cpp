// A lone operator library (lib1.c without the lib0.c TVM wrote beside it: tests/fixtures/mlf/
// operator_library, operator_library_align8): an export rewrites the operators' lets only, writes
// no lib0.c of its own, says what the firmware's pool definitions must hold, and refuses to move
// constants whose data is in the absent lib0.c.
#include <gtest/gtest.h>

#include <filesystem>

#include "base/archive_reader.h"
#include "export/bundle_writer.h"
#include "export/export_error.h"
#include "frontends/tvm/export/mlf_export.h"
#include "frontends/tvm/mlf/mlf_model.h"
#include "planners/common/validator.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;
using testing::fixture_path;

ArchiveContents fixture_files(const std::string& folder) {
  return read_folder(folder, [](std::string_view p) { return !p.ends_with(".md"); });
}

TEST(LoneLibraryExport, AsBuiltWritesEveryFileBackByteForByteAndNoLib0) {
  for (const char* name : {"mlf/operator_library", "mlf/operator_library_align8"}) {
    SCOPED_TRACE(name);
    const std::string folder = fixture_path(name);
    const MlfModel m = load_mlf_model(folder);
    ASSERT_TRUE(m.as_built.has_value());
    const ExportBundle bundle = export_mlf(m, m.problem, *m.as_built);
    const ArchiveContents input = fixture_files(folder);
    for (const ArchiveFile& f : input.files) {
      const ExportFile* out = bundle.find(f.path);
      ASSERT_NE(out, nullptr) << f.path;
      EXPECT_EQ(out->data, f.data) << f.path;
    }
    // Only the plan and the linker fragment are added; the pools stay where the firmware has them.
    EXPECT_EQ(bundle.find("default_lib0.c"), nullptr);
    EXPECT_EQ(bundle.changed, (std::vector<std::string>{"usmpx_plan.json", "usmpx_pools.ld"}));
    EXPECT_TRUE(bundle.notes.empty()) << bundle.notes.front().message;
  }
}

TEST(LoneLibraryExport, AReplanRewritesTheLetsAndSaysWhatThePoolsMustHold) {
  const MlfModel m = load_mlf_model(fixture_path("mlf/operator_library_align8"));
  const Plan best = testing::plan_with("best", m.problem);
  ASSERT_TRUE(validate(m.problem, best).empty());
  const ExportBundle bundle = export_mlf(m, m.problem, best);
  EXPECT_EQ(bundle.changed, (std::vector<std::string>{"lib1.c", "usmpx_plan.json", "usmpx_pools.ld"}));
  ASSERT_EQ(bundle.notes.size(), 1u);
  EXPECT_EQ(bundle.notes[0].message,
            "pool 'global_workspace' is defined outside the input (no default_lib0.c): it must now hold 128 bytes, "
            "aligned to 8 (TVM's plan: 200)");
  // The rewritten library reads back as that plan, the constants where TVM put them.
  const fs::path dir = fs::temp_directory_path() / "usmpx-lone-library-replan";
  fs::remove_all(dir);
  write_bundle(bundle, dir.string());
  const MlfModel again = load_mlf_model(dir.string());
  ASSERT_TRUE(again.as_built.has_value());
  Plan as_built = *again.as_built;
  compute_pool_sizes(again.problem, as_built);
  EXPECT_TRUE(validate(again.problem, as_built).empty());
  EXPECT_EQ(as_built.pool_sizes[static_cast<size_t>(*again.problem.find_pool("global_workspace"))], 128);
  EXPECT_EQ(as_built.pool_sizes[static_cast<size_t>(*again.problem.find_pool("global_const_workspace"))], 312);
  fs::remove_all(dir);
}

TEST(LoneLibraryExport, ConstantsStayWhereTvmPutThem) {
  const MlfModel m = load_mlf_model(fixture_path("mlf/operator_library_align8"));
  Problem pinned = m.problem;
  for (Buffer& b : pinned.buffers) {
    if (b.name == "fused_constant") b.pin = Pin{*pinned.find_pool("global_const_workspace"), 512};
  }
  const Plan plan = testing::plan_with("greedy_by_size", pinned);
  ASSERT_TRUE(validate(pinned, plan).empty());
  try {
    export_mlf(m, pinned, plan);
    FAIL() << "a moved constant was exported";
  } catch (const ExportError& e) {
    EXPECT_EQ(std::string(e.what()),
              "the plan moves constant 'fused_constant' to offset 512 of pool 'global_const_workspace', but its data "
              "is in default_lib0.c, which the input does not hold: pin the constants where TVM put them (as-built "
              "offsets) or give the whole codegen/host/src TVM wrote");
  }
}

}  // namespace
}  // namespace usmpx
