// What selftest cannot build from what the input holds is refused before anything is compiled,
// with one line naming it (tests/fixtures/mlf/selftest_refusals); --kernels DIR supplies vendor
// kernels; the targets follow the code (Arm intrinsics: the emulated boards); TVM 0.8-era AOT
// outputs without tvmgen_<mod>.h build.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "base/text_file.h"
#include "export/export_error.h"
#include "frontends/tvm/export/harness/code_needs.h"
#include "frontends/tvm/export/harness/tvm_selftest.h"
#include "frontends/tvm/export/mlf_export.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;
using testing::fixture_path;

ExportBundle original_of(const std::string& fixture) {
  const MlfModel m = load_mlf_model(fixture_path(fixture));
  ExportOptions eo;
  eo.harness = true;
  return mlf_original_bundle(m, eo);
}

// The refusal run_selftest throws, and that it left no build folder behind.
std::string refusal(const ExportBundle& bundle, const std::string& name, const SelftestOptions& options = {}) {
  const fs::path work = fs::temp_directory_path() / ("usmpx-selftest-refusal-" + name);
  fs::remove_all(work);
  std::string what;
  try {
    run_selftest(bundle, bundle, {"host"}, work.string(), options);
  } catch (const ExportError& e) {
    what = e.what();
  }
  EXPECT_FALSE(fs::exists(work)) << "something was written or compiled for " << name;
  return what;
}

TEST(SelftestRefusals, AModelWithoutLib0NamesTheEntryAndThePools) {
  const ExportBundle bundle = original_of("mlf/selftest_refusals/no_lib0");
  const std::string line =
      "the model has no lib0.c: its entry function tvmgen_default_run and the pools it passes to "
      "tvmgen_default___tvm_main__ are defined in none of its sources (default_lib1.c); give the whole "
      "codegen/host/src TVM wrote";
  EXPECT_EQ(selftest_obstacle(bundle, {}), line);
  EXPECT_EQ(refusal(bundle, "no-lib0"), "selftest cannot run this model: " + line);
}

TEST(SelftestRefusals, VendorKernelsAreNamedAndKernelsDirSuppliesThem) {
  const ExportBundle bundle = original_of("mlf/selftest_refusals/esp_dl_kernels");
  const std::string line =
      "default_lib2.c calls esp_dl_nn_relu_f32, esp_dl_nn_leaky_relu_f32 (defined nowhere in the model) and "
      "includes esp_dl_nn.h (not in the model): vendor kernels; give their sources and headers with --kernels DIR "
      "(DIR/*.c, headers in DIR or DIR/include)";
  EXPECT_EQ(selftest_obstacle(bundle, {}), line);
  EXPECT_EQ(refusal(bundle, "esp-dl"), "selftest cannot run this model: " + line);

  SelftestOptions with;
  with.kernels = fixture_path("mlf/selftest_refusals/esp_dl_kernels_src");
  EXPECT_EQ(selftest_obstacle(bundle, with), "");
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  const MlfModel m = load_mlf_model(fixture_path("mlf/selftest_refusals/esp_dl_kernels"));
  const Plan plan = testing::plan_with("hill_climb", m.problem);
  ASSERT_FALSE(plan.has_errors());
  ExportOptions eo;
  eo.harness = true;
  const fs::path work = fs::temp_directory_path() / "usmpx-selftest-kernels-dir";
  fs::remove_all(work);
  const auto results = run_selftest(bundle, export_mlf(m, m.problem, plan, eo), {"host"}, work.string(), with);
  fs::remove_all(work);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].same) << results[0].verdict << results[0].original.log << results[0].replanned.log;
  ASSERT_EQ(results[0].replanned.outputs.size(), 1u);
  EXPECT_EQ(results[0].replanned.outputs[0].second.substr(0, 3), "16 ");  // the dense layer's 4 floats
}

TEST(SelftestRefusals, APoolFromAVendorSdkHeapNamesTheCall) {
  const ExportBundle bundle = original_of("mlf/selftest_refusals/esp_idf_heap");
  const std::string line =
      "default_lib0.c allocates its pools with heap_caps_malloc (ESP-IDF's heap API), which the harness's "
      "bare-metal C library does not have; selftest builds the lib0.c TVM writes (static pools)";
  EXPECT_EQ(selftest_obstacle(bundle, {}), line);
  EXPECT_EQ(refusal(bundle, "esp-idf"), "selftest cannot run this model: " + line);
}

