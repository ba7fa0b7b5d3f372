// The proof that exported firmware computes what the original computes: both real tarballs,
// re-planned with each of TVM's algorithms into one and into two pools, built with this machine's
// compiler and run; and once each on the emulated Cortex-M4 and Cortex-M7 boards.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "frontends/tvm/export/harness/tvm_selftest.h"
#include "frontends/tvm/export/mlf_export.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;

std::vector<SelftestResult> selftest(const std::string& input, const PoolOptions& pools, const std::string& algorithm,
                                     const std::vector<std::string>& targets, const std::string& name) {
  const MlfModel m = load_mlf_model(input, {pools, ""});
  const Plan plan = testing::plan_with(algorithm, m.problem);
  EXPECT_FALSE(plan.has_errors());
  ExportOptions options;
  options.harness = true;
  // One folder per process: two suites running at once (a CI clone beside a checkout) must not
  // build into each other's folders.
  const fs::path work = fs::temp_directory_path() / ("usmpx-selftest-test-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(work);
  auto results =
      run_selftest(mlf_original_bundle(m, options), export_mlf(m, m.problem, plan, options), targets, work.string());
  fs::remove_all(work);
  return results;
}

PoolOptions two_pools(int64_t first_capacity) {
  PoolOptions p;
  p.workspace_pools = {"dtcm", "sram"};
  p.workspace_size_hints = {{"dtcm", first_capacity}};
  return p;
}

// One result per target asked for (none at all fails), each the same outputs as the original.
void expect_same(const std::vector<SelftestResult>& results, size_t outputs, size_t targets = 1) {
  ASSERT_EQ(results.size(), targets) << "selftest gave a result for " << results.size() << " of " << targets
                                     << " target(s)";
  for (const SelftestResult& r : results) {
    EXPECT_TRUE(r.same) << r.target << ": " << r.verdict << "\n" << r.original.log << r.replanned.log;
    EXPECT_EQ(r.replanned.model_rc, 0);
    EXPECT_EQ(r.replanned.outputs.size(), outputs);
  }
}

class RealTarballSelftest : public ::testing::TestWithParam<const char*> {};

TEST_P(RealTarballSelftest, LetscopeComputesTheSameOnThisMachine) {
  USMPX_REQUIRE_SHARED(tar, "mlf/letscope_v7.tar");
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  expect_same(selftest(tar, {}, GetParam(), {"host"}, std::string("ls1-") + GetParam()), 1);
  expect_same(selftest(tar, two_pools(2048), GetParam(), {"host"}, std::string("ls2-") + GetParam()), 1);
}

TEST_P(RealTarballSelftest, SineComputesTheSameOnThisMachine) {
  USMPX_REQUIRE_SHARED(tar, "mlf/sine_aot_v5.tar");
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  expect_same(selftest(tar, {}, GetParam(), {"host"}, std::string("sine1-") + GetParam()), 1);
  expect_same(selftest(tar, two_pools(128), GetParam(), {"host"}, std::string("sine2-") + GetParam()), 1);
}

INSTANTIATE_TEST_SUITE_P(TvmAlgorithms, RealTarballSelftest,
                         ::testing::Values("greedy_by_size", "greedy_by_conflicts", "hill_climb"));

TEST(Selftest, RealTarballsRunOnEmulatedCortexM4AndM7) {
  USMPX_REQUIRE_SHARED(letscope, "mlf/letscope_v7.tar");
  USMPX_REQUIRE_SHARED(sine, "mlf/sine_aot_v5.tar");
  std::string missing;
  if (!selftest_target_available("cortex-m4", &missing)) GTEST_SKIP() << missing << " is not installed";
  const auto ls = selftest(letscope, two_pools(2048), "hill_climb", {"cortex-m4", "cortex-m7"}, "qemu-ls");
  expect_same(ls, 1, 2);
  for (const SelftestResult& r : ls) {
    // The 2,048-byte dense workspaces and the sids moved from the runtime's arena into the pools.
    EXPECT_GT(r.original.bss, r.replanned.bss) << r.target;
    EXPECT_GT(r.replanned.text, 0);
  }
  expect_same(selftest(sine, {}, "greedy_by_size", {"cortex-m4", "cortex-m7"}, "qemu-sine"), 1, 2);
}

TEST(Selftest, UsmpOnFixturesWithConstantAndExternalPools) {
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  PoolOptions flash;
  flash.constant_pools = {"flash"};
  expect_same(selftest(testing::fixture_path("mlf/usmp_default_pools"), flash, "hill_climb", {"host"}, "fx1"), 1);
  expect_same(selftest(testing::fixture_path("mlf/usmp_external_pools"), {}, "greedy_by_conflicts", {"host"}, "fx2"),
              1);
  PoolOptions io;
  io.use_workspace_io = true;
  expect_same(selftest(testing::fixture_path("mlf/usmp_external_pools"), io, "greedy_by_size", {"host"}, "fx3"), 1);
}

TEST(Selftest, AWrongPlanIsCaught) {
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  // Put every buffer at offset 0 of one pool: buffers alive together now overwrite each other.
  const MlfModel m = load_mlf_model(testing::fixture_path("mlf/usmp_default_pools"));
  Plan plan = testing::plan_with("greedy_by_size", m.problem);
  for (size_t b = 0; b < m.problem.buffers.size(); ++b) {
    if (m.problem.buffers[b].kind != BufferKind::kConstant) plan.allocations[b].offset = 0;
  }
  compute_pool_sizes(m.problem, plan);
  plan.diagnostics.clear();  // pretend the validator was not asked
  ExportOptions options;
  options.harness = true;
  const fs::path work = fs::temp_directory_path() / "usmpx-selftest-test-wrong";
  const auto results =
      run_selftest(mlf_original_bundle(m, options), export_mlf(m, m.problem, plan, options), {"host"}, work.string());
  fs::remove_all(work);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_FALSE(results[0].same);
  EXPECT_EQ(results[0].verdict, "outputs differ");
}

}  // namespace
}  // namespace usmpx
