// TVM 0.8's AoT output with the unpacked entry behind the packed interface, USMP off
// (tests/fixtures/mlf/aot_2021_packed_lib1): default_lib0.c holds only the packed wrapper
// `tvmgen_default_run`, which declares the entry `tvmgen_default_run_model(arg0,arg1)` without
// types; the entry, the operators and the parameters are in default_lib1.c. A re-plan defines
// the pool in lib0.c before the wrapper, which passes it on; lib1.c's entry and operators take it.
#include <gtest/gtest.h>

#include <filesystem>

#include "base/archive_reader.h"
#include "base/text_file.h"
#include "export/bundle_writer.h"
#include "frontends/tvm/export/harness/tvm_selftest.h"
#include "frontends/tvm/export/mlf_export.h"
#include "mlf_bundle_support.h"
#include "planners/common/validator.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;
using testing::fixture_path;

const char* const kFixture = "mlf/aot_2021_packed_lib1";
const char* const kLib0 = "codegen/host/src/default_lib0.c";
const char* const kLib1 = "codegen/host/src/default_lib1.c";
const char* const kCall =
    "return tvmgen_default_run_model(((DLTensor*)(((TVMValue*)args)[0].v_handle))[0].data,((DLTensor*)(((TVMValue*)"
    "args)[1].v_handle))[0].data";

// The fixture copied to a fresh folder with `from` replaced by `to` in lib0.c.
std::string variant(const std::string& name, const std::string& from, const std::string& to) {
  const fs::path dir = fs::temp_directory_path() / ("usmpx-tvm08-lib1-" + name);
  fs::remove_all(dir);
  fs::copy(fixture_path(kFixture), dir, fs::copy_options::recursive);
  std::string lib0 = read_text_file((dir / kLib0).string());
  const size_t at = lib0.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) lib0.replace(at, from.size(), to);
  write_file_atomically((dir / kLib0).string(), lib0);
  return dir.string();
}

TEST(Tvm08PackedLib1, TheEntryInLib1IsReadWithItsThreeIntermediates) {
  const MlfModel m = load_mlf_model(fixture_path(kFixture));
  ASSERT_GE(m.code.entry, 0);
  const CFunction& entry = m.program.functions[static_cast<size_t>(m.code.entry)];
  EXPECT_EQ(entry.name, "tvmgen_default_run_model");
  EXPECT_EQ(m.program.files[static_cast<size_t>(entry.range.file)].path, kLib1);
  ASSERT_EQ(m.problem.buffers.size(), 3u);
  for (size_t b = 0; b < 3; ++b) {
    EXPECT_EQ(m.problem.buffers[b].name, "sid_" + std::to_string(b + 1));
    EXPECT_EQ(m.problem.buffers[b].size_bytes, 32);
    EXPECT_EQ(m.problem.buffers[b].alignment, 16);
  }
  ASSERT_EQ(m.problem.pools.size(), 2u);
  EXPECT_EQ(m.problem.pools[0].name, "global_workspace");
  EXPECT_EQ(m.problem.pools[1].name, "global_const_workspace");
  EXPECT_FALSE(m.as_built.has_value());  // USMP off: TVMBackendAllocWorkspace
  // sid_1 is dead once sid_2 is computed: sid_3 takes its place.
  EXPECT_EQ(testing::plan_with("greedy_by_size", m.problem).total_size(), 64);
  // lib0.c's declaration without types is TVM 0.8's, not a parse error.
  for (const Diagnostic& d : m.warnings)
    EXPECT_NE(d.code, "c-parse-error") << d.message;
}

TEST(Tvm08PackedLib1, OriginalBundleHoldsTheInputByteForByteAndCallsTheWrapper) {
  const MlfModel m = load_mlf_model(fixture_path(kFixture));
  const ExportBundle bundle = testing::original_with_harness(m);
  testing::expect_bundle_holds_folder(bundle, fixture_path(kFixture), 5);
  const std::string& main = bundle.find("harness/main.c")->data;
  EXPECT_NE(main.find("int32_t rc = tvmgen_default_run(usmpx_args, usmpx_codes, 2, NULL, NULL, NULL);"),
            std::string::npos)
      << main;
  EXPECT_NE(main.find("int64_t usmpx_shape_0[1] = {8};"), std::string::npos);
  EXPECT_NE(
      bundle.find("harness/Makefile")
          ->data.find("ARENA_BYTES := 96\nMODEL_SRCS := $(ROOT)/" + std::string(kLib0) + " $(ROOT)/" + kLib1 + "\n"),
      std::string::npos)
      << bundle.find("harness/Makefile")->data;
  EXPECT_EQ(selftest_obstacle(bundle, {}), "");
  EXPECT_EQ(choose_selftest_targets(bundle, {}).targets, (std::vector<std::string>{"host"}));
}

