// TVM 0.8's AoT firmware tree (interface API "packed", USMP off, no tvmgen_<mod>.h): a re-plan
// moves the TVMBackendAllocWorkspace buffers into a static pool defined before the packed
// `tvmgen_default_run` wrapper, which keeps its signature and passes the pool to the entry; the
// exported C compiles and runs the tree's own main.c; selftest calls the wrapper as TVM 0.8's
// runtime does (DLTensors in TVMValues) and finds the same outputs.
#include <gtest/gtest.h>

#include <filesystem>

#include "base/archive_reader.h"
#include "base/text_file.h"
#include "c_toolchain.h"
#include "export/bundle_writer.h"
#include "export_test_support.h"
#include "frontends/tvm/export/harness/tvm_selftest.h"
#include "frontends/tvm/export/mlf_export.h"
#include "mlf_bundle_support.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;
using testing::fixture_path;

const char* const kTree = "mlf/aot_2021_tree";
const char* const kLib0 = "tvm_model/default_lib0.c";
const char* const kWrapper =
    "TVM_DLL int32_t tvmgen_default_run(void* args, void* type_code, int num_args, void* out_value, void* "
    "out_type_code, void* resource_handle) {\n";

std::vector<std::string> paths(const std::vector<ExportFile>& files) {
  std::vector<std::string> out;
  for (const ExportFile& f : files)
    out.push_back(f.path);
  return out;
}

ExportBundle replanned(const MlfModel& m, bool harness = false) {
  ExportOptions eo;
  eo.harness = harness;
  return export_mlf(m, m.problem, testing::plan_with("greedy_by_size", m.problem), eo);
}

TEST(Tvm08PackedTreeExport, ReplanPutsTheWorkspaceInAStaticPoolPassedThroughTheWrapper) {
  const MlfModel m = load_mlf_model(fixture_path(kTree));
  const Plan plan = testing::plan_with("greedy_by_size", m.problem);
  EXPECT_EQ(plan.total_size(), 320);  // 352 bytes of TVMBackendAllocWorkspace, with reuse
  const ExportBundle out = replanned(m);
  ASSERT_NE(out.find(kLib0), nullptr);
  // No interface header is invented: the packed API has none.
  EXPECT_EQ(paths(out.files), (std::vector<std::string>{"NOTICE.md", "app/main.c", kLib0, "tvm_model/usmpx_plan.json",
                                                        "tvm_model/usmpx_pools.ld"}));
  EXPECT_EQ(out.changed, (std::vector<std::string>{kLib0, "tvm_model/usmpx_plan.json", "tvm_model/usmpx_pools.ld"}));
  const std::string& lib0 = out.find(kLib0)->data;
  EXPECT_EQ(lib0.find("TVMBackendAllocWorkspace"), std::string::npos);
  EXPECT_EQ(lib0.find("TVMBackendFreeWorkspace"), std::string::npos);
  EXPECT_NE(lib0.find("TVM_DLL int32_t tvmgen_default_run_model(void* input, void* output, uint8_t* "
                      "global_workspace_0_var) {\n"),
            std::string::npos);
  // The pool goes before the wrapper's extern "C" lines; the wrapper keeps its packed signature
  // and its DLTensor unpacking, and passes the pool after the input and output.
  const std::string pool =
      "}\n\n__attribute__((section(\".bss.noinit.tvm\"), aligned(16)))\nstatic uint8_t global_workspace[320];\n"
      "#ifdef __cplusplus\nextern \"C\"\n#endif\n";
  EXPECT_NE(lib0.find(pool + kWrapper), std::string::npos) << lib0;
  EXPECT_NE(lib0.find("  return tvmgen_default_run_model(((DLTensor*)(((TVMValue*)args)[0].v_handle))[0].data, "
                      "((DLTensor*)(((TVMValue*)args)[1].v_handle))[0].data, ((uint8_t*)&global_workspace));\n}\n"),
            std::string::npos)
      << lib0;
  ASSERT_NE(out.find("app/main.c"), nullptr);
  EXPECT_EQ(out.find("app/main.c")->data, read_text_file(fixture_path(kTree) + "/app/main.c"));
}

// Compiles lib0.c (-Wall, not -Werror: TVM 0.8's own code passes its const parameters to
// non-const pointers) and counts the warnings; with `main`, links the two with no TVM runtime
// (no TVMBackendAllocWorkspace) and runs the program.
struct Built {
  bool compiled = false;
  bool ran = false;
  int warnings = 0;
  std::string log;
};

Built build(const std::string& cc, const std::string& lib0, const std::string& main = "") {
  testing::CScratch scratch;
  const auto q = [](const std::string& s) { return testing::shell_quote(s); };
  const std::string flags = " -std=c11 -Wall -O2 -I" + q(scratch.include().string()) + " ";
  const std::string object = (scratch.root() / "default_lib0.o").string();
  const testing::CommandResult compile = testing::run_command(
      q(cc) + flags + "-c " + q(scratch.write("default_lib0.c", lib0).string()) + " -o " + q(object));
  Built out;
  out.log = compile.output;
  for (size_t at = out.log.find("warning:"); at != std::string::npos; at = out.log.find("warning:", at + 1))
    ++out.warnings;
  out.compiled = compile.status == 0;
  if (!out.compiled || main.empty()) return out;
  const std::string program = (scratch.root() / "program").string();
  const testing::CommandResult link = testing::run_command(q(cc) + flags + q(scratch.write("main.c", main).string()) +
                                                           " " + q(object) + " -o " + q(program) + " -lm");
  out.log += link.output;
  if (link.status != 0) return out;
  const testing::CommandResult run = testing::run_command(q(program));
  out.ran = run.status == 0;
  out.log += run.output;
  return out;
}

