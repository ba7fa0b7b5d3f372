// Export of MLF models: unchanged plans give unchanged files, re-plans rewrite exactly the lines
// the plan touches, and an export loads back with its plan as the as-built plan.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "base/archive_reader.h"
#include "export/bundle_writer.h"
#include "export/export_error.h"
#include "frontends/tvm/export/mlf_export.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;
using testing::fixture_path;
using testing::plan_with;

Plan as_built(const MlfModel& m) {
  EXPECT_TRUE(m.as_built.has_value());
  Plan plan = *m.as_built;
  finish_plan(m.problem, plan);
  return plan;
}

ArchiveContents folder_files(const std::string& path) {
  return read_folder(path, [](std::string_view) { return true; });
}

std::string temp_dir(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("usmpx-export-test-" + name);
  fs::remove_all(p);
  return p.string();
}

// The lines of `after` that differ from `before` (same line count assumed by the callers).
std::vector<std::string> changed_lines(const std::string& before, const std::string& after) {
  std::vector<std::string> a, b, out;
  std::istringstream ia(before), ib(after);
  for (std::string l; std::getline(ia, l);)
    a.push_back(l);
  for (std::string l; std::getline(ib, l);)
    b.push_back(l);
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    const std::string x = i < a.size() ? a[i] : "<none>";
    const std::string y = i < b.size() ? b[i] : "<none>";
    if (x != y) out.push_back(y);
  }
  return out;
}

TEST(MlfExport, AsBuiltPlanReproducesEveryFileOfBothUsmpFixtures) {
  for (const char* fixture : {"mlf/usmp_default_pools", "mlf/usmp_external_pools"}) {
    SCOPED_TRACE(fixture);
    const MlfModel m = load_mlf_model(fixture_path(fixture));
    const ExportBundle bundle = export_mlf(m, m.problem, as_built(m));
    const ArchiveContents original = folder_files(fixture_path(fixture));
    for (const ArchiveFile& f : original.files) {
      const ExportFile* out = bundle.find(f.path);
      ASSERT_NE(out, nullptr) << f.path;
      EXPECT_EQ(out->data, f.data) << f.path;
    }
    // Only the two files the export adds beside the sources are new.
    EXPECT_EQ(bundle.changed,
              (std::vector<std::string>{"codegen/host/usmpx_plan.json", "codegen/host/usmpx_pools.ld"}));
  }
}

TEST(MlfExport, HillClimbChangesOnlyTheOffsetsAndSizes) {
  const MlfModel m = load_mlf_model(fixture_path("mlf/usmp_default_pools"));
  const Plan plan = plan_with("hill_climb", m.problem);
  ASSERT_EQ(plan.total_size(), 440);  // 312 of constants + 128 of workspace = the lower bound
  const ExportBundle bundle = export_mlf(m, m.problem, plan);
  const ArchiveContents original = folder_files(fixture_path("mlf/usmp_default_pools"));
  EXPECT_EQ(changed_lines(original.find("codegen/host/src/default_lib1.c")->data,
                          bundle.find("codegen/host/src/default_lib1.c")->data),
            (std::vector<std::string>{"  void* PaddedInput_let = (&(global_workspace_5_var[0]));",
                                      "  void* sid_1_let = (&(global_workspace_1_var[48]));"}));
  EXPECT_EQ(changed_lines(original.find("codegen/host/src/default_lib0.c")->data,
                          bundle.find("codegen/host/src/default_lib0.c")->data),
            (std::vector<std::string>{"static uint8_t global_workspace[128];"}));
  EXPECT_EQ(changed_lines(original.find("codegen/host/include/tvmgen_default.h")->data,
                          bundle.find("codegen/host/include/tvmgen_default.h")->data),
            (std::vector<std::string>{"#define TVMGEN_DEFAULT_WORKSPACE_SIZE 128"}));
  EXPECT_EQ(changed_lines(original.find("metadata.json")->data, bundle.find("metadata.json")->data),
            (std::vector<std::string>{"              \"workspace_size_bytes\": 128"}));
}

