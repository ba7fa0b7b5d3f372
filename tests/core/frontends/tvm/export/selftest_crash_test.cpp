// An original build that crashes on the host is diagnosed from its C and retried where the cause
// does not apply (tests/fixtures/mlf/host_crash_pointer32, host_crash_stack), never reported as
// "same outputs"; the boards' linker script is sized from what the code declares and puts what
// SSRAM cannot hold in the 16 MiB PSRAM (tests/fixtures/mlf/psram_pools).
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>

#include "frontends/tvm/export/harness/board_layout.h"
#include "frontends/tvm/export/harness/crash_diagnosis.h"
#include "frontends/tvm/export/harness/pool_reach.h"
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

ExportBundle replanned_of(const std::string& fixture, const std::string& algorithm) {
  const MlfModel m = load_mlf_model(fixture_path(fixture));
  const Plan plan = testing::plan_with(algorithm, m.problem);
  EXPECT_FALSE(plan.has_errors());
  ExportOptions eo;
  eo.harness = true;
  return export_mlf(m, m.problem, plan, eo);
}

std::vector<SelftestResult> selftest(const ExportBundle& original, const ExportBundle& replanned,
                                     const std::vector<std::string>& targets, const std::string& name) {
  const fs::path work = fs::temp_directory_path() / ("usmpx-selftest-crash-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(work);
  auto results = run_selftest(original, replanned, targets, work.string());
  fs::remove_all(work);
  return results;
}

int64_t host_stack() {
  struct rlimit limit;
  if (getrlimit(RLIMIT_STACK, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return -1;
  return static_cast<int64_t>(limit.rlim_cur);
}

const char* const kPointerCause =
    "operator tvmgen_default_partial_conv keeps a pointer in a 32-bit integer (default_lib1.c:53: "
    "(uint32_t)(uintptr_t)PaddedInput_let), and 1 more such cast; on this 64-bit machine the address is cut";

TEST(SelftestCrash, PointersKeptIn32BitIntegersAreNamedWithTheirLines) {
  const std::vector<PointerTruncation> found = find_pointer_truncations(original_of("mlf/host_crash_pointer32"));
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].function, "tvmgen_default_partial_conv");
  EXPECT_EQ(found[0].file, "default_lib1.c");
  EXPECT_EQ(found[0].line, 53);
  EXPECT_EQ(found[0].bits, 32);
  EXPECT_EQ(found[0].text, "(uint32_t)(uintptr_t)PaddedInput_let");
  EXPECT_EQ(found[1].line, 54);
  EXPECT_EQ(found[1].text, "(uint32_t)(uintptr_t)mask");
  // Implicit conversions too: an integer initialised or assigned from a pointer.
  ExportBundle implicit = original_of("mlf/usmp_default_pools");
  const std::string lib1 = "codegen/host/src/default_lib1.c";
  implicit.put(lib1, implicit.find(lib1)->data +
                         "int32_t tvmgen_default_keep(float* p) {\n  uint32_t a = p;\n  uint16_t b;\n  b = p;\n"
                         "  return (int32_t)(a + b);\n}\n");
  const std::vector<PointerTruncation> kept = find_pointer_truncations(implicit);
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0].text, "uint32_t a = p");
  EXPECT_EQ(kept[0].bits, 32);
  EXPECT_EQ(kept[1].text, "b = p");
  EXPECT_EQ(kept[1].bits, 16);
  EXPECT_EQ(kept[1].function, "tvmgen_default_keep");
  // The pointer read back through uintptr_t, and TVM's own integer casts, are no truncation.
  EXPECT_TRUE(find_pointer_truncations(original_of("mlf/usmp_default_pools")).empty());
  EXPECT_TRUE(find_pointer_truncations(original_of("mlf/host_crash_stack")).empty());

  // The analysis follows the addresses into the row table: PaddedInput is read through rows[0] while
  // sid_2 is written, so the two conflict, and TVM's offsets (those of conv1d in usmp_default_pools)
  // are greedy_by_size's again.
  const MlfModel m = load_mlf_model(fixture_path("mlf/host_crash_pointer32"));
  const Buffer& padded = m.problem.buffers[static_cast<size_t>(*m.problem.find_buffer("PaddedInput"))];
  ASSERT_TRUE(padded.lifetime.has_value());
  EXPECT_EQ(padded.lifetime->begin, 20);
  EXPECT_EQ(padded.lifetime->end, 36);  // half-open: `usmpx info` prints [20, 35]
  const int sid_2 = *m.problem.find_buffer("sid_2");
  EXPECT_NE(std::find(padded.conflicts.begin(), padded.conflicts.end(), sid_2), padded.conflicts.end());

  const CrashDiagnosis d = diagnose_host_crash(original_of("mlf/host_crash_pointer32"), SIGSEGV, 8 * kMiB);
  EXPECT_EQ(d.cause, CrashCause::kPointer32);
  EXPECT_EQ(d.signal, "SIGSEGV");
  EXPECT_EQ(d.function, "tvmgen_default_partial_conv");
  EXPECT_EQ(d.line, 53);
  EXPECT_EQ(d.because, kPointerCause);
  EXPECT_EQ(d.retry_target, "cortex-m4");
}

