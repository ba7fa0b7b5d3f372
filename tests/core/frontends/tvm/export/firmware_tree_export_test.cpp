// A firmware tree is written back in its own layout: every member at its own relative path, the
// plan and linker fragment beside the sources, no metadata.json invented; as-built exports are
// byte-identical in every layout; and the real CMSIS-NN example passes selftest with `best`.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include "base/archive_reader.h"
#include "base/text_file.h"
#include "frontends/tvm/export/harness/tvm_selftest.h"
#include "frontends/tvm/export/mlf_export.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;
using testing::fixture_path;

std::string read_text(const fs::path& p) {
  return read_text_file(p.string());
}

// The usmp_default_pools fixture's three generated files placed as a firmware project keeps
// them (`layout` maps lib0, lib1 and the header to paths), with a file of the project beside
// them, and no metadata.json.
fs::path firmware_tree(const std::string& name, const std::map<std::string, std::string>& layout) {
  const fs::path dir = fs::temp_directory_path() / ("usmpx-firmware-tree-" + name);
  fs::remove_all(dir);
  const fs::path from = fixture_path("mlf/usmp_default_pools");
  const std::map<std::string, std::string> sources = {{"lib0", "codegen/host/src/default_lib0.c"},
                                                      {"lib1", "codegen/host/src/default_lib1.c"},
                                                      {"header", "codegen/host/include/tvmgen_default.h"}};
  for (const auto& [what, to] : layout) {
    fs::create_directories((dir / to).parent_path());
    fs::copy_file(from / sources.at(what), dir / to);
  }
  std::ofstream(dir / "board_main.cpp") << "int main() { return 0; }\n";
  return dir;
}

std::vector<std::string> paths(const ExportBundle& b) {
  std::vector<std::string> out;
  for (const ExportFile& f : b.files)
    out.push_back(f.path);
  return out;
}

struct Layout {
  const char* name;
  std::map<std::string, std::string> files;
  std::vector<std::string> expected_paths;  // of the export, sorted
};

void PrintTo(const Layout& layout, std::ostream* os) {
  *os << layout.name;
}

class FirmwareTreeExport : public ::testing::TestWithParam<Layout> {};

TEST_P(FirmwareTreeExport, WritesEveryFileBackAtItsOwnPath) {
  const Layout& layout = GetParam();
  const fs::path dir = firmware_tree(layout.name, layout.files);
  const MlfModel m = load_mlf_model(dir.string());
  ASSERT_TRUE(m.as_built.has_value());
  Plan as_built = *m.as_built;
  finish_plan(m.problem, as_built);
  const ExportBundle same = export_mlf(m, m.problem, as_built);
  EXPECT_EQ(paths(same), layout.expected_paths);
  for (const ArchiveFile& f : read_folder(dir.string(), [](std::string_view) { return true; }).files)
    EXPECT_EQ(same.find(f.path)->data, f.data) << f.path;

  const ExportBundle replanned = export_mlf(m, m.problem, testing::plan_with("hill_climb", m.problem));
  EXPECT_EQ(paths(replanned), layout.expected_paths);
  const std::string& lib0 = replanned.find(layout.files.at("lib0"))->data;
  EXPECT_NE(lib0.find("static uint8_t global_workspace[128];"), std::string::npos);
  EXPECT_NE(replanned.find(layout.files.at("header"))->data.find("#define TVMGEN_DEFAULT_WORKSPACE_SIZE 128\n"),
            std::string::npos);
  EXPECT_EQ(replanned.find("board_main.cpp")->data, "int main() { return 0; }\n");
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, FirmwareTreeExport,
    ::testing::Values(
        Layout{"src-include",
               {{"lib0", "src/default_lib0.c"}, {"lib1", "src/default_lib1.c"}, {"header", "include/tvmgen_default.h"}},
               {"board_main.cpp", "include/tvmgen_default.h", "src/default_lib0.c", "src/default_lib1.c",
                "usmpx_plan.json", "usmpx_pools.ld"}},
        Layout{"nested-inc",
               {{"lib0", "model/src/default_lib0.c"},
                {"lib1", "model/src/default_lib1.c"},
                {"header", "model/inc/tvmgen_default.h"}},
               {"board_main.cpp", "model/inc/tvmgen_default.h", "model/src/default_lib0.c", "model/src/default_lib1.c",
                "model/usmpx_plan.json", "model/usmpx_pools.ld"}},
        Layout{"flat",
               {{"lib0", "tvm/default_lib0.c"}, {"lib1", "tvm/default_lib1.c"}, {"header", "tvm/tvmgen_default.h"}},
               {"board_main.cpp", "tvm/default_lib0.c", "tvm/default_lib1.c", "tvm/tvmgen_default.h",
                "tvm/usmpx_plan.json", "tvm/usmpx_pools.ld"}},
        Layout{"codegen-host-no-metadata",
               {{"lib0", "codegen/host/src/default_lib0.c"},
                {"lib1", "codegen/host/src/default_lib1.c"},
                {"header", "codegen/host/include/tvmgen_default.h"}},
               {"board_main.cpp", "codegen/host/include/tvmgen_default.h", "codegen/host/src/default_lib0.c",
                "codegen/host/src/default_lib1.c", "codegen/host/usmpx_plan.json", "codegen/host/usmpx_pools.ld"}}),
    [](const ::testing::TestParamInfo<Layout>& info) {
      std::string n = info.param.name;
      for (char& c : n)
        c = c == '-' ? '_' : c;
      return n;
    });