TEST(MlfExport, ConstantsMovedToAnExternalPoolTravelAsHeaderData) {
  PoolOptions options;
  options.constant_pools = {"flash"};
  const MlfModel m = load_mlf_model(fixture_path("mlf/usmp_default_pools"), {options, ""});
  const Plan plan = plan_with("greedy_by_size", m.problem);
  const ExportBundle bundle = export_mlf(m, m.problem, plan);
  const std::string& header = bundle.find("codegen/host/include/tvmgen_default.h")->data;
  EXPECT_NE(header.find("struct tvmgen_default_workspace_pools {\n  void* flash;\n};"), std::string::npos);
  EXPECT_NE(header.find("#define TVMGEN_DEFAULT_FLASH_CONSTANT_POOL_SIZE 312\n"
                        "#define TVMGEN_DEFAULT_FLASH_CONSTANT_POOL_DATA \\\n"
                        // fused_constant_2_let (greedy_by_size puts the largest first) begins -0.375f, 0.0625f
                        "    0x00, 0x00, 0xc0, 0xbe, 0x00, 0x00, 0x80, 0x3d,"),
            std::string::npos);
  const std::string& lib0 = bundle.find("codegen/host/src/default_lib0.c")->data;
  EXPECT_EQ(lib0.find("global_const_workspace"), std::string::npos);
  EXPECT_NE(lib0.find("TVM_DLL int32_t tvmgen_default___tvm_main__(void* input,void* output0,uint8_t* flash_0_var,"
                      "uint8_t* global_workspace_1_var);"),
            std::string::npos);
}

TEST(MlfExport, UsmpOffLetscopeBecomesPoolOffsets) {
  USMPX_REQUIRE_SHARED(tar, "mlf/letscope_v7.tar");
  const MlfModel m = load_mlf_model(tar);
  const Plan plan = plan_with("greedy_by_size", m.problem);
  const ExportBundle bundle = export_mlf(m, m.problem, plan);
  const std::string& lib1 = bundle.find("codegen/host/src/default_lib1.c")->data;
  EXPECT_EQ(lib1.find("TVMBackendAllocWorkspace"), std::string::npos);
  EXPECT_EQ(lib1.find("TVMBackendFreeWorkspace"), std::string::npos);
  EXPECT_NE(lib1.find("TVM_DLL int32_t tvmgen_default___tvm_main__(int8_t* serving_default_input_1_0_buffer_var, "
                      "int8_t* StatefulPartitionedCall_0_buffer_var, uint8_t* global_workspace_0_var) {\n"
                      "  void* sid_1 = (&(global_workspace_0_var[2048]));\n"
                      "  void* sid_2 = (&(global_workspace_0_var[2048]));\n"
                      "  void* sid_3 = (&(global_workspace_0_var[2048]));\n"
                      "  if (tvmgen_default_fused_reshape(serving_default_input_1_0_buffer_var, sid_1, "
                      "global_workspace_0_var) != 0 ) return -1;"),
            std::string::npos);
  // The operators get their parameters in first-call order: reshape is called first.
  EXPECT_NE(lib1.find("tvmgen_default_fused_reshape(int8_t* p0, int8_t* T_reshape, uint8_t* global_workspace_1_var)"),
            std::string::npos);
  const std::string& lib0 = bundle.find("codegen/host/src/default_lib0.c")->data;
  EXPECT_NE(
      lib0.find("__attribute__((section(\".bss.noinit.tvm\"), aligned(16)))\nstatic uint8_t global_workspace[2560];\n"),
      std::string::npos);
  EXPECT_NE(lib0.find("return tvmgen_default___tvm_main__(inputs->serving_default_input_1_0,"
                      "outputs->StatefulPartitionedCall_0,((uint8_t*)&global_workspace));"),
            std::string::npos);
  // metadata.json: both dense operators' 2048-byte workspaces are now in the pool.
  const std::string& meta = bundle.find("metadata.json")->data;
  EXPECT_NE(meta.find("\"workspace_size_bytes\": 2576"), std::string::npos);  // 16 (dense__2) + 2560
  // Everything else of the archive is carried over unchanged (the CRT, templates, parameters).
  EXPECT_EQ(bundle.files.size(), m.package->contents.members.size() + 2);
}

