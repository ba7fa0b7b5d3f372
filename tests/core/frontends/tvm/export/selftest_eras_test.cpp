// The proof builds what TVM built: lib0.c in the style of each TVM release (pool arguments without
// casts up to 0.14, casts from 0.15 (the fixture as written), const constant pools from 0.17,
// .bss aligned(8) in 0.10)
// re-planned and run; flash and RAM as a person budgets them; CMSIS-NN kernels built from
// the project's own kernels (or a checkout given with --cmsis-nn) for the host and the emulated
// boards; Ethos-U models stop with the reason.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "export/export_error.h"
#include "frontends/tvm/export/harness/builtin_kernels.h"
#include "frontends/tvm/export/harness/tvm_selftest.h"
#include "frontends/tvm/export/mlf_export.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;
using testing::fixture_path;

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

// A copy of a fixture with its lib0.c rewritten to the style of one TVM release.
fs::path era_copy(const std::string& fixture, const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("usmpx-era-" + name);
  const std::string era = name.substr(0, name.find('-'));
  fs::remove_all(dir);
  fs::copy(fixture_path(fixture), dir, fs::copy_options::recursive);
  const fs::path lib0 = dir / "codegen/host/src/default_lib0.c";
  std::stringstream text;
  text << std::ifstream(lib0, std::ios::binary).rdbuf();
  std::string s = text.str();
  // The fixture is written as TVM 0.15/0.16 write it: pools cast to uint8_t*, a non-const struct.
  if (era == "v0.10" || era == "v0.11")
    s = replace_all(s, "((uint8_t*)&global_const_workspace),((uint8_t*)&global_workspace)",
                    "&global_const_workspace,&global_workspace");
  if (era == "v0.10") s = replace_all(s, "\"), aligned(16)))\nstatic uint8_t", "\"), aligned(8)))\nstatic uint8_t");
  if (era == "v0.17")
    s = replace_all(s, "static struct global_const_workspace", "static const struct global_const_workspace");
  EXPECT_TRUE(s != text.str()) << era << " changes nothing";
  std::ofstream(lib0, std::ios::binary) << s;
  return dir;
}

std::vector<SelftestResult> selftest(const MlfModel& m, const Plan& plan, const std::vector<std::string>& targets,
                                     const std::string& name, const SelftestOptions& options = {}) {
  ExportOptions eo;
  eo.harness = true;
  const fs::path work = fs::temp_directory_path() / ("usmpx-selftest-era-" + name);
  fs::remove_all(work);
  auto results =
      run_selftest(mlf_original_bundle(m, eo), export_mlf(m, m.problem, plan, eo), targets, work.string(), options);
  fs::remove_all(work);
  return results;
}

class TvmEraSelftest : public ::testing::TestWithParam<const char*> {};

TEST_P(TvmEraSelftest, ReplanOfEachReleasesLib0BuildsAndComputesTheSame) {
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  const fs::path dir = era_copy("mlf/usmp_default_pools", GetParam());
  const MlfModel m = load_mlf_model(dir.string());
  const Plan plan = testing::plan_with("hill_climb", m.problem);
  ASSERT_EQ(plan.total_size(), 440);  // as built: 520
  const auto results = selftest(m, plan, {"host"}, GetParam());
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].original.built) << results[0].original.log;
  EXPECT_TRUE(results[0].replanned.built) << results[0].replanned.log;
  EXPECT_TRUE(results[0].same) << results[0].verdict;
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Releases, TvmEraSelftest, ::testing::Values("v0.10", "v0.11", "v0.17"));

TEST(TvmEraSelftestStyles, TheFixtureIsTvm015Style) {
  const fs::path lib0 = fixture_path("mlf/usmp_default_pools") + "/codegen/host/src/default_lib0.c";
  std::stringstream text;
  text << std::ifstream(lib0, std::ios::binary).rdbuf();
  EXPECT_NE(text.str().find("((uint8_t*)&global_const_workspace),((uint8_t*)&global_workspace)"), std::string::npos);
  EXPECT_NE(text.str().find("static struct global_const_workspace"), std::string::npos);
}

TEST(SelftestSizes, FlashAndRamAsBudgetedOnCortexM4) {
  std::string missing;
  if (!selftest_target_available("cortex-m4", &missing)) GTEST_SKIP() << missing << " is not installed";
  // TVM 0.10's constant pool is a non-const struct in .rodata.tvm: it stays in flash.
  const fs::path dir = era_copy("mlf/usmp_default_pools", "v0.10-board");
  const MlfModel m = load_mlf_model(dir.string());
  const Plan plan = testing::plan_with("hill_climb", m.problem);
  const auto results = selftest(m, plan, {"cortex-m4"}, "board");
  ASSERT_EQ(results.size(), 1u);
  const SelftestResult& r = results[0];
  ASSERT_TRUE(r.same) << r.verdict << r.original.log << r.replanned.log;
  // The workspace pool shrinks from 208 to 128 bytes; the 312 bytes of constants stay in flash.
  EXPECT_EQ(r.original.ram_bytes - r.replanned.ram_bytes, 80);
  EXPECT_LT(std::abs(r.original.flash_bytes - r.replanned.flash_bytes), 64);
  EXPECT_GT(r.replanned.flash_bytes, 312);
  fs::remove_all(dir);
}

