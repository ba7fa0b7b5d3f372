// The memory a firmware provides for a method, as one figure: planned buffers, the method
// allocator, the temp allocator and the inputs and outputs the program does not plan; "at least"
// when a delegate's needs are unknown.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "et_test_program.h"
#include "frontends/families.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

LoadedInput load(const std::string& path) {
  return et_frontend().load(path, InputFormat::kExecuTorch, LoadOptions{});
}

std::string needs(const LoadedInput& in) {
  Plan plan = *in.as_built;
  finish_plan(in.problem, plan);
  return in.details->closing_text(in.problem, plan);
}

TEST(EtFirmwareMemory, OneFigurePerMethodAndTarget) {
  const LoadedInput in = load(testing::source_path("resources/examples/six_step_chain.pte"));
  const std::string text = needs(in);
  EXPECT_NE(text.find("firmware memory on cortex-m: 1,400 bytes = planned buffers 864 + method allocator 536 + temp "
                      "allocator 0 + inputs and outputs not planned 0"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("firmware memory on x86-64: 1,816 bytes = planned buffers 864 + method allocator 952"),
            std::string::npos)
      << text;
  Plan plan = *in.as_built;
  finish_plan(in.problem, plan);
  EXPECT_EQ(in.details->status_text(in.problem, plan),
            "forward: 864 B planned + 536 B allocator (Cortex-M) = 1,400 B in all");
}

// The delegate fixture with its 4 MiB input not planned: the application binds the input, and
// what XNNPACK takes from the temp allocator is unknown.
TEST(EtFirmwareMemory, UnplannedInputsAndDelegatesAreInTheFigure) {
  testing::EtTestProgram p = testing::two_delegates_joined_by_a_view();
  p.tensors[0].memory_id = 0;
  namespace fs = std::filesystem;
  const fs::path path = fs::temp_directory_path() / "usmpx-et-firmware-memory.pte";
  std::ofstream(path, std::ios::binary) << testing::et_test_program_bytes(p);
  const LoadedInput in = load(path.string());
  const std::string text = needs(in);
  EXPECT_NE(text.find("firmware memory on cortex-m: at least "), std::string::npos) << text;
  EXPECT_NE(text.find("+ temp allocator at least 0 + inputs and outputs not planned 4,194,304"), std::string::npos)
      << text;
  EXPECT_NE(text.find("(not counted: what delegate XnnpackBackend takes from the temp allocator at run time)"),
            std::string::npos)
      << text;
  Plan plan = *in.as_built;
  finish_plan(in.problem, plan);
  const std::string status = in.details->status_text(in.problem, plan);
  EXPECT_NE(status.find("B in all with 4,194,304 B of unplanned inputs/outputs"), std::string::npos) << status;
  EXPECT_NE(status.find("= at least "), std::string::npos) << status;
  fs::remove(path);
}

}  // namespace
}  // namespace usmpx