TEST(SelftestCrash, LocalsBeyondTheHostStackAreNamedWithTheirBytes) {
  const ExportBundle bundle = original_of("mlf/host_crash_stack");
  const BoardMemory memory = board_memory(parse_harness_code(bundle, kHostTriple));
  ASSERT_FALSE(memory.frames.empty());
  // main (20 bytes) -> tvmgen_default_run -> tvmgen_default___tvm_main__ (32) -> the operator (9,437,220).
  EXPECT_EQ(memory.frames.front().function, "main");
  EXPECT_EQ(memory.frames.front().chain_bytes, 9437272);
  const auto conv = std::find_if(memory.frames.begin(), memory.frames.end(),
                                 [](const StackFrame& f) { return f.function == "tvmgen_default_partial_conv"; });
  ASSERT_NE(conv, memory.frames.end());
  EXPECT_EQ(conv->locals_bytes, 9437220);  // float window[2359296] and nine scalars
  EXPECT_EQ(conv->file, "default_lib1.c");
  EXPECT_EQ(conv->line, 41);

  const CrashDiagnosis d = diagnose_host_crash(bundle, SIGSEGV, 8 * kMiB);
  EXPECT_EQ(d.cause, CrashCause::kStack);
  EXPECT_EQ(d.function, "tvmgen_default_partial_conv");
  EXPECT_EQ(d.stack_bytes, 9437272);
  EXPECT_EQ(d.because,
            "operator tvmgen_default_partial_conv declares 9,437,220 bytes of locals (default_lib1.c:41); the deepest "
            "chain of calls needs 9,437,272 bytes of stack, the host gives 8 MiB");
  EXPECT_EQ(d.retry_target, "host");
  EXPECT_EQ(d.retry_stack_bytes, 10 * kMiB);
  // With a stack that holds it, the crash is none the tool recognises: the boards are tried.
  const CrashDiagnosis unlimited = diagnose_host_crash(bundle, SIGBUS, -1);
  EXPECT_EQ(unlimited.cause, CrashCause::kUnknown);
  EXPECT_EQ(unlimited.signal, "SIGBUS");
  EXPECT_EQ(unlimited.retry_target, "cortex-m4");
}

TEST(SelftestCrash, APointerCrashOnTheHostIsProvedOnTheEmulatedCortexM4) {
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  if (!selftest_target_available("cortex-m4", &missing)) GTEST_SKIP() << missing << " is not installed";
  const auto results = selftest(original_of("mlf/host_crash_pointer32"),
                                replanned_of("mlf/host_crash_pointer32", "greedy_by_size"), {"host"}, "p32");
  ASSERT_EQ(results.size(), 1u);
  const SelftestResult& r = results[0];
  EXPECT_EQ(r.target, "cortex-m4");
  EXPECT_EQ(r.diagnosis, std::string("the original build crashed on the host (SIGSEGV): ") + kPointerCause +
                             "; retried on the emulated Cortex-M4 (flash 4 MiB, RAM 4 MiB; the model declares 332 B of "
                             "constants, 2,312 B of read-write data, 64.1 KiB of stack)");
  EXPECT_TRUE(r.same) << r.verdict << r.original.log << r.replanned.log;
  EXPECT_EQ(r.verdict, "same outputs");
  ASSERT_EQ(r.replanned.outputs.size(), 1u);
  EXPECT_EQ(r.replanned.outputs[0].second.substr(0, 3), "16 ");  // the dense layer's 4 floats
  EXPECT_EQ(r.original.outputs, r.replanned.outputs);
  EXPECT_EQ(r.original.exit_code, 0);
}

