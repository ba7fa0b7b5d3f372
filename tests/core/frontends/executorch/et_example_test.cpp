// The bundled example program (resources/examples/six_step_chain.pte) is what this project's
// writer makes, and plans as docs/executorch.md says.
#include <cstdlib>

#include <gtest/gtest.h>

#include "base/text_file.h"
#include "et_test_program.h"
#include "frontends/executorch/et_export.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

TEST(EtExample, BundledProgramIsTheWritersBytes) {
  const std::string path = testing::source_path("resources/examples/six_step_chain.pte");
  const std::string generated = testing::example_program_bytes();
  if (std::getenv("USMPX_WRITE_EXAMPLES")) write_file_atomically(path, generated);
  EXPECT_EQ(read_et_file(path), generated)
      << "regenerate with USMPX_WRITE_EXAMPLES=1 usmpx_core_tests --gtest_filter=EtExample.Bundled*";
}

TEST(EtExample, ExecuTorchsGreedyNeeds864BytesWhereBestNeeds576) {
  const std::string bytes = testing::example_program_bytes();
  const EtAnalysis a = analyse_et(bytes, "six_step_chain.pte", PoolOptions{});
  ASSERT_EQ(a.problem.buffers.size(), 7u);
  EXPECT_EQ(a.reproduced_by, "et_greedy");
  const std::vector<std::pair<int64_t, int64_t>> lifetimes = {{0, 0}, {0, 1}, {1, 3}, {2, 4}, {3, 5}, {4, 5}, {5, 5}};
  const std::vector<int64_t> sizes = {256, 256, 160, 192, 192, 192, 128};
  for (size_t b = 0; b < 7; ++b) {
    EXPECT_EQ(a.problem.buffers[b].lifetime->first(), lifetimes[b].first);
    EXPECT_EQ(a.problem.buffers[b].lifetime->last(), lifetimes[b].second);
    EXPECT_EQ(a.problem.buffers[b].size_bytes, sizes[b]);
  }
  const Plan greedy = testing::plan_with("et_greedy", a.problem);
  EXPECT_EQ(greedy.total_size(), 864);
  EXPECT_EQ(greedy.lower_bound_bytes, 576);
  const Plan best = testing::plan_with("best", a.problem);
  EXPECT_EQ(best.total_size(), 576);
  const EtExport e = export_et(a, bytes, "six_step_chain.pte", a.problem, best);
  EXPECT_EQ(e.pool_bytes, std::vector<int64_t>{576});
  const EtAnalysis back = analyse_et(e.bytes, "copy.pte", PoolOptions{});
  EXPECT_EQ(back.program.methods[0].buffer_sizes, (std::vector<int64_t>{0, 576}));
  EXPECT_EQ(back.as_built.allocations, best.allocations);
}

}  // namespace
}  // namespace usmpx
