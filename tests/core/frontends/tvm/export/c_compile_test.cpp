// Every bundled example, exported with a few pool set-ups, compiles with -Wall -Werror.
#include <gtest/gtest.h>

#include <filesystem>

#include "config/pool_options.h"
#include "export_test_support.h"
#include "frontends/tvm/export/codegen/tir_codegen_input.h"
#include "test_support.h"

namespace usmpx {
namespace {

std::vector<std::string> example_dumps() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(testing::source_path("resources/examples"))) {
    const std::string name = entry.path().filename().string();
    if (name.ends_with(".py") || name.ends_with(".txt")) files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(CCompile, EveryBundledExampleCompilesWithoutWarnings) {
  USMPX_REQUIRE_CC(cc);
  const std::vector<std::string> files = example_dumps();
  ASSERT_GE(files.size(), 4u);
  PoolOptions two_pools;
  two_pools.workspace_pools = {"dtcm", "sram"};
  two_pools.workspace_size_hints = {{"dtcm", 16384}};
  PoolOptions io;
  io.use_workspace_io = true;
  for (const std::string& file : files) {
    for (const auto& [label, options] : {std::pair{"default pools", PoolOptions{}}, std::pair{"dtcm + sram", two_pools},
                                         std::pair{"workspace io", io}}) {
      SCOPED_TRACE(file + ", " + label);
      const TirProblem tir = testing::analyze_tir_file(file, options);
      std::vector<Plan> plans = {testing::plan_with("greedy_by_size", tir.problem)};
      if (tir.as_built) plans.push_back(*tir.as_built);
      for (const Plan& plan : plans) {
        const TirCodegenResult r = emit_tir_host_module(tir_codegen_input(tir, plan));
        const testing::RunOutcome built = testing::compile_only(cc, r.source);
        EXPECT_TRUE(built.ok) << built.output;
      }
    }
  }
}

}  // namespace
}  // namespace usmpx