// Moving every intermediate to a second pool changes lib0.c, lib1.c and the pools the run
// wrapper passes, so the re-planned build differs from TVM's.
PoolOptions two_pools() {
  PoolOptions p;
  p.workspace_pools = {"dtcm", "sram"};
  p.workspace_size_hints = {{"dtcm", 16}};
  return p;
}

SelftestOptions cmsis_nn_options(const std::string& checkout) {
  SelftestOptions o;
  o.cmsis_nn = checkout;
  return o;
}

TEST(SelftestCmsisNn, BuiltInKernelsBuildWithTheModelOnThisMachine) {
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  const MlfModel m = load_mlf_model(fixture_path("mlf/usmp_cmsis_nn"), {two_pools(), ""});
  const Plan plan = testing::plan_with("hill_climb", m.problem);
  ASSERT_FALSE(plan.has_errors());
  const auto results = selftest(m, plan, {"host"}, "cmsis-host");
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].original.ran && results[0].replanned.ran);
  EXPECT_TRUE(results[0].same) << results[0].verdict << results[0].original.log << results[0].replanned.log;
  ASSERT_EQ(results[0].replanned.outputs.size(), 1u);
  EXPECT_EQ(results[0].replanned.outputs[0].first, "output");
  EXPECT_EQ(results[0].replanned.outputs[0].second.substr(0, 3), "16 ");
}

TEST(SelftestCmsisNn, BuiltInKernelsRunOnEmulatedCortexM4AndM7) {
  std::string missing;
  if (!selftest_target_available("cortex-m4", &missing)) GTEST_SKIP() << missing << " is not installed";
  const MlfModel m = load_mlf_model(fixture_path("mlf/usmp_cmsis_nn"), {two_pools(), ""});
  const Plan plan = testing::plan_with("hill_climb", m.problem);
  const auto results = selftest(m, plan, {"cortex-m4", "cortex-m7"}, "cmsis-boards");
  ASSERT_EQ(results.size(), 2u);
  for (const SelftestResult& r : results) {
    EXPECT_TRUE(r.same) << r.target << ": " << r.verdict << r.original.log << r.replanned.log;
    ASSERT_EQ(r.replanned.outputs.size(), 1u);
    // Integer kernels: the M4 computes what the M7 computes.
    EXPECT_EQ(r.replanned.outputs, results[0].replanned.outputs) << r.target;
  }
}

TEST(SelftestCmsisNn, ACheckoutGivenWithCmsisNnIsBuiltInsteadOfTheBuiltInKernels) {
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  // A folder laid out as a CMSIS-NN checkout (Include/, Source/*/*.c): the built-in kernels' files.
  const fs::path checkout = fs::temp_directory_path() / "usmpx-selftest-checkout";
  fs::remove_all(checkout);
  for (const EmbeddedFile& f : builtin_cmsis_nn_files()) {
    fs::create_directories((checkout / f.path).parent_path());
    std::ofstream(checkout / f.path, std::ios::binary) << f.text;
  }
  const MlfModel m = load_mlf_model(fixture_path("mlf/usmp_cmsis_nn"), {two_pools(), ""});
  ExportOptions eo;
  eo.harness = true;
  const fs::path work = fs::temp_directory_path() / "usmpx-selftest-era-cmsis-checkout";
  fs::remove_all(work);
  const auto results = run_selftest(mlf_original_bundle(m, eo),
                                    export_mlf(m, m.problem, testing::plan_with("hill_climb", m.problem), eo), {"host"},
                                    work.string(), cmsis_nn_options(checkout.string()));
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].same) << results[0].verdict << results[0].original.log;
  EXPECT_FALSE(fs::exists(work / "builtin-cmsis-nn"));
  EXPECT_TRUE(fs::exists(work / "cmsis-nn/host/libcmsis-nn.a"));
  fs::remove_all(work);
  fs::remove_all(checkout);
}

TEST(SelftestCmsisNn, BuiltInKernelsNeedNoCheckoutAndAnNpuModelSaysWhy) {
  const MlfModel m = load_mlf_model(fixture_path("mlf/usmp_cmsis_nn"));
  ExportOptions eo;
  eo.harness = true;
  ExportBundle bundle = mlf_original_bundle(m, eo);
  EXPECT_EQ(selftest_obstacle(bundle, {}), "");
  EXPECT_TRUE(selftest_uses_builtin_cmsis_nn(bundle, {}));
  EXPECT_FALSE(selftest_uses_builtin_cmsis_nn(bundle, cmsis_nn_options("/opt/CMSIS-NN")));
  bundle.put("codegen/host/src/default_lib3.c",
             "#include <tvm_ethosu_runtime.h>\nint32_t f(void) { return TVMEthosULaunch(0, 0, 0, 0, 0); }\n");
  EXPECT_EQ(selftest_obstacle(bundle, {}),
            "codegen/host/src/default_lib3.c drives an Ethos-U NPU (ethosu_*), which neither this machine nor the "
            "emulated boards have; plan and export work, the proof needs the NPU");
  try {
    run_selftest(bundle, bundle, {"host"}, (fs::temp_directory_path() / "usmpx-selftest-npu").string());
    ADD_FAILURE() << "selftest ran an Ethos-U model";
  } catch (const ExportError& e) {
    EXPECT_NE(std::string(e.what()).find("selftest cannot run this model: "), std::string::npos);
  }
}

}  // namespace
}  // namespace usmpx
