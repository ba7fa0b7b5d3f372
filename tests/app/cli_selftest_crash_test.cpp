// `usmpx selftest` on models whose original build crashes on the host: the one-line diagnosis,
// the retry and its verdict, the exit code (tests/fixtures/mlf/host_crash_*), and a model whose
// pools need the boards' PSRAM (tests/fixtures/mlf/psram_pools).
#include <gtest/gtest.h>

#include "cli_run.h"
#include "frontends/tvm/export/harness/tvm_selftest.h"
#include "test_support.h"

namespace usmpx {
namespace {

using testing::CliRun;
using testing::run_usmpx;

bool tools(const std::string& target, std::string& missing) {
  return selftest_target_available(target, &missing);
}

TEST(CliSelftestCrash, APointerCrashIsDiagnosedAndProvedOnTheEmulatedCortexM4) {
  std::string missing;
  if (!tools("host", missing)) GTEST_SKIP() << missing << " is not installed";
  const CliRun run = run_usmpx({"selftest", testing::fixture_path("mlf/host_crash_pointer32")});
  const std::string why =
      "the original build crashed on the host (SIGSEGV): operator tvmgen_default_partial_conv keeps a pointer in a "
      "32-bit integer (default_lib1.c:53: (uint32_t)(uintptr_t)PaddedInput_let), and 1 more such cast; on this "
      "64-bit machine the address is cut";
  EXPECT_NE(run.out.find("targets: host (portable C: no Arm intrinsics, arm_acle.h or CMSIS headers)\n"),
            std::string::npos)
      << run.out;
  if (!tools("cortex-m4", missing)) {
    EXPECT_EQ(run.code, 1) << run.out;
    EXPECT_NE(run.out.find(why + "; not retried: the emulated Cortex-M4 that would run it needs " + missing),
              std::string::npos)
        << run.out;
    EXPECT_NE(run.out.find("selftest FAILED"), std::string::npos) << run.out;
    return;
  }
  EXPECT_EQ(run.code, 0) << run.out;
  EXPECT_NE(run.out.find(why + "; retried on the emulated Cortex-M4 (flash 4 MiB, RAM 4 MiB; the model declares 332 B "
                               "of constants, 2,312 B of read-write data, 64.1 KiB of stack)\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("  cortex-m4  same outputs        1"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("host    same outputs"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("selftest passed\n"), std::string::npos) << run.out;
}

TEST(CliSelftestCrash, AModelNoBoardHoldsIsRefusedNamingTheCause) {
  std::string missing;
  if (!tools("host", missing)) GTEST_SKIP() << missing << " is not installed";
  if (!tools("cortex-m4", missing)) GTEST_SKIP() << missing << " is not installed";
  const CliRun run = run_usmpx({"selftest", testing::fixture_path("mlf/host_crash_too_big")});
  EXPECT_EQ(run.code, 1) << run.out;
  EXPECT_NE(
      run.out.find("keeps a pointer in a 32-bit integer (default_lib1.c:53: (uint32_t)(uintptr_t)PaddedInput_let)"),
      std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("; not retried on the emulated Cortex-M4: the model declares 24 MiB of read-write data, "
                         "332 B of constants and 64.1 KiB of stack (largest object: partial_conv_frames, 24 MiB): "
                         "more than the emulated boards hold (4 MiB flash, 4 MiB RAM, 16 MiB PSRAM)\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("  host    not proved: the original crashes on the host"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("same outputs"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("selftest FAILED\n"), std::string::npos) << run.out;
}

TEST(CliSelftestCrash, PoolsBeyondTheBoardsRamRunFromPsram) {
  std::string missing;
  if (!tools("cortex-m4", missing)) GTEST_SKIP() << missing << " is not installed";
  const CliRun run = run_usmpx({"selftest", testing::fixture_path("mlf/psram_pools"), "--targets", "cortex-m4"});
  EXPECT_EQ(run.code, 0) << run.out;
  EXPECT_NE(run.out.find("pool bytes: 8,388,640 as built, 8,388,640 re-planned\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("  cortex-m4  same outputs        1"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("overflowed"), std::string::npos) << run.out;
}

}  // namespace
}  // namespace usmpx
