// TVM 0.8's AoT output for the C runtime's `tvm_model_t` descriptor, USMP off
// (tests/fixtures/mlf/aot_2021_crt_model): default_lib0.c includes aot_executor.h and
// c_runtime_api.h by a firmware's relative "../../src/standalone_crt/include/..." paths (neither
// is in the input), wraps the entry `tvmgen_default_run_model` of default_lib1.c in a static
// packed `__tvm_main__` and describes it in `const tvm_model_t tvmgen_default_network`. The
// stand-in headers make it parse and build; a re-plan defines the pool in lib0.c before
// `__tvm_main__`, which passes it on; the harness runs tvm_runtime_run(&tvmgen_default_network).
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

const char* const kFixture = "mlf/aot_2021_crt_model";
const char* const kLib0 = "codegen/host/src/default_lib0.c";
const char* const kLib1 = "codegen/host/src/default_lib1.c";
const char* const kRelative = "harness/relative/src/standalone_crt/include/tvm/runtime/";

TEST(Tvm08CrtModel, RelativeRuntimeIncludesReachTheStandInsAndTheEntryIsRead) {
  const MlfModel m = load_mlf_model(fixture_path(kFixture));
  ASSERT_GE(m.code.entry, 0);
  const CFunction& entry = m.program.functions[static_cast<size_t>(m.code.entry)];
  EXPECT_EQ(entry.name, "tvmgen_default_run_model");
  EXPECT_EQ(m.program.files[static_cast<size_t>(entry.range.file)].path, kLib1);
  // No parse error: the descriptor's type and the wrapper's TVMValue and DLTensor come from the
  // stand-ins the relative includes reach; the untyped declaration is a note.
  for (const Diagnostic& d : m.warnings) {
    EXPECT_NE(d.code, "c-parse-error") << d.location.file << ":" << d.location.line << " " << d.message;
    EXPECT_NE(d.code, "c-missing-header") << d.message;
  }
  const CGlobal* network = m.program.find_global("tvmgen_default_network");
  ASSERT_NE(network, nullptr);
  EXPECT_EQ(network->type, "const tvm_model_t");
  EXPECT_EQ(network->type_bytes, 24);  // two size_t and a function pointer (the parse is 64-bit)
  const CFunction* main = m.program.find_function("__tvm_main__");
  ASSERT_NE(main, nullptr);
  EXPECT_TRUE(main->is_static);
  EXPECT_EQ(main->params.size(), 6u);
  ASSERT_EQ(m.problem.buffers.size(), 3u);
  EXPECT_EQ(m.problem.buffers[0].name, "sid_1");
  EXPECT_EQ(m.problem.buffers[1].name, "sid_2");
  EXPECT_EQ(m.problem.buffers[2].name, "T_reverse");
  for (const Buffer& b : m.problem.buffers) {
    EXPECT_EQ(b.size_bytes, 64) << b.name;
    EXPECT_EQ(b.alignment, 16) << b.name;
  }
  EXPECT_FALSE(m.as_built.has_value());
  // The reverse operator reads all of sid_1 into T_reverse before it writes sid_2: sid_1 and
  // sid_2 share their bytes, T_reverse (live with both) does not.
  EXPECT_EQ(testing::plan_with("greedy_by_size", m.problem).total_size(), 128);
}

