// A fault on the emulated boards named from the registers the harness's fault handler prints over
// semihosting: the cause the status registers tell, the address and the function
// (tests/fixtures/mlf/board_fault_unaligned: an int64 copy from an odd address, `ldrd` on Cortex-M).
#include "frontends/tvm/export/harness/board_fault.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "frontends/tvm/export/harness/tvm_selftest.h"
#include "frontends/tvm/export/mlf_export.h"
#include "test_support.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;

TEST(BoardFault, TheHandlersLineIsRead) {
  const auto f = read_board_fault(
      "qemu: noise\nusmpx-fault exception=0x00000003 pc=0x000000fa lr=0x200009ff sp=0x203fffa8 cfsr=0x01000000 "
      "hfsr=0x40000000 mmfar=0x00000000 bfar=0x00000000\nmake: *** Error 99\n");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->exception, 3u);
  EXPECT_EQ(f->pc, 0xfau);
  EXPECT_EQ(f->sp, 0x203fffa8u);
  EXPECT_EQ(f->cfsr, 0x01000000u);
  EXPECT_EQ(f->hfsr, 0x40000000u);
  EXPECT_EQ(describe_board_fault(*f, "tvmgen_default_fused_add"),
            "an unaligned access, at pc 0x000000fa in tvmgen_default_fused_add");
  EXPECT_FALSE(read_board_fault("usmpx-harness module default rc 0\n").has_value());
}

TEST(BoardFault, CausesTheStatusRegistersTell) {
  BoardFault bus;
  bus.pc = 0x1234;
  bus.cfsr = (1u << 9) | (1u << 15);  // PRECISERR, BFARVALID
  bus.bfar = 0x30000000;
  EXPECT_EQ(describe_board_fault(bus, "tvmgen_default_partial_conv"),
            "a bus error at 0x30000000 (the board has no memory there), at pc 0x00001234 in "
            "tvmgen_default_partial_conv");
  bus.bfar = 0x21000010;  // AN386's PSRAM
  EXPECT_EQ(describe_board_fault(bus, ""), "a bus error at 0x21000010, at pc 0x00001234");
  BoardFault stack;
  stack.cfsr = 1u << 12;  // STKERR: the frame could not be pushed
  stack.sp = 0x1fffffe0;
  EXPECT_EQ(describe_board_fault(stack, ""),
            "a stack overflow: the fault could not push its frame below sp 0x1fffffe0 (the board has no memory "
            "there)");
  BoardFault div;
  div.cfsr = 1u << 25;
  div.pc = 0x40;
  EXPECT_EQ(describe_board_fault(div, "f"), "a division by zero, at pc 0x00000040 in f");
}

TEST(BoardFault, AnOriginalThatFaultsOnTheBoardsIsNamed) {
  std::string missing;
  if (!selftest_target_available("cortex-m4", &missing)) GTEST_SKIP() << missing << " is not installed";
  const MlfModel m = load_mlf_model(testing::fixture_path("mlf/board_fault_unaligned"));
  ExportOptions eo;
  eo.harness = true;
  const fs::path work = fs::temp_directory_path() / "usmpx-board-fault";
  fs::remove_all(work);
  const auto results = run_selftest(mlf_original_bundle(m, eo), export_mlf(m, m.problem, *m.as_built, eo),
                                    {"cortex-m4"}, work.string(), {});
  fs::remove_all(work);
  ASSERT_EQ(results.size(), 1u);
  const SelftestResult& r = results[0];
  EXPECT_FALSE(r.same);
  EXPECT_EQ(r.original.exit_code, 99);
  // GCC inlines the operator into the entry; the symbol holding the instruction is the entry.
  EXPECT_EQ(r.original.fault.rfind("an unaligned access, at pc 0x", 0), 0u) << r.original.fault;
  EXPECT_NE(r.original.fault.find(" in tvmgen_default___tvm_main__"), std::string::npos) << r.original.fault;
  EXPECT_EQ(r.verdict, "run failed (original: exit 99: a fault: " + r.original.fault + ")");
}

TEST(BoardFault, AStackDeeperThanTheDeclaredLocalsIsRetriedInPsram) {
  // tests/fixtures/mlf/board_stack_overflow: a 4.5 MiB array sized at run time on the stack.
  std::string missing;
  if (!selftest_target_available("cortex-m4", &missing)) GTEST_SKIP() << missing << " is not installed";
  const MlfModel m = load_mlf_model(testing::fixture_path("mlf/board_stack_overflow"));
  ExportOptions eo;
  eo.harness = true;
  const fs::path work = fs::temp_directory_path() / "usmpx-board-stack";
  fs::remove_all(work);
  const auto results = run_selftest(mlf_original_bundle(m, eo), export_mlf(m, m.problem, *m.as_built, eo),
                                    {"cortex-m4"}, work.string(), {});
  fs::remove_all(work);
  ASSERT_EQ(results.size(), 1u);
  const SelftestResult& r = results[0];
  EXPECT_TRUE(r.same) << r.verdict << r.original.log;
  EXPECT_EQ(r.diagnosis.rfind("the original faulted on cortex-m4 (a ", 0), 0u) << r.diagnosis;
  EXPECT_NE(r.diagnosis.find("); retried with a 15 MiB stack in PSRAM (the stack was sized from the locals the code "
                             "declares, 64.1 KiB)"),
            std::string::npos)
      << r.diagnosis;
  ASSERT_EQ(r.replanned.outputs.size(), 1u);
  EXPECT_EQ(r.replanned.outputs[0].second.substr(0, 3), "16 ");
}

}  // namespace
}  // namespace usmpx