TEST(MlfExport, ExportLoadsBackWithItsPlanAsBuilt) {
  USMPX_REQUIRE_SHARED(tar, "mlf/letscope_v7.tar");
  PoolOptions options;
  options.workspace_pools = {"dtcm", "sram"};
  options.workspace_size_hints = {{"dtcm", 2048}};
  for (const char* algorithm : {"greedy_by_size", "greedy_by_conflicts", "hill_climb"}) {
    SCOPED_TRACE(algorithm);
    const MlfModel m = load_mlf_model(tar, {options, ""});
    const Plan plan = plan_with(algorithm, m.problem);
    ASSERT_FALSE(plan.has_errors());
    const std::string out = temp_dir(std::string("roundtrip-") + algorithm) + ".tar";
    write_bundle(export_mlf(m, m.problem, plan), out, {true});
    const MlfModel back = load_mlf_model(out);
    ASSERT_TRUE(back.as_built.has_value());
    ASSERT_EQ(back.problem.buffers.size(), m.problem.buffers.size());
    for (size_t b = 0; b < m.problem.buffers.size(); ++b) {
      const std::string& name = m.problem.buffers[b].name;
      const auto i = back.problem.find_buffer(name);
      ASSERT_TRUE(i.has_value()) << name;
      EXPECT_EQ(back.problem.buffers[static_cast<size_t>(*i)].size_bytes, m.problem.buffers[b].size_bytes) << name;
      const Allocation& a = back.as_built->allocations[static_cast<size_t>(*i)];
      EXPECT_EQ(back.problem.pools[static_cast<size_t>(a.pool)].name,
                m.problem.pools[static_cast<size_t>(plan.allocations[b].pool)].name)
          << name;
      EXPECT_EQ(a.offset, plan.allocations[b].offset) << name;
    }
    fs::remove(out);
  }
}

TEST(MlfExport, RefusesPlansThatDoNotFitOrAreIncomplete) {
  PoolOptions options;
  options.workspace_pools = {"sram"};
  options.workspace_size_hints = {{"sram", 64}};
  const MlfModel m = load_mlf_model(fixture_path("mlf/usmp_default_pools"), {options, ""});
  const Plan plan = plan_with("greedy_by_size", m.problem);
  ASSERT_TRUE(plan.has_errors());
  try {
    export_mlf(m, m.problem, plan);
    FAIL() << "exported a plan that does not fit";
  } catch (const ExportError& e) {
    EXPECT_NE(std::string(e.what()).find("the plan cannot be exported"), std::string::npos) << e.what();
  }
  Plan partial = plan_with("greedy_by_size", load_mlf_model(fixture_path("mlf/usmp_default_pools")).problem);
  partial.allocations[0] = {};
  const MlfModel d = load_mlf_model(fixture_path("mlf/usmp_default_pools"));
  EXPECT_THROW(export_mlf(d, d.problem, partial), ExportError);
}

TEST(MlfExport, PoolNamesAndSectionsMustBeSafeInCAndLinkerScripts) {
  MlfModel m = load_mlf_model(fixture_path("mlf/usmp_default_pools"));
  Problem problem = m.problem;
  problem.pools[*problem.find_pool("global_workspace")].section = ".sram\")));evil";
  const Plan plan = plan_with("greedy_by_size", problem);
  try {
    export_mlf(m, problem, plan);
    FAIL() << "exported a section name that breaks out of the attribute";
  } catch (const ExportError& e) {
    EXPECT_NE(std::string(e.what()).find("linker section '.sram\")));evil' of pool 'global_workspace' may hold only"),
              std::string::npos)
        << e.what();
  }
  problem.pools[*problem.find_pool("global_workspace")].section = ".sram_bss";
  problem.pools[*problem.find_pool("global_workspace")].name = "fast ram";
  EXPECT_THROW(export_mlf(m, problem, plan_with("greedy_by_size", problem)), ExportError);
}

TEST(MlfExport, ModelsWithoutRunWrapperGetOneInANewLibraryFile) {
  USMPX_REQUIRE_SHARED(tar, "mlf/sine_aot_v5.tar");
  const MlfModel m = load_mlf_model(tar);
  const ExportBundle bundle = export_mlf(m, m.problem, plan_with("greedy_by_size", m.problem));
  const ExportFile* lib1 = bundle.find("codegen/host/src/default_lib1.c");
  ASSERT_NE(lib1, nullptr);
  EXPECT_NE(lib1->data.find("static uint8_t global_workspace[1152];"), std::string::npos);
  EXPECT_NE(lib1->data.find("TVM_DLL int32_t tvmgen_default_run_model(void* dense_4_input,void* output0,"
                            "uint8_t* global_workspace_0_var);"),
            std::string::npos);
  ASSERT_FALSE(bundle.notes.empty());
  EXPECT_NE(bundle.notes[0].message.find("codegen/host/src/default_lib1.c"), std::string::npos);
  // The v0.8 header keeps its style: no I/O size macros, no blank after the workspace brief.
  const std::string& header = bundle.find("codegen/host/include/tvmgen_default.h")->data;
  EXPECT_EQ(header.find("_SIZE 4"), std::string::npos);
  EXPECT_NE(
      header.find(" * \\brief Workspace size for TVM module \"default\"\n */\n#define TVMGEN_DEFAULT_WORKSPACE_SIZE "),
      std::string::npos);
}

}  // namespace
}  // namespace usmpx