TEST(Tvm08CrtModel, OriginalBundleHoldsTheInputAndRunsTheDescriptor) {
  const MlfModel m = load_mlf_model(fixture_path(kFixture));
  const ExportBundle bundle = testing::original_with_harness(m);
  testing::expect_bundle_holds_folder(bundle, fixture_path(kFixture), 5);
  const std::string& main = bundle.find("harness/main.c")->data;
  EXPECT_NE(main.find("#include \"tvm/runtime/crt/internal/aot_executor/aot_executor.h\"\n\n"
                      "extern const tvm_model_t tvmgen_default_network;\n"),
            std::string::npos)
      << main;
  EXPECT_NE(main.find("  return (tvm_crt_error_t)model->run_func(values, type_codes, (int)n, NULL, NULL, NULL);\n"),
            std::string::npos);
  EXPECT_NE(main.find("  void* usmpx_inputs[1] = {usmpx_input_0};\n  void* usmpx_outputs[1] = {usmpx_output_0};\n"
                      "  int32_t rc = tvm_runtime_run(&tvmgen_default_network, usmpx_inputs, "
                      "usmpx_outputs);\n"),
            std::string::npos)
      << main;
  EXPECT_NE(main.find("static uint8_t usmpx_input_0[64]"), std::string::npos);
  // The relative includes find headers that include the stand-ins, from an include folder two
  // levels below harness/relative.
  ASSERT_NE(bundle.find(std::string(kRelative) + "c_runtime_api.h"), nullptr);
  EXPECT_EQ(bundle.find(std::string(kRelative) + "c_runtime_api.h")->data, "#include <tvm/runtime/c_runtime_api.h>\n");
  ASSERT_NE(bundle.find(std::string(kRelative) + "crt/internal/aot_executor/aot_executor.h"), nullptr);
  ASSERT_NE(bundle.find("harness/include/tvm/runtime/crt/internal/aot_executor/aot_executor.h"), nullptr);
  EXPECT_NE(bundle.find("harness/Makefile")
                ->data.find("MODEL_INCLUDE_DIRS := $(ROOT)/codegen/host/include "
                            "$(ROOT)/harness/relative/src/standalone_crt\n"),
            std::string::npos)
      << bundle.find("harness/Makefile")->data;
  EXPECT_EQ(selftest_obstacle(bundle, {}), "");
  EXPECT_EQ(choose_selftest_targets(bundle, {}).targets, (std::vector<std::string>{"host"}));
}

TEST(Tvm08CrtModel, ReplanDefinesThePoolBeforeTheWrapperAndKeepsTheDescriptor) {
  const MlfModel m = load_mlf_model(fixture_path(kFixture));
  const ExportBundle out = testing::replanned_bundle(m);
  EXPECT_EQ(out.changed, (std::vector<std::string>{kLib0, kLib1, "codegen/host/usmpx_plan.json",
                                                   "codegen/host/usmpx_pools.ld", "metadata.json"}));
  EXPECT_EQ(out.find("codegen/host/include/tvmgen_default.h"), nullptr);
  const std::string input = read_text_file(fixture_path(kFixture) + "/" + kLib0);
  const std::string& lib0 = out.find(kLib0)->data;
  const std::string declaration = "TVM_DLL int32_t tvmgen_default_run_model(arg0,arg1);\n";
  const std::string pool =
      "__attribute__((section(\".bss.noinit.tvm\"), aligned(16)))\nstatic uint8_t global_workspace[128];\n";
  const std::string call_end = "[1].v_handle))[0].data);\n}\n";
  std::string expected = input;
  expected.insert(expected.find(declaration) + declaration.size(), pool);
  expected.replace(expected.find(call_end), call_end.size(),
                   "[1].v_handle))[0].data, ((uint8_t*)&global_workspace));\n}\n");
  EXPECT_EQ(lib0, expected);
  EXPECT_NE(lib0.find("const tvm_model_t tvmgen_default_network = {\n    .run_func = &__tvm_main__,\n"),
            std::string::npos);
  const std::string& lib1 = out.find(kLib1)->data;
  EXPECT_EQ(lib1.find("TVMBackendAllocWorkspace"), std::string::npos);
  EXPECT_NE(lib1.find("TVM_DLL int32_t tvmgen_default_run_model(void* input, void* output, uint8_t* "
                      "global_workspace_0_var) {\n"
                      "  void* sid_1 = (&(global_workspace_0_var[64]));\n"
                      "  void* sid_2 = (&(global_workspace_0_var[64]));\n"),
            std::string::npos)
      << lib1;
  EXPECT_NE(lib1.find("  void* T_reverse = (&(global_workspace_2_var[0]));\n"), std::string::npos) << lib1;
}