TEST(FirmwareTreeSelftest, HarnessBuildsTheSourcesWhereTheTreeKeepsThem) {
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  const fs::path dir = firmware_tree("selftest", {{"lib0", "model/src/default_lib0.c"},
                                                  {"lib1", "model/src/default_lib1.c"},
                                                  {"header", "model/inc/tvmgen_default.h"}});
  const MlfModel m = load_mlf_model(dir.string());
  ExportOptions eo;
  eo.harness = true;
  const ExportBundle replanned = export_mlf(m, m.problem, testing::plan_with("hill_climb", m.problem), eo);
  const std::string& makefile = replanned.find("harness/Makefile")->data;
  EXPECT_NE(makefile.find("MODEL_SRCS := $(ROOT)/model/src/default_lib0.c $(ROOT)/model/src/default_lib1.c\n"),
            std::string::npos);
  EXPECT_NE(makefile.find("MODEL_INCLUDE_DIRS := $(ROOT)/model/inc\nFRAGMENT_DIR := model\n"), std::string::npos);
  const fs::path work = fs::temp_directory_path() / "usmpx-firmware-tree-selftest-run";
  fs::remove_all(work);
  const auto results = run_selftest(mlf_original_bundle(m, eo), replanned, {"host"}, work.string());
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].same) << results[0].verdict << results[0].original.log << results[0].replanned.log;
  fs::remove_all(work);
  fs::remove_all(dir);
}

// The done-criterion on the real example: TVM 0.10, USMP on, CMSIS-NN in default_lib2.c.
const char* const kRealExample = "mlf/firmware/mlperf_tiny_ic_cmsis_nn/model";

TEST(RealCmsisNnExample, AsBuiltExportIsByteIdentical) {
  USMPX_REQUIRE_SHARED(tree, kRealExample);
  const MlfModel m = load_mlf_model(tree);
  ASSERT_TRUE(m.as_built.has_value());
  Plan as_built = *m.as_built;
  finish_plan(m.problem, as_built);
  const ExportBundle bundle = export_mlf(m, m.problem, as_built);
  size_t compared = 0;
  for (const ArchiveFile& f : read_folder(tree, [](std::string_view) { return true; }).files) {
    ASSERT_NE(bundle.find(f.path), nullptr) << f.path;
    EXPECT_TRUE(bundle.find(f.path)->data == f.data) << f.path << " differs";
    ++compared;
  }
  EXPECT_EQ(compared, 4u);  // lib0.c, lib1.c, lib2.c, tvmgen_default.h
  EXPECT_EQ(bundle.changed, (std::vector<std::string>{"codegen/host/usmpx_plan.json", "codegen/host/usmpx_pools.ld"}));
}

// Runs selftest on the real example with the project's own CMSIS-NN-compatible kernels (no
// checkout: ../shared/third_party is gone); `edit` may change the re-planned bundle.
std::vector<SelftestResult> real_selftest(const std::string& tree, const std::vector<std::string>& targets,
                                          const std::string& name,
                                          const std::function<void(ExportBundle&)>& edit = {}) {
  const MlfModel m = load_mlf_model(tree);
  const Plan best = testing::plan_with("best", m.problem);
  EXPECT_FALSE(best.has_errors());
  EXPECT_EQ(best.total_size(), 133848);  // as built: 150,232 (the workspace shrinks from 66,112 to 49,728)
  ExportOptions eo;
  eo.harness = true;
  const ExportBundle original = mlf_original_bundle(m, eo);
  ExportBundle replanned = export_mlf(m, m.problem, best, eo);
  if (edit) edit(replanned);
  EXPECT_TRUE(selftest_uses_builtin_cmsis_nn(replanned, {}));
  const fs::path work = fs::temp_directory_path() / ("usmpx-real-cmsis-" + name);
  fs::remove_all(work);
  auto results = run_selftest(original, replanned, targets, work.string());
  // One kernel library per target, shared by both builds.
  for (const std::string& t : targets)
    EXPECT_TRUE(fs::exists(work / "cmsis-nn" / t / "libcmsis-nn.a")) << t;
  fs::remove_all(work);
  return results;
}

