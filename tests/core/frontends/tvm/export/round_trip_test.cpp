// Round trips are exact: an export changes only the bytes the plan changes. On a TVM 0.16-style
// model with `restrict` prototypes, an external codegen declared with unnamed parameters, pool
// variables not numbered in call order and a metadata.json whose workspace figure TVM computed its
// own way: as-built writes every file back byte for byte; a re-plan changes let offsets, pool
// sizes and the figures that hold them, nothing else, and computes what the input computes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/archive_reader.h"
#include "frontends/tvm/export/emit/metadata_update.h"
#include "frontends/tvm/export/harness/tvm_selftest.h"
#include "frontends/tvm/export/mlf_export.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;
using testing::fixture_path;
using testing::plan_with;

constexpr const char* kModel = "mlf/usmp_tvm016_external";

ArchiveContents original_files() {
  return read_folder(fixture_path(kModel), [](std::string_view) { return true; });
}

Plan as_built(const MlfModel& m) {
  Plan plan = *m.as_built;
  finish_plan(m.problem, plan);
  return plan;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    out.push_back(l);
  return out;
}

// The lines of `after` that differ from `before`, which must have as many lines.
std::vector<std::string> changed_lines(const std::string& before, const std::string& after) {
  const std::vector<std::string> a = lines(before);
  const std::vector<std::string> b = lines(after);
  EXPECT_EQ(a.size(), b.size());
  std::vector<std::string> out;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] != b[i]) out.push_back(b[i]);
  }
  return out;
}

// Every prototype and definition line TVM wrote, which no plan over the same pools may change.
const std::vector<std::string> kSignatures = {
    "TVM_DLL int32_t tvmgen_default_ext_main_0(int8_t*, int8_t*, int8_t*, uint8_t*, uint8_t*);",
    "TVM_DLL int32_t tvmgen_default_ext_main_1(int8_t*, int8_t*, int8_t*, uint8_t*, uint8_t*);",
    "TVM_DLL int32_t tvmgen_default_fused_relu(int8_t* restrict p0, int8_t* restrict T_relu, uint8_t* restrict "
    "global_const_workspace_4_var, uint8_t* restrict global_workspace_5_var);",
    "TVM_DLL int32_t tvmgen_default_fused_tile(int8_t* restrict p0, int8_t* restrict T_tile, uint8_t* restrict "
    "global_const_workspace_2_var, uint8_t* restrict global_workspace_3_var);",
    "TVM_DLL int32_t tvmgen_default___tvm_main__(int8_t* restrict input_buffer_var, int8_t* restrict "
    "output_buffer_var, uint8_t* restrict global_const_workspace_0_var, uint8_t* restrict global_workspace_1_var);",
};

TEST(RoundTrip, AsBuiltWritesEveryFileBackByteForByte) {
  const MlfModel m = load_mlf_model(fixture_path(kModel));
  ASSERT_TRUE(m.as_built.has_value());
  const Plan plan = as_built(m);
  EXPECT_EQ(plan.pool_sizes, (std::vector<int64_t>{32, 80}));
  const ExportBundle bundle = export_mlf(m, m.problem, plan);
  const ArchiveContents original = original_files();
  ASSERT_EQ(original.files.size(), 6u);
  for (const ArchiveFile& f : original.files) {
    const ExportFile* out = bundle.find(f.path);
    ASSERT_NE(out, nullptr) << f.path;
    EXPECT_EQ(out->data, f.data) << f.path;
  }
  EXPECT_EQ(bundle.changed, (std::vector<std::string>{"codegen/host/usmpx_plan.json", "codegen/host/usmpx_pools.ld"}));
}