TEST(SelftestCrash, AStackCrashOnTheHostIsProvedWithABiggerStack) {
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  if (host_stack() != 8 * kMiB) GTEST_SKIP() << "the host's stack is not 8 MiB: " << host_stack();
  const auto results = selftest(original_of("mlf/host_crash_stack"), replanned_of("mlf/host_crash_stack", "hill_climb"),
                                {"host"}, "stack");
  ASSERT_EQ(results.size(), 1u);
  const SelftestResult& r = results[0];
  EXPECT_EQ(r.target, "host");
  EXPECT_EQ(r.diagnosis,
            "the original build crashed on the host (SIGSEGV): operator tvmgen_default_partial_conv declares "
            "9,437,220 bytes of locals (default_lib1.c:41); the deepest chain of calls needs 9,437,272 bytes of "
            "stack, the host gives 8 MiB; retried on the host with a 10 MiB stack");
  EXPECT_TRUE(r.same) << r.verdict << r.original.log << r.replanned.log;
  EXPECT_EQ(r.original.signal, 0);
}

TEST(SelftestCrash, AHostThatAllowsNoBiggerStackSendsTheStackToTheBoards) {
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  if (!selftest_target_available("cortex-m4", &missing)) GTEST_SKIP() << missing << " is not installed";
  if (host_stack() != 8 * kMiB) GTEST_SKIP() << "the host's stack is not 8 MiB: " << host_stack();
  const ExportBundle original = original_of("mlf/host_crash_stack");
  const ExportBundle replanned = replanned_of("mlf/host_crash_stack", "hill_climb");
  // A child process whose hard limit stops at 9 MiB runs the selftest and reports.
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(pipe_fds[0]);
    struct rlimit limit;
    getrlimit(RLIMIT_STACK, &limit);
    limit.rlim_max = 9 * kMiB;
    limit.rlim_cur = std::min<rlim_t>(limit.rlim_cur, limit.rlim_max);
    std::string report = "setrlimit failed";
    if (setrlimit(RLIMIT_STACK, &limit) == 0) {
      const auto results = selftest(original, replanned, {"host"}, "hard-limit");
      report = results.size() != 1 ? "results: " + std::to_string(results.size())
                                   : results[0].target + "\n" + results[0].verdict + "\n" + results[0].diagnosis;
    }
    const ssize_t written = write(pipe_fds[1], report.data(), report.size());
    _exit(written == static_cast<ssize_t>(report.size()) ? 0 : 1);
  }
  close(pipe_fds[1]);
  std::string report;
  char buffer[4096];
  ssize_t n = 0;
  while ((n = read(pipe_fds[0], buffer, sizeof buffer)) > 0)
    report.append(buffer, static_cast<size_t>(n));
  close(pipe_fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT_EQ(report,
            "cortex-m4\nsame outputs\nthe original build crashed on the host (SIGSEGV): operator "
            "tvmgen_default_partial_conv declares 9,437,220 bytes of locals (default_lib1.c:41); the deepest chain of "
            "calls needs 9,437,272 bytes of stack, the host gives 8 MiB; the host allows no more than 9 MiB of stack; "
            "retried on the emulated Cortex-M4 (flash 4 MiB, RAM 4 MiB, PSRAM 16 MiB: read-write data (2,312 B), "
            "stack (9.06 MiB) in PSRAM)");
}

TEST(SelftestCrash, APoolArraySmallerThanTheCodeUsesIsNamedAndNotRetried) {
  EXPECT_TRUE(find_pool_overruns(original_of("mlf/usmp_external_pools")).empty());
  EXPECT_TRUE(find_pool_overruns(original_of("mlf/host_crash_pointer32")).empty());
  // The header declares 16 bytes for the application's sram pool, whose dense buffer needs 64.
  ExportBundle bundle = original_of("mlf/usmp_external_pools");
  const std::string header = "codegen/host/include/tvmgen_mini.h";
  std::string text = bundle.find(header)->data;
  const std::string macro = "#define TVMGEN_MINI_SRAM_WORKSPACE_POOL_SIZE 64";
  ASSERT_NE(text.find(macro), std::string::npos);
  text.replace(text.find(macro), macro.size(), "#define TVMGEN_MINI_SRAM_WORKSPACE_POOL_SIZE 16");
  bundle.put(header, text);
  const std::vector<PoolOverrun> overruns = find_pool_overruns(bundle);
  ASSERT_EQ(overruns.size(), 1u);
  EXPECT_EQ(overruns[0].pool, "sram");
  EXPECT_EQ(overruns[0].array_bytes, 16);
  EXPECT_EQ(overruns[0].reach, 64);
  EXPECT_EQ(overruns[0].buffer, "sid_2_let");
  EXPECT_EQ(overruns[0].line, 132);
  const CrashDiagnosis d = diagnose_host_crash(bundle, SIGSEGV, 8 * kMiB);
  EXPECT_EQ(d.cause, CrashCause::kPool);
  EXPECT_EQ(d.because,
            "pool sram: the harness allocates 16 bytes (TVMGEN_MINI_SRAM_WORKSPACE_POOL_SIZE in tvmgen_mini.h), the "
            "code uses 64 bytes (sid_2_let: 64 bytes at offset 0, mini_lib1.c:132)");
  EXPECT_EQ(d.retry_target, "");
  EXPECT_EQ(d.not_retried,
            "every target allocates the pool at the size the model declares; give the header and the sources TVM "
            "wrote together");
}