TEST(SelftestRefusals, AHeaderNothingHoldsAndACmsisNnFunctionTheBuiltInKernelsLack) {
  ExportBundle bundle = original_of("mlf/usmp_cmsis_nn");
  ASSERT_EQ(selftest_obstacle(bundle, {}), "");
  ExportBundle header = bundle;
  header.put("codegen/host/src/default_lib1.c",
             "#include \"board_config.h\"\n" + header.find("codegen/host/src/default_lib1.c")->data);
  EXPECT_EQ(selftest_obstacle(header, {}),
            "default_lib1.c includes board_config.h, which neither the model nor the harness holds: give it with "
            "--kernels DIR (headers in DIR or DIR/include)");
  ExportBundle kernel = bundle;
  std::string lib2 = kernel.find("codegen/host/src/default_lib2.c")->data;
  lib2 += "int32_t f(int8_t* x) { return arm_convolve_1x1_s8_fast(0, 0, 0, 0, x, 0, 0, 0, 0, 0, x); }\n";
  kernel.put("codegen/host/src/default_lib2.c", lib2);
  EXPECT_EQ(selftest_obstacle(kernel, {}),
            "default_lib2.c calls arm_convolve_1x1_s8_fast, CMSIS-NN functions the built-in kernels do not have: "
            "give a CMSIS-NN checkout with --cmsis-nn DIR");
}

TEST(SelftestTargets, PortableCRunsOnTheHostArmIntrinsicsOnTheBoards) {
  const ExportBundle portable = original_of("mlf/usmp_default_pools");
  const SelftestTargets host = choose_selftest_targets(portable, {});
  EXPECT_EQ(host.targets, (std::vector<std::string>{"host"}));
  EXPECT_EQ(host.reason, "portable C: no Arm intrinsics, arm_acle.h or CMSIS headers");

  // An operator using the SIMD byte intrinsics TVM's Cortex-M schedules call; the host's
  // arm_acle.h stand-in has neither.
  const std::string lib1 = "codegen/host/src/default_lib1.c";
  ExportBundle dsp = portable;
  dsp.put(lib1, "#include <arm_acle.h>\n" + portable.find(lib1)->data +
                    "int32_t tvmgen_default_max8(int32_t a, int32_t b) { __ssub8(a, b); return __sel(a, b); }\n");
  const CodeNeeds needs = analyse_code_needs(dsp, {});
  EXPECT_EQ(needs.arm_intrinsics, (std::vector<std::string>{"__ssub8", "__sel"}));
  EXPECT_FALSE(needs.host_covers_arm);
  // Names like TIR's __tvm_main__, and functions the model defines itself, are not intrinsics.
  ExportBundle own = portable;
  own.put(lib1, portable.find(lib1)->data +
                    "int32_t __tvm_main__(void) { return 0; }\nint32_t __rotate(int32_t a) { return a; }\n"
                    "int32_t h(void) { return __tvm_main__() + __rotate(1); }\n");
  EXPECT_TRUE(analyse_code_needs(own, {}).arm_intrinsics.empty());
  EXPECT_EQ(choose_selftest_targets(own, {}).targets, (std::vector<std::string>{"host"}));

  // Intrinsics the host stand-in defines are covered there (the fallback without the boards' tools).
  ExportBundle smlad = portable;
  smlad.put(lib1, portable.find(lib1)->data + "int32_t g(int32_t a, int32_t b) { return __smlad(a, b, 0); }\n");
  EXPECT_TRUE(analyse_code_needs(smlad, {}).host_covers_arm);

  std::string missing;
  if (!selftest_target_available("cortex-m4", &missing)) GTEST_SKIP() << missing << " is not installed";
  const SelftestTargets boards = choose_selftest_targets(dsp, {});
  EXPECT_EQ(boards.targets, (std::vector<std::string>{"cortex-m4", "cortex-m7"}));
  EXPECT_EQ(boards.reason,
            "default_lib1.c calls Arm intrinsics (__ssub8, __sel): the emulated Cortex-M boards run them");
}

