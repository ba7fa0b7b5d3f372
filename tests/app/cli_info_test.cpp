// usmpx info: the memory pressure of a .tflite and a .pte is the peak of bytes live at once.
#include <gtest/gtest.h>

#include "cli_run.h"
#include "inputs/input_file.h"
#include "model/live_bytes.h"
#include "test_support.h"
#include "text_table.h"

namespace usmpx {
namespace {

using testing::run_usmpx;

// info's memory pressure for a .tflite and a .pte is the peak of bytes live at once.
void expect_pressure_is_peak(const std::string& path) {
  const LoadedInput input = load_input(path);
  const int64_t peak = lifetime_memory_pressure(input.problem);
  ASSERT_GT(peak, 0) << path;
  const auto run = run_usmpx({"info", path});
  ASSERT_EQ(run.code, 0) << run.out << run.err;
  const std::string first = run.out.substr(0, run.out.find('\n'));
  EXPECT_NE(first.find("memory pressure " + cli::format_bytes(peak) + " bytes"), std::string::npos) << first;
  EXPECT_EQ(first.find("memory pressure 0 bytes"), std::string::npos) << first;
}

TEST(CliInfo, GivesTfliteAndPteTheirMemoryPressure) {
  USMPX_REQUIRE_SHARED(tflite, "tflite/models/hello_world_int8.tflite");
  expect_pressure_is_peak(tflite);
  USMPX_REQUIRE_SHARED(pte, "executorch/models/arduino_kws.pte");
  expect_pressure_is_peak(pte);
}

}  // namespace
}  // namespace usmpx