TEST(SelftestCrash, AStackThatWasNotAllIsFollowedByThePointerItHidesAndTheBoards) {
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  if (!selftest_target_available("cortex-m4", &missing)) GTEST_SKIP() << missing << " is not installed";
  if (host_stack() != 8 * kMiB) GTEST_SKIP() << "the host's stack is not 8 MiB: " << host_stack();
  // host_crash_stack's operator, also keeping the window's address in a 32-bit word.
  ExportBundle both = original_of("mlf/host_crash_stack");
  const std::string lib1 = "codegen/host/src/default_lib1.c";
  std::string text = both.find(lib1)->data;
  const std::string loop = "  for (int32_t oc = 0; oc < 2; ++oc) {";
  ASSERT_NE(text.find(loop), std::string::npos);
  text.insert(text.find(loop),
              "  uint32_t row = (uint32_t)(uintptr_t)window;\n  ((float*)(uintptr_t)row)[0] = window[1];\n");
  both.put(lib1, text);
  const auto results = selftest(both, both, {"host"}, "both");
  ASSERT_EQ(results.size(), 1u);
  const SelftestResult& r = results[0];
  EXPECT_EQ(r.target, "cortex-m4");
  EXPECT_TRUE(r.same) << r.verdict << r.original.log;
  const std::string start =
      "the original build crashed on the host (SIGSEGV): operator tvmgen_default_partial_conv declares 9,437,224 "
      "bytes of locals (default_lib1.c:41); the deepest chain of calls needs 9,437,276 bytes of stack, the host "
      "gives 8 MiB; with a 10 MiB stack it crashes still (SIGSEGV): operator tvmgen_default_partial_conv keeps a "
      "pointer in a 32-bit integer (default_lib1.c:54: (uint32_t)(uintptr_t)window)";
  EXPECT_EQ(r.diagnosis.substr(0, start.size()), start) << r.diagnosis;
  EXPECT_NE(r.diagnosis.find("; retried on the emulated Cortex-M4 (flash 4 MiB, RAM 4 MiB, PSRAM 16 MiB: read-write "
                             "data ("),
            std::string::npos)
      << r.diagnosis;
}

TEST(SelftestCrash, ACrashThatNoTargetCanRetryIsRefusedNamingTheCause) {
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  // The crashing operator beside a 24 MiB frame buffer the boards cannot hold.
  const auto results = selftest(original_of("mlf/host_crash_too_big"),
                                replanned_of("mlf/host_crash_too_big", "hill_climb"), {"host"}, "refused");
  ASSERT_EQ(results.size(), 1u);
  const SelftestResult& r = results[0];
  EXPECT_FALSE(r.same);
  EXPECT_EQ(r.target, "host");
  EXPECT_EQ(r.original.signal, SIGSEGV);
  EXPECT_EQ(r.verdict, "not proved: the original crashes on the host");
  const std::string crashed = std::string("the original build crashed on the host (SIGSEGV): ") + kPointerCause;
  if (selftest_target_available("cortex-m4", &missing)) {
    EXPECT_EQ(r.diagnosis,
              crashed +
                  "; not retried on the emulated Cortex-M4: the model declares 24 MiB of read-write data, 332 B of "
                  "constants and 64.1 KiB of stack (largest object: partial_conv_frames, 24 MiB): more than the "
                  "emulated boards hold (4 MiB flash, 4 MiB RAM, 16 MiB PSRAM)");
  } else {
    EXPECT_EQ(r.diagnosis, crashed + "; not retried: the emulated Cortex-M4 that would run it needs " + missing +
                               ", which is not installed (Debian: gcc-arm-none-eabi, libnewlib-arm-none-eabi, "
                               "qemu-system-arm)");
  }
}