TEST(Tvm08CrtModel, ExportedTreeReadsBackAsBuiltAndExportsItselfByteForByte) {
  const MlfModel m = load_mlf_model(fixture_path(kFixture));
  const ExportBundle out = testing::replanned_bundle(m);
  const fs::path dir = fs::temp_directory_path() / "usmpx-tvm08-crt-again";
  fs::remove_all(dir);
  write_bundle(out, dir.string());
  const MlfModel again = load_mlf_model(dir.string());
  ASSERT_TRUE(again.as_built.has_value());
  Plan as_built = *again.as_built;
  finish_plan(again.problem, as_built);
  EXPECT_TRUE(validate(again.problem, as_built).empty());
  EXPECT_EQ(as_built.total_size(), 128);
  const ExportBundle same = export_mlf(again, again.problem, as_built);
  for (const char* path : {kLib0, kLib1})
    EXPECT_EQ(same.find(path)->data, out.find(path)->data) << path;
  fs::remove_all(dir);
}

TEST(Tvm08CrtModel, SelftestWithNoOptionsComputesTheSameOnTheHost) {
  const MlfModel m = load_mlf_model(fixture_path(kFixture));
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  testing::expect_same_outputs(testing::original_with_harness(m), testing::replanned_bundle(m, true), {"host"},
                               "tvm08-crt-host", "output", 64);
}

TEST(Tvm08CrtModel, SelftestComputesTheSameOnCortexM4) {
  std::string missing;
  if (!selftest_target_available("cortex-m4", &missing)) GTEST_SKIP() << missing << " is not installed";
  const MlfModel m = load_mlf_model(fixture_path(kFixture));
  testing::expect_same_outputs(testing::original_with_harness(m), testing::replanned_bundle(m, true), {"cortex-m4"},
                               "tvm08-crt-m4", "output", 64);
}

// The MLF form includes the headers by their paths under TVM's include folder: the stand-ins in
// harness/include serve them, and nothing goes to harness/relative.
TEST(Tvm08CrtModel, TheMlfIncludePathsBuildToo) {
  const fs::path dir = fs::temp_directory_path() / "usmpx-tvm08-crt-mlf-includes";
  fs::remove_all(dir);
  fs::copy(fixture_path(kFixture), dir, fs::copy_options::recursive);
  std::string lib0 = read_text_file((dir / kLib0).string());
  for (const std::string prefix : {"#include \"", "#include \""}) {
    const size_t at = lib0.find(prefix + "../../src/standalone_crt/include/");
    ASSERT_NE(at, std::string::npos);
    lib0.erase(at + prefix.size(), std::string("../../src/standalone_crt/include/").size());
  }
  write_file_atomically((dir / kLib0).string(), lib0);
  const MlfModel m = load_mlf_model(dir.string());
  for (const Diagnostic& d : m.warnings)
    EXPECT_NE(d.code, "c-parse-error") << d.message;
  const ExportBundle before = testing::original_with_harness(m);
  const ExportBundle after = testing::replanned_bundle(m, true);
  for (const ExportFile& f : after.files)
    EXPECT_NE(f.path.rfind("harness/relative/", 0), 0u) << f.path;
  EXPECT_NE(after.find(kLib0)->data.find("static uint8_t global_workspace[128];\nstatic int32_t __tvm_main__("),
            std::string::npos);
  std::string missing;
  if (selftest_target_available("host", &missing))
    testing::expect_same_outputs(before, after, {"host"}, "tvm08-crt-mlf-includes", "output", 64);
  fs::remove_all(dir);
}

// The fixture as a firmware keeps it: the two C files in one folder, without metadata.json or the
// Relay text (the I/O sizes then come from the code's accesses).
TEST(Tvm08CrtModel, AFirmwareFolderOfTheTwoFilesIsProvenToo) {
  const fs::path dir = fs::temp_directory_path() / "usmpx-tvm08-crt-firmware";
  fs::remove_all(dir);
  fs::create_directories(dir / "model");
  for (const char* path : {kLib0, kLib1})
    fs::copy_file(fs::path(fixture_path(kFixture)) / path, dir / "model" / fs::path(path).filename());
  const MlfModel m = load_mlf_model(dir.string());
  EXPECT_EQ(testing::plan_with("greedy_by_size", m.problem).total_size(), 128);
  const ExportBundle before = testing::original_with_harness(m);
  EXPECT_NE(before.find("harness/main.c")->data.find("static uint8_t usmpx_output_0[64]"), std::string::npos);
  EXPECT_EQ(selftest_obstacle(before, {}), "");
  std::string missing;
  if (selftest_target_available("host", &missing))
    testing::expect_same_outputs(before, testing::replanned_bundle(m, true), {"host"}, "tvm08-crt-firmware", "output",
                                 64);
  fs::remove_all(dir);
}