TEST(RealCmsisNnExample, NoOptionsChooseTheHostAndTheBuiltInKernels) {
  USMPX_REQUIRE_SHARED(tree, kRealExample);
  const MlfModel m = load_mlf_model(tree);
  ExportOptions eo;
  eo.harness = true;
  const ExportBundle bundle = mlf_original_bundle(m, eo);
  EXPECT_EQ(selftest_obstacle(bundle, {}), "");
  const SelftestTargets chosen = choose_selftest_targets(bundle, {});
  EXPECT_EQ(chosen.targets, (std::vector<std::string>{"host"}));
  EXPECT_EQ(chosen.reason,
            "portable C: no Arm intrinsics, arm_acle.h or CMSIS headers; CMSIS-NN calls run on the built-in kernels");
}

TEST(RealCmsisNnExample, BestPlanComputesTheSameOnThisMachine) {
  USMPX_REQUIRE_SHARED(tree, kRealExample);
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  const auto results = real_selftest(tree, {"host"}, "host");
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].original.ran && results[0].replanned.ran);
  EXPECT_TRUE(results[0].same) << results[0].verdict << results[0].original.log << results[0].replanned.log;
  ASSERT_EQ(results[0].replanned.outputs.size(), 1u);
  EXPECT_EQ(results[0].replanned.outputs[0].first, "Identity_int8");
  EXPECT_EQ(results[0].replanned.outputs[0].second.substr(0, 3), "10 ");
}

TEST(RealCmsisNnExample, AContextBufferOverALiveTensorChangesTheOutput) {
  USMPX_REQUIRE_SHARED(tree, kRealExample);
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  // A broken re-plan: the second convolution's 576-byte context placed at its own input (sid_7,
  // live until the add in cmsis_nn_main_1). The kernel fills its context before reading the
  // input, so the outputs must differ.
  const auto overlap = [](ExportBundle& b) {
    const ExportFile* lib1 = b.find("codegen/host/src/default_lib1.c");
    const ExportFile* lib2 = b.find("codegen/host/src/default_lib2.c");
    ASSERT_TRUE(lib1 && lib2);
    const std::string input = "void* sid_7_let = (&(global_workspace_1_var[";
    const size_t input_at = lib1->data.find(input);
    ASSERT_NE(input_at, std::string::npos);
    const size_t offset_at = input_at + input.size();
    const std::string offset = lib1->data.substr(offset_at, lib1->data.find(']', offset_at) - offset_at);
    std::string text = lib2->data;
    const size_t function = text.find("tvmgen_default_cmsis_nn_main_2(");
    ASSERT_NE(function, std::string::npos);
    const std::string from = "void* context_buffer_1_let = (&(global_workspace_5_var[";
    const size_t at = text.find(from, function);
    ASSERT_NE(at, std::string::npos);
    text.replace(at + from.size(), text.find(']', at) - at - from.size(), offset);
    b.put("codegen/host/src/default_lib2.c", text);
  };
  const auto results = real_selftest(tree, {"host"}, "overlap", overlap);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].original.ran && results[0].replanned.ran) << results[0].verdict;
  EXPECT_FALSE(results[0].same);
  EXPECT_EQ(results[0].verdict, "outputs differ");
}

TEST(RealCmsisNnExample, BestPlanComputesTheSameOnEmulatedCortexM4AndM7) {
  USMPX_REQUIRE_SHARED(tree, kRealExample);
  std::string missing;
  if (!selftest_target_available("cortex-m4", &missing)) GTEST_SKIP() << missing << " is not installed";
  const auto results = real_selftest(tree, {"cortex-m4", "cortex-m7"}, "boards");
  ASSERT_EQ(results.size(), 2u);
  for (const SelftestResult& r : results) {
    EXPECT_TRUE(r.same) << r.target << ": " << r.verdict << r.original.log << r.replanned.log;
    // 16,384 bytes less workspace in RAM; the 84,120 bytes of constants stay in flash.
    EXPECT_EQ(r.original.ram_bytes - r.replanned.ram_bytes, 66112 - 49728) << r.target;
    EXPECT_GT(r.replanned.flash_bytes, 84120) << r.target;
    EXPECT_LT(r.replanned.ram_bytes, 84120) << r.target;
  }
  // Integer kernels: both boards compute the same bits.
  EXPECT_EQ(results[0].replanned.outputs, results[1].replanned.outputs);
}

}  // namespace
}  // namespace usmpx