TEST(BoardLayout, SmallModelsKeepTheFixedLayout) {
  const ExportBundle bundle = original_of("mlf/usmp_default_pools");
  const BoardMemory memory = board_memory(parse_harness_code(bundle, kBoardTriple));
  EXPECT_EQ(memory.rom_bytes, 332);  // the 312-byte constant pool, platform.c's arena pointer, ...
  EXPECT_FALSE(choose_board_layout(memory).psram);
  EXPECT_EQ(bundle.find("harness/mps2.ld")->data,
            "/* MPS2 (AN386, AN500) memory map for the test harness on qemu-system-arm (USMP Explorer). */\n"
            "MEMORY\n{\n  FLASH (rx) : ORIGIN = 0x00000000, LENGTH = 4M\n  RAM (rwx) : ORIGIN = 0x20000000, LENGTH = "
            "4M\n}\nENTRY(Reset_Handler)\n_estack = ORIGIN(RAM) + LENGTH(RAM);\nSECTIONS\n{\n"
            "  .isr_vector : { KEEP(*(.isr_vector)) } > FLASH\n"
            "  .text : { *(.text*) *(.rodata*) . = ALIGN(4); } > FLASH\n"
            "  .ARM.exidx : { *(.ARM.exidx*) } > FLASH\n"
            "  .data : { _sdata = .; *(.data*) . = ALIGN(4); _edata = .; } > RAM AT > FLASH\n"
            "  _sidata = LOADADDR(.data);\n"
            "  .bss (NOLOAD) : { _sbss = .; *(.bss*) *(COMMON) . = ALIGN(4); _ebss = .; } > RAM\n"
            "  end = .;\n  _end = .;\n}\n");
}

TEST(BoardLayout, PoolsBeyondFourMibGoToPsram) {
  const ExportBundle bundle = replanned_of("mlf/psram_pools", "greedy_by_size");
  const BoardMemory memory = board_memory(parse_harness_code(bundle, kBoardTriple));
  EXPECT_EQ(memory.largest_object, "global_workspace");
  EXPECT_EQ(memory.largest_object_bytes, 8388608);
  EXPECT_GT(memory.ram_bytes, 8388608);
  EXPECT_LT(memory.ram_bytes, 8388608 + 4096);  // the I/O buffers and the arena's bookkeeping
  const BoardLayout layout = choose_board_layout(memory);
  EXPECT_TRUE(layout.fits);
  EXPECT_TRUE(layout.psram);
  EXPECT_TRUE(layout.data_in_psram);
  EXPECT_FALSE(layout.rodata_in_psram);
  EXPECT_FALSE(layout.stack_in_psram);
  const std::string& script = bundle.find("harness/mps2.ld")->data;
  for (const char* line :
       {"  FLASH (rx) : ORIGIN = 0x00000000, LENGTH = 4M\n", "  RAM (rwx) : ORIGIN = 0x20000000, LENGTH = 4M\n",
        "  PSRAM (rwx) : ORIGIN = DEFINED(USMPX_PSRAM_ORIGIN) ? USMPX_PSRAM_ORIGIN : 0x21000000, LENGTH = 16M\n",
        "_estack = ORIGIN(RAM) + LENGTH(RAM);\n", "REGION_ALIAS(\"USMPX_BSS_NOINIT_TVM\", PSRAM);\n",
        "REGION_ALIAS(\"USMPX_RODATA_TVM\", FLASH);\n",
        "  .bss (NOLOAD) : { _sbss = .; *(.bss*) *(COMMON) . = ALIGN(4); _ebss = .; } > PSRAM\n",
        "  end = ADDR(.data) + SIZEOF(.data);\n"})
    EXPECT_NE(script.find(line), std::string::npos) << line << "\n" << script;
  const std::string& makefile = bundle.find("harness/Makefile")->data;
  EXPECT_NE(makefile.find("$(eval $(call board,cortex-m4,$(M4_FLAGS),mps2-an386,cortex-m4,0x21000000))"),
            std::string::npos);
  EXPECT_NE(makefile.find("$(eval $(call board,cortex-m7,$(M7_FLAGS),mps2-an500,cortex-m7,0x60000000))"),
            std::string::npos);
  EXPECT_EQ(describe_board_layout(layout, memory).substr(0, 62),
            "flash 4 MiB, RAM 4 MiB, PSRAM 16 MiB: read-write data (8 MiB) ");

  // A 9 MiB stack goes to PSRAM too, after the data.
  const BoardMemory deep = board_memory(parse_harness_code(original_of("mlf/host_crash_stack"), kBoardTriple));
  const BoardLayout stack = choose_board_layout(deep);
  EXPECT_TRUE(stack.stack_in_psram);
  EXPECT_EQ(stack.stack_bytes, 9503744);  // the deepest chain of locals + 64 KiB, rounded up to KiB
  EXPECT_NE(board_linker_script(stack, {}).find(
                "  .stack (NOLOAD) : { . = ALIGN(8); . = . + 9503744; _estack = .; } > PSRAM\n"),
            std::string::npos);
}

