// TFLM's memory printouts: PrintMemoryPlan's buffer lines and PrintAllocations' totals.
#include <gtest/gtest.h>

#include "base/input_error.h"
#include "frontends/tflite/tflm_log.h"

namespace usmpx {
namespace {

std::string refusal(const std::string& text) {
  try {
    (void)parse_tflm_log(text, "log.txt");
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(TflmLog, ReadsBufferLinesAndTotalsAmongOtherOutput) {
  const TflmLog log = parse_tflm_log(
      "Planner output\n"
      "0 (id=0): size=16, offset=16, first_used=0 last_used=1\n"
      "1 (id=1): size=256, offset=0, first_used=2 last_used=2\n"
      "0: 00...............  16\n"
      "[RecordingMicroAllocator] Arena allocation total 14472 bytes\n"
      "[RecordingMicroAllocator] Arena allocation head 672 bytes\n"
      "[RecordingMicroAllocator] Arena allocation tail 13800 bytes\n",
      "log.txt");
  ASSERT_EQ(log.buffers.size(), 2u);
  EXPECT_EQ(log.buffers[1].size, 256);
  EXPECT_EQ(log.buffers[1].first_used, 2);
  EXPECT_EQ(log.buffers[0].offset, 16);
  EXPECT_EQ(log.total_bytes, 14472);
  EXPECT_EQ(log.head_bytes, 672);
  EXPECT_EQ(log.tail_bytes, 13800);
}

TEST(TflmLog, KeepsTheLastOfSeveralPlans) {
  const TflmLog log = parse_tflm_log(
      "0 (id=0): size=16, offset=0, first_used=0 last_used=1\n"
      "0 (id=0): size=32, offset=0, first_used=0 last_used=1\n"
      "1 (id=1): size=48, offset=32, first_used=1 last_used=1\n",
      "log.txt");
  ASSERT_EQ(log.buffers.size(), 2u);
  EXPECT_EQ(log.buffers[0].size, 32);
}

TEST(TflmLog, RefusesDamagedLinesAndTextWithoutAPlan) {
  EXPECT_EQ(refusal("x\n0 (id=0): size=16, offset=\n"),
            "log.txt:2: not a PrintMemoryPlan buffer line (expected 'id=, size=, offset=, first_used=, last_used=')");
  EXPECT_EQ(refusal("hello\n"),
            "log.txt: holds no TFLM memory plan (PrintMemoryPlan lines '(id=N): size=...') and no allocation totals "
            "('Arena allocation head|tail N bytes')");
  EXPECT_EQ(refusal("0 (id=1): size=16, offset=0, first_used=0 last_used=1\n"),
            "log.txt: the memory plan's buffer ids are not 0, 1, 2, ...: id 1 where 0 was expected");
}

}  // namespace
}  // namespace usmpx