TEST(RoundTrip, ReplanChangesOnlyOffsetsSizesAndTheirFigures) {
  const MlfModel m = load_mlf_model(fixture_path(kModel));
  const Plan plan = plan_with("best", m.problem);
  ASSERT_FALSE(plan.has_errors());
  ASSERT_EQ(plan.pool_sizes, (std::vector<int64_t>{32, 64}));  // TVM's greedy_by_size left 16 bytes over
  const ExportBundle bundle = export_mlf(m, m.problem, plan);
  const ArchiveContents original = original_files();
  const auto before = [&](const std::string& p) { return original.find(p)->data; };
  const auto after = [&](const std::string& p) { return bundle.find(p)->data; };
  const std::string lib1 = "codegen/host/src/default_lib1.c";
  // Only let lines change in the host module, and every signature is TVM's, byte for byte.
  const std::vector<std::string> lets = changed_lines(before(lib1), after(lib1));
  EXPECT_FALSE(lets.empty());
  for (const std::string& l : lets)
    EXPECT_EQ(l.rfind("  void* ", 0), 0u) << l;
  const std::vector<std::string> out = lines(after(lib1));
  for (const std::string& signature : kSignatures)
    EXPECT_EQ(std::count(out.begin(), out.end(), signature), 1) << signature;
  const std::string definition = kSignatures[2].substr(0, kSignatures[2].size() - 1) + " {";
  EXPECT_EQ(std::count(out.begin(), out.end(), definition), 1);
  // The calls still pass TVM's pool variables.
  EXPECT_NE(after(lib1).find("if (tvmgen_default_ext_main_0(input_buffer_var, constant_0_let, sid_1_let, "
                             "global_const_workspace_0_var, global_workspace_1_var) != 0 ) return -1;"),
            std::string::npos);
  // The external codegen's file is not touched.
  EXPECT_EQ(after("codegen/host/src/default_lib2.c"), before("codegen/host/src/default_lib2.c"));
  EXPECT_EQ(
      changed_lines(before("codegen/host/include/tvmgen_default.h"), after("codegen/host/include/tvmgen_default.h")),
      (std::vector<std::string>{"#define TVMGEN_DEFAULT_WORKSPACE_SIZE 64"}));
  // metadata.json: main's figure moves by what the plan saves (80 -> 64); the operator's 32 stays.
  EXPECT_EQ(changed_lines(before("metadata.json"), after("metadata.json")),
            (std::vector<std::string>{"              \"workspace_size_bytes\": 64"}));
  EXPECT_NE(after("metadata.json").find("\"workspace_size_bytes\": 32"), std::string::npos);
  EXPECT_NE(after("codegen/host/src/default_lib0.c").find("static uint8_t global_workspace[64];"), std::string::npos);
}

// Builds the input and the re-planned export on the host and runs both on the same inputs.
void expect_same_outputs(const MlfModel& m, const Plan& plan, const std::string& name) {
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  ExportOptions options;
  options.harness = true;
  const fs::path work = fs::temp_directory_path() / ("usmpx-round-trip-" + name);
  fs::remove_all(work);
  const auto results =
      run_selftest(mlf_original_bundle(m, options), export_mlf(m, m.problem, plan, options), {"host"}, work.string());
  fs::remove_all(work);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].same) << results[0].verdict << results[0].original.log << results[0].replanned.log;
  ASSERT_EQ(results[0].replanned.outputs.size(), 1u);
}

TEST(RoundTrip, ReplannedSourcesCompileAndComputeTheSame) {
  const MlfModel m = load_mlf_model(fixture_path(kModel));
  expect_same_outputs(m, plan_with("best", m.problem), "best");
}

TEST(RoundTrip, OtherPoolsKeepTvmsNumbersQualifiersAndUnnamedPrototypes) {
  PoolOptions options;
  options.workspace_pools = {"sram"};
  const MlfModel m = load_mlf_model(fixture_path(kModel), {options, ""});
  const Plan plan = plan_with("greedy_by_size", m.problem);
  ASSERT_FALSE(plan.has_errors());
  const ExportBundle bundle = export_mlf(m, m.problem, plan);
  const std::string& lib1 = bundle.find("codegen/host/src/default_lib1.c")->data;
  const std::vector<std::string> out = lines(lib1);
  for (const std::string& expected :
       {kSignatures[0], kSignatures[1],
        std::string("TVM_DLL int32_t tvmgen_default_fused_relu(int8_t* restrict p0, int8_t* restrict T_relu, uint8_t* "
                    "restrict global_const_workspace_4_var, uint8_t* restrict sram_5_var);"),
        std::string("  void* T_pad_let = (&(sram_5_var[32]));")})
    EXPECT_EQ(std::count(out.begin(), out.end(), expected), 1) << expected;
  EXPECT_NE(bundle.find("codegen/host/src/default_lib2.c")
                ->data.find("TVM_DLL int32_t tvmgen_default_ext_main_0(int8_t* input_, int8_t* addend_, int8_t* "
                            "output_, uint8_t* global_const_workspace_6_var, uint8_t* sram_7_var) {"),
            std::string::npos);
  expect_same_outputs(m, plan, "sram");
}