TEST(BoardLayout, ConstantsBeyondFlashGoToPsramAndTooMuchIsRefused) {
  BoardMemory memory;
  memory.rom_bytes = 5 * kMiB;  // weights beyond the 4 MiB of SSRAM1, less what the code needs
  memory.ram_bytes = 1000;
  memory.stack_bytes = kStackMarginBytes + 100;
  const BoardLayout layout = choose_board_layout(memory);
  EXPECT_TRUE(layout.fits);
  EXPECT_TRUE(layout.rodata_in_psram);
  EXPECT_TRUE(layout.data_in_psram);
  EXPECT_FALSE(layout.stack_in_psram);
  EXPECT_EQ(layout.stack_bytes, 66560);
  const std::string script = board_linker_script(layout, {".rodata.tvm"});
  for (const char* line :
       {"REGION_ALIAS(\"USMPX_RODATA_TVM\", PSRAM);\n", "REGION_ALIAS(\"USMPX_BSS_NOINIT_TVM\", PSRAM);\n",
        "  .text : { *(.text*) . = ALIGN(4); } > FLASH\n", "  .rodata : { *(.rodata*) . = ALIGN(4); } > PSRAM\n",
        "  INCLUDE usmpx_pools.ld\n"})
    EXPECT_NE(script.find(line), std::string::npos) << line << "\n" << script;
  EXPECT_EQ(describe_board_layout(layout, memory),
            "flash 4 MiB, RAM 4 MiB, PSRAM 16 MiB: constants (5 MiB), read-write data (1,000 B) in PSRAM");
  // 12 MiB of constants and 5 MiB of data: more than PSRAM's 16 MiB.
  memory.rom_bytes = 12 * kMiB;
  memory.ram_bytes = 5 * kMiB;
  memory.largest_object = "weights";
  memory.largest_object_bytes = 12 * kMiB;
  const BoardLayout too_big = choose_board_layout(memory);
  EXPECT_FALSE(too_big.fits);
  EXPECT_EQ(too_big.why_not,
            "the model declares 5 MiB of read-write data, 12 MiB of constants and 64.1 KiB of stack (largest object: "
            "weights, 12 MiB): more than the emulated boards hold (4 MiB flash, 4 MiB RAM, 16 MiB PSRAM)");
}

TEST(BoardLayout, BigPoolsAndADeepStackRunOnTheEmulatedBoardsFromPsram) {
  std::string missing;
  if (!selftest_target_available("cortex-m4", &missing)) GTEST_SKIP() << missing << " is not installed";
  const auto pools = selftest(original_of("mlf/psram_pools"), replanned_of("mlf/psram_pools", "greedy_by_conflicts"),
                              {"cortex-m4", "cortex-m7"}, "psram");
  ASSERT_EQ(pools.size(), 2u);
  for (const SelftestResult& r : pools) {
    EXPECT_TRUE(r.same) << r.target << ": " << r.verdict << r.original.log << r.replanned.log;
    EXPECT_GT(r.replanned.ram_bytes, 8388608) << r.target;
    EXPECT_TRUE(r.diagnosis.empty());
  }
  const auto stack = selftest(original_of("mlf/host_crash_stack"), replanned_of("mlf/host_crash_stack", "hill_climb"),
                              {"cortex-m4"}, "psram-stack");
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_TRUE(stack[0].same) << stack[0].verdict << stack[0].original.log;
}

}  // namespace
}  // namespace usmpx