TEST(SelftestTargets, CmsisCoreIntrinsicsFromTheSupportHeaderBuildOnTheBoardsAndTheHost) {
  // TVM-style C that includes arm_nnsupportfunctions.h and calls CMSIS-Core's __SMLAD: the built-in
  // header maps it on the ACLE intrinsic (the toolchain's on the boards, the C stand-in on the host).
  const fs::path dir = fs::temp_directory_path() / "usmpx-selftest-cmsis-core";
  fs::remove_all(dir);
  fs::copy(fixture_path("mlf/usmp_cmsis_nn"), dir, fs::copy_options::recursive);
  const fs::path lib2 = dir / "codegen/host/src/default_lib2.c";
  std::string text = read_text_file(lib2.string());
  const std::string include = "#include <arm_nn_math_types.h>\n";
  text.insert(text.find(include) + include.size(),
              "#include <arm_nnsupportfunctions.h>\n"
              "__STATIC_FORCEINLINE int32_t dot2(int32_t a, int32_t b) { return __SMLAD(a, b, 0); }\n");
  const std::string softmax = "  arm_softmax_s8(";
  text.insert(text.find(softmax), "  if (dot2(0x00020003, 0x00040005) != 2 * 4 + 3 * 5) return -1;\n");
  std::ofstream(lib2, std::ios::binary) << text;
  const MlfModel m = load_mlf_model(dir.string());
  ExportOptions eo;
  eo.harness = true;
  const ExportBundle bundle = mlf_original_bundle(m, eo);
  const SelftestTargets chosen = choose_selftest_targets(bundle, {});
  EXPECT_EQ(chosen.reason,
            "default_lib2.c calls Arm intrinsics (__SMLAD): the emulated Cortex-M boards run them; CMSIS-NN calls "
            "run on the built-in kernels");
  std::vector<std::string> targets;
  for (const std::string t : {"host", "cortex-m4"}) {
    if (selftest_target_available(t)) targets.push_back(t);
  }
  const fs::path work = fs::temp_directory_path() / "usmpx-selftest-cmsis-core-work";
  fs::remove_all(work);
  const auto results = run_selftest(bundle, bundle, targets, work.string());
  fs::remove_all(work);
  fs::remove_all(dir);
  for (const SelftestResult& r : results) {
    EXPECT_TRUE(r.same) << r.target << ": " << r.verdict << r.original.log;
    EXPECT_EQ(r.original.model_rc, 0) << r.target;  // the dot product came out right
  }
}

TEST(SelftestEra2021, AotWithoutInterfaceHeaderBuildsAndComputesTheSame) {
  const ExportBundle bundle = original_of("mlf/aot_2021_no_header");
  ASSERT_EQ(bundle.find("codegen/host/include/tvmgen_default.h"), nullptr);
  EXPECT_EQ(selftest_obstacle(bundle, {}), "");
  EXPECT_EQ(choose_selftest_targets(bundle, {}).targets, (std::vector<std::string>{"host"}));
  // The harness calls the 0.8 entry with the input and output the Relay signature sizes.
  const std::string& main = bundle.find("harness/main.c")->data;
  EXPECT_NE(main.find("int32_t rc = tvmgen_default_run_model(usmpx_input_0, usmpx_output_0);"), std::string::npos)
      << main;
  EXPECT_NE(main.find("usmpx_fill(usmpx_input_0, 16u, USMPX_FILL_F32);"), std::string::npos);
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  const MlfModel m = load_mlf_model(fixture_path("mlf/aot_2021_no_header"));
  const Plan plan = testing::plan_with("greedy_by_size", m.problem);
  EXPECT_EQ(plan.total_size(), 16);
  ExportOptions eo;
  eo.harness = true;
  const fs::path work = fs::temp_directory_path() / "usmpx-selftest-2021";
  fs::remove_all(work);
  const auto results = run_selftest(bundle, export_mlf(m, m.problem, plan, eo), {"host"}, work.string());
  fs::remove_all(work);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].same) << results[0].verdict << results[0].original.log << results[0].replanned.log;
  ASSERT_EQ(results[0].replanned.outputs.size(), 1u);
  EXPECT_EQ(results[0].replanned.outputs[0].first, "output");
  EXPECT_EQ(results[0].replanned.outputs[0].second.substr(0, 3), "16 ");
}

TEST(CodeNeeds, HostileSourcesAreReadInLinearTime) {
  // 200,000 nested calls, then an unterminated string, comment and directive: read in one pass.
  std::string text;
  for (int i = 0; i < 200000; ++i)
    text += "g(";
  text += "\"open /* open\n#include <never";
  ExportBundle bundle;
  bundle.put("codegen/host/src/default_lib0.c", text);
  const CodeNeeds needs = analyse_code_needs(bundle, {});
  ASSERT_EQ(needs.undefined_calls.size(), 1u);
  EXPECT_EQ(needs.undefined_calls[0].first, "default_lib0.c");
  EXPECT_EQ(needs.undefined_calls[0].second, (std::vector<std::string>{"g"}));
  EXPECT_TRUE(needs.missing_headers.empty());
}

}  // namespace
}  // namespace usmpx