// With unpacked-api=0 the entry itself takes TVM's packed arguments and lib0.c declares it so:
// that declaration, the entry and __tvm_main__'s call take the pool after the six arguments; the
// harness counts the I/O from the descriptor and sizes them from the Relay signature.
TEST(Tvm08CrtModel, APackedEntryTakesThePoolAfterItsSixArguments) {
  const fs::path dir = fs::temp_directory_path() / "usmpx-tvm08-crt-packed-entry";
  fs::remove_all(dir);
  fs::copy(fixture_path(kFixture), dir, fs::copy_options::recursive);
  const auto edit = [&](const std::string& path, const std::string& from, const std::string& to) {
    std::string text = read_text_file((dir / path).string());
    const size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    write_file_atomically((dir / path).string(), text);
  };
  const std::string packed =
      "(void* args, void* type_code, int num_args, void* out_value, void* out_type_code, void* resource_handle";
  edit(kLib0, "(arg0,arg1);", packed + ");");
  edit(kLib0,
       "(((DLTensor*)(((TVMValue*)args)[0].v_handle))[0].data,((DLTensor*)(((TVMValue*)args)[1].v_handle))[0].data);",
       "(args, type_code, num_args, out_value, out_type_code, resource_handle);");
  edit(kLib1, "tvmgen_default_run_model(void* input, void* output) {\n",
       "tvmgen_default_run_model(void* args, void* arg_type_ids, int32_t num_args, void* out_ret_value, void* "
       "out_ret_tcode, void* resource_handle) {\n"
       "  void* arg0 = (((TVMValue*)args)[0].v_handle);\n  void* arg1 = (((TVMValue*)args)[1].v_handle);\n"
       "  void* input = (((DLTensor*)arg0)[0].data);\n  void* output = (((DLTensor*)arg1)[0].data);\n");
  {
    // Without the Relay text's result type nothing sizes the output (the packed entry reads it
    // through a DLTensor): refused before compiling, naming it.
    const MlfModel unsized = load_mlf_model(dir.string());
    EXPECT_EQ(selftest_obstacle(testing::original_with_harness(unsized), {}),
              "the size of output output is stated nowhere in the input (metadata.json, the interface header, the "
              "Relay text's result type) and the code's accesses do not show it: nothing could be compared; give "
              "the MLF with its metadata.json or src/relay.txt");
  }
  edit("src/relay.txt", ") {\n", ") -> Tensor[(1, 16), float32] {\n");
  const MlfModel m = load_mlf_model(dir.string());
  const ExportBundle before = testing::original_with_harness(m);
  const ExportBundle after = testing::replanned_bundle(m, true);
  const std::string& lib0 = after.find(kLib0)->data;
  EXPECT_NE(lib0.find("TVM_DLL int32_t tvmgen_default_run_model" + packed +
                      ", uint8_t* global_workspace_0_var);\n__attribute__"),
            std::string::npos)
      << lib0;
  EXPECT_NE(lib0.find("return tvmgen_default_run_model(args, type_code, num_args, out_value, out_type_code, "
                      "resource_handle, ((uint8_t*)&global_workspace));"),
            std::string::npos)
      << lib0;
  EXPECT_NE(after.find(kLib1)->data.find("void* resource_handle, uint8_t* global_workspace_0_var) {\n"),
            std::string::npos);
  const std::string& main = before.find("harness/main.c")->data;
  EXPECT_NE(main.find("static uint8_t usmpx_input_0[64]"), std::string::npos) << main;
  EXPECT_NE(main.find("static uint8_t usmpx_output_0[64]"), std::string::npos) << main;
  EXPECT_NE(main.find("printf(\"output output 64 "), std::string::npos) << main;
  EXPECT_EQ(selftest_obstacle(before, {}), "");
  std::string missing;
  if (selftest_target_available("host", &missing))
    testing::expect_same_outputs(before, after, {"host"}, "tvm08-crt-packed-entry", "output", 64);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace usmpx