TEST(Tvm08PackedLib1, ReplanDefinesThePoolInLib0AndPassesItToTheEntryInLib1) {
  const MlfModel m = load_mlf_model(fixture_path(kFixture));
  const ExportBundle out = testing::replanned_bundle(m);
  EXPECT_EQ(out.changed, (std::vector<std::string>{kLib0, kLib1, "codegen/host/usmpx_plan.json",
                                                   "codegen/host/usmpx_pools.ld", "metadata.json"}));
  EXPECT_EQ(out.find("codegen/host/include/tvmgen_default.h"), nullptr);  // the packed API has none
  const std::string& lib0 = out.find(kLib0)->data;
  // The untyped declaration stays; the pool goes before the wrapper, which passes it after the
  // input and output.
  EXPECT_EQ(lib0,
            "#include \"tvm/runtime/c_runtime_api.h\"\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n"
            "TVM_DLL int32_t tvmgen_default_run_model(arg0,arg1);\n"
            "__attribute__((section(\".bss.noinit.tvm\"), aligned(16)))\nstatic uint8_t global_workspace[64];\n"
            "int32_t tvmgen_default_run(void* args, void* type_code, int num_args, void* out_value, void* "
            "out_type_code, void* resource_handle) {\n" +
                std::string(kCall) + ", ((uint8_t*)&global_workspace));\n}\n#ifdef __cplusplus\n}\n#endif\n");
  const std::string& lib1 = out.find(kLib1)->data;
  EXPECT_EQ(lib1.find("TVMBackendAllocWorkspace"), std::string::npos);
  EXPECT_EQ(lib1.find("TVMBackendFreeWorkspace"), std::string::npos);
  EXPECT_NE(lib1.find("TVM_DLL int32_t tvmgen_default_run_model(void* input, void* output, uint8_t* "
                      "global_workspace_0_var) {\n"
                      "  void* sid_1 = (&(global_workspace_0_var[32]));\n"
                      "  void* sid_2 = (&(global_workspace_0_var[0]));\n"
                      "  void* sid_3 = (&(global_workspace_0_var[32]));\n"),
            std::string::npos)
      << lib1;
  EXPECT_NE(lib1.find("(void)tvmgen_default_fused_subtract_nn_relu(sid_3, sid_2, output, global_workspace_0_var);"),
            std::string::npos);
  EXPECT_NE(out.find("metadata.json")->data.find("\"workspace_size_bytes\": 64"), std::string::npos);
}

TEST(Tvm08PackedLib1, ExportedTreeReadsBackAsBuiltAndExportsItselfByteForByte) {
  const MlfModel m = load_mlf_model(fixture_path(kFixture));
  const ExportBundle out = testing::replanned_bundle(m);
  const fs::path dir = fs::temp_directory_path() / "usmpx-tvm08-lib1-again";
  fs::remove_all(dir);
  write_bundle(out, dir.string());
  const MlfModel again = load_mlf_model(dir.string());
  ASSERT_TRUE(again.as_built.has_value());
  Plan as_built = *again.as_built;
  finish_plan(again.problem, as_built);
  EXPECT_TRUE(validate(again.problem, as_built).empty());
  EXPECT_EQ(as_built.total_size(), 64);
  const ExportBundle same = export_mlf(again, again.problem, as_built);
  for (const char* path : {kLib0, kLib1})
    EXPECT_EQ(same.find(path)->data, out.find(path)->data) << path;
  // A plan without reuse grows the pool in lib0.c and keeps its one pool argument.
  const std::string lib0 = testing::replanned_bundle(again, false, "hill_climb").find(kLib0)->data;
  EXPECT_NE(lib0.find("[1].v_handle))[0].data, ((uint8_t*)&global_workspace));\n}\n"), std::string::npos) << lib0;
  fs::remove_all(dir);
}

TEST(Tvm08PackedLib1, SelftestWithNoOptionsComputesTheSameOnTheHost) {
  const MlfModel m = load_mlf_model(fixture_path(kFixture));
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  testing::expect_same_outputs(testing::original_with_harness(m), testing::replanned_bundle(m, true), {"host"},
                               "tvm08-lib1-host", "output", 32);
}

TEST(Tvm08PackedLib1, SelftestComputesTheSameOnCortexM4) {
  std::string missing;
  if (!selftest_target_available("cortex-m4", &missing)) GTEST_SKIP() << missing << " is not installed";
  const MlfModel m = load_mlf_model(fixture_path(kFixture));
  testing::expect_same_outputs(testing::original_with_harness(m), testing::replanned_bundle(m, true), {"cortex-m4"},
                               "tvm08-lib1-m4", "output", 32);
}

// When lib0.c declares the entry with types, the declaration takes the pool parameter too.
TEST(Tvm08PackedLib1, ATypedDeclarationOfTheEntryTakesThePool) {
  const std::string dir = variant("typed", "(arg0,arg1);", "(void* arg0, void* arg1);");
  const MlfModel m = load_mlf_model(dir);
  const ExportBundle out = testing::replanned_bundle(m, true);
  const std::string& lib0 = out.find(kLib0)->data;
  EXPECT_NE(lib0.find("TVM_DLL int32_t tvmgen_default_run_model(void* arg0, void* arg1, uint8_t* "
                      "global_workspace_0_var);\n__attribute__"),
            std::string::npos)
      << lib0;
  EXPECT_NE(lib0.find(std::string(kCall) + ", ((uint8_t*)&global_workspace));"), std::string::npos) << lib0;
  std::string missing;
  if (selftest_target_available("host", &missing))
    testing::expect_same_outputs(testing::original_with_harness(m), out, {"host"}, "tvm08-lib1-typed", "output", 32);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace usmpx