std::string replaced(const fs::path& file, const std::string& from, const std::string& to) {
  std::stringstream text;
  text << std::ifstream(file, std::ios::binary).rdbuf();
  std::string s = text.str();
  const size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  std::ofstream(file, std::ios::binary) << s;
  return to;
}

TEST(RoundTrip, ExternalFunctionsTvmGaveNoPoolsKeepTheirSignatures) {
  // As ESP-DL's tvmgen_<mod>_esp_main_N: the external function takes no pool parameters at all.
  const fs::path dir = fs::temp_directory_path() / "usmpx-round-trip-no-pools";
  fs::remove_all(dir);
  fs::copy(fixture_path(kModel), dir, fs::copy_options::recursive);
  const fs::path lib1 = dir / "codegen/host/src/default_lib1.c";
  const fs::path lib2 = dir / "codegen/host/src/default_lib2.c";
  const std::string prototype =
      replaced(lib1, kSignatures[0], "TVM_DLL int32_t tvmgen_default_ext_main_0(int8_t*, int8_t*, int8_t*);");
  const std::string call = replaced(lib1,
                                    "tvmgen_default_ext_main_0(input_buffer_var, constant_0_let, sid_1_let, "
                                    "global_const_workspace_0_var, global_workspace_1_var)",
                                    "tvmgen_default_ext_main_0(input_buffer_var, constant_0_let, sid_1_let)");
  const std::string definition =
      replaced(lib2, "int8_t* output_, uint8_t* global_const_workspace_6_var, uint8_t* global_workspace_7_var) {",
               "int8_t* output_) {");
  for (const bool other_pools : {false, true}) {
    SCOPED_TRACE(other_pools ? "--workspace-pools sram" : "best");
    PoolOptions options;
    if (other_pools) options.workspace_pools = {"sram"};
    const MlfModel m = load_mlf_model(dir.string(), {options, ""});
    const Plan plan = plan_with(other_pools ? "greedy_by_size" : "best", m.problem);
    const ExportBundle bundle = export_mlf(m, m.problem, plan);
    const std::string& out1 = bundle.find("codegen/host/src/default_lib1.c")->data;
    EXPECT_NE(out1.find(prototype), std::string::npos);
    EXPECT_NE(out1.find(call), std::string::npos);
    EXPECT_NE(bundle.find("codegen/host/src/default_lib2.c")->data.find(definition), std::string::npos);
    expect_same_outputs(m, plan, other_pools ? "no-pools-sram" : "no-pools-best");
  }
  fs::remove_all(dir);
}

TEST(RoundTrip, MetadataNumbersAreEditedInPlace) {
  // Not TVM's formatting: only the digits of the changed figure may differ.
  const std::string meta =
      "{\"version\": 7, \"modules\": {\"default\": {\"memory\": {\"functions\": {\"main\": [{\"device\": 1, "
      "\"workspace_size_bytes\": 80,   \"constants_size_bytes\": 32}], \"operator_functions\": []}}}}}";
  MetadataMemory m;
  m.workspace_size_bytes = 80;
  m.constants_size_bytes = 32;
  EXPECT_EQ(update_metadata_json(meta, "default", m), meta);
  m.workspace_size_bytes = 1024;
  std::string expected = meta;
  expected.replace(expected.find("80,"), 2, "1024");
  EXPECT_EQ(update_metadata_json(meta, "default", m), expected);
}

}  // namespace
}  // namespace usmpx