TEST(Tvm08PackedTreeExport, ExportedSourcesCompileAndRunTheTreesOwnMain) {
  USMPX_REQUIRE_CC(cc);
  const MlfModel m = load_mlf_model(fixture_path(kTree));
  const ExportBundle out = replanned(m);
  const std::string& lib0 = out.find(kLib0)->data;
  const std::string& main = out.find("app/main.c")->data;
  // The application calls the wrapper exactly as before the export; it returns the entry's 0,
  // with every buffer in the static pool.
  const Built input = build(cc, read_text_file(fixture_path(kTree) + "/" + kLib0));
  ASSERT_TRUE(input.compiled) << input.log;
  const Built exported = build(cc, lib0, main);
  EXPECT_TRUE(exported.ran) << exported.log;
  EXPECT_EQ(exported.warnings, input.warnings) << exported.log;  // the export adds none
  // A second export from the exported tree (its pool now in the code) keeps one pool argument.
  const fs::path dir = fs::temp_directory_path() / "usmpx-packed-tree-again";
  fs::remove_all(dir);
  write_bundle(out, dir.string());
  const MlfModel again = load_mlf_model(dir.string());
  ASSERT_TRUE(again.as_built.has_value());
  Plan as_built = *again.as_built;
  finish_plan(again.problem, as_built);
  EXPECT_EQ(as_built.total_size(), 320);
  EXPECT_EQ(export_mlf(again, again.problem, as_built).find(kLib0)->data, lib0);
  const std::string hill =
      export_mlf(again, again.problem, testing::plan_with("hill_climb", again.problem)).find(kLib0)->data;
  EXPECT_NE(hill.find("[1].v_handle))[0].data, ((uint8_t*)&global_workspace));\n}\n"), std::string::npos) << hill;
  EXPECT_TRUE(build(cc, hill, main).ran);
  fs::remove_all(dir);
}

TEST(Tvm08PackedTreeExport, OriginalBundleHoldsTheInputByteForByte) {
  const MlfModel m = load_mlf_model(fixture_path(kTree));
  ExportOptions eo;
  eo.harness = true;
  const ExportBundle original = mlf_original_bundle(m, eo);
  testing::expect_bundle_holds_folder(original, fixture_path(kTree), 3);
  // The harness calls the packed wrapper with one DLTensor per input and output.
  const std::string& main = original.find("harness/main.c")->data;
  EXPECT_EQ(main.find("tvmgen_default.h"), std::string::npos);
  EXPECT_NE(main.find("      {.data = usmpx_input_0, .device = {1, 0}, .ndim = 1, .dtype = {2, 32, 1}, .shape = "
                      "usmpx_shape_0},\n"),
            std::string::npos)
      << main;
  EXPECT_NE(main.find("int64_t usmpx_shape_1[1] = {8};"), std::string::npos);
  EXPECT_NE(main.find("int32_t rc = tvmgen_default_run(usmpx_args, usmpx_codes, 2, NULL, NULL, NULL);"),
            std::string::npos);
  EXPECT_NE(original.find("harness/Makefile")
                ->data.find("ARENA_BYTES := 352\nMODEL_SRCS := $(ROOT)/" + std::string(kLib0) + "\n"),
            std::string::npos);
}

TEST(Tvm08PackedTreeExport, SelftestWithNoOptionsComputesTheSameOnTheHost) {
  const MlfModel m = load_mlf_model(fixture_path(kTree));
  ExportOptions eo;
  eo.harness = true;
  const ExportBundle original = mlf_original_bundle(m, eo);
  EXPECT_EQ(selftest_obstacle(original, {}), "");
  EXPECT_EQ(choose_selftest_targets(original, {}).targets, (std::vector<std::string>{"host"}));
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  const fs::path work = fs::temp_directory_path() / "usmpx-selftest-packed-tree";
  fs::remove_all(work);
  const auto results = run_selftest(original, replanned(m, true), {"host"}, work.string());
  fs::remove_all(work);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].same) << results[0].verdict << results[0].original.log << results[0].replanned.log;
  EXPECT_EQ(results[0].original.model_rc, 0);
  EXPECT_EQ(results[0].replanned.model_rc, 0);
  ASSERT_EQ(results[0].replanned.outputs.size(), 1u);
  EXPECT_EQ(results[0].replanned.outputs[0].first, "output");
  EXPECT_EQ(results[0].replanned.outputs[0].second.substr(0, 3), "32 ");
  EXPECT_EQ(results[0].replanned.outputs, results[0].original.outputs);
}

}  // namespace
}  // namespace usmpx
