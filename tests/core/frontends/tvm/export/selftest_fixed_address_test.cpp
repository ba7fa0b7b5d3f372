// Firmware whose code names memory at a fixed address of its real MCU (fixture written by the
// project, tests/fixtures/mlf/fixed_address_scratch: partial sums in the STM32H743's AXI SRAM at
// 0x24000000), which neither the emulated Cortex-M boards nor this machine have. The harness maps
// those addresses onto arrays of its own in a copy of the source, so the original and a re-plan run.
#include <gtest/gtest.h>

#include "frontends/tvm/export/harness/tvm_selftest.h"
#include "frontends/tvm/export/mlf_export.h"
#include "mlf_bundle_support.h"
#include "test_support.h"

namespace usmpx {
namespace {

using testing::fixture_path;

const char* const kFixture = "mlf/fixed_address_scratch";
const char* const kLib1 = "codegen/host/src/default_lib1.c";

TEST(SelftestFixedAddress, TheHarnessBuildsACopyWithTheAddressesMappedAndTheExportKeepsThem) {
  const MlfModel m = load_mlf_model(fixture_path(kFixture));
  const ExportBundle original = testing::original_with_harness(m);
  const ExportFile* copy = original.find("harness/fixed/usmpx_fixed_default_lib1.c");
  ASSERT_NE(copy, nullptr);
  // The macro and the local's initialiser, each the same offset into one window of the 0x24 region.
  EXPECT_NE(copy->data.find("#define PARTIAL_CONV_SCRATCH_ADDR ((uintptr_t)usmpx_fixed_window_24000000 + 0x0u)"),
            std::string::npos);
  EXPECT_NE(copy->data.find("int32_t* bias_row = (int32_t*)((uintptr_t)usmpx_fixed_window_24000000 + 0x1000u);"),
            std::string::npos);
  EXPECT_NE(copy->data.find("#line 1 \"codegen/host/src/default_lib1.c\"\n"), std::string::npos);
  // From the lowest address named to 1 MiB past the highest.
  EXPECT_NE(original.find("harness/fixed_windows.c")
                ->data.find("unsigned char usmpx_fixed_window_24000000[1052672] __attribute__((aligned(1024)));"),
            std::string::npos);
  const std::string& makefile = original.find("harness/Makefile")->data;
  EXPECT_NE(makefile.find("MODEL_SRCS := $(ROOT)/codegen/host/src/default_lib0.c "
                          "$(ROOT)/harness/fixed/usmpx_fixed_default_lib1.c $(ROOT)/harness/fixed_windows.c\n"),
            std::string::npos)
      << makefile;
  bool said = false;
  for (const Diagnostic& d : original.notes)
    said |= d.message.find("0x24000000 (1052672 bytes) mapped onto arrays of the harness") != std::string::npos;
  EXPECT_TRUE(said);
  // The model's own source is exported as it is.
  const ExportBundle replanned = testing::replanned_bundle(m, true, "best");
  EXPECT_NE(replanned.find(kLib1)->data.find("#define PARTIAL_CONV_SCRATCH_ADDR 0x24000000u"), std::string::npos);
  EXPECT_NE(replanned.find(kLib1)->data.find("int32_t* bias_row = (int32_t*)0x24001000u;"), std::string::npos);
}

TEST(SelftestFixedAddress, TheOriginalAndBestRunOnTheHostAndTheEmulatedCortexM4) {
  const MlfModel m = load_mlf_model(fixture_path(kFixture));
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  if (!selftest_target_available("cortex-m4", &missing)) GTEST_SKIP() << missing << " is not installed";
  testing::expect_same_outputs(testing::original_with_harness(m), testing::replanned_bundle(m, true, "best"),
                               {"host", "cortex-m4"}, "fixed-address", "output", 16);
}

}  // namespace
}  // namespace usmpx
