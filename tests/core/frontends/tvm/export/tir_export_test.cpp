// Export of TIR dumps: a whole MLF module around the generated C, loadable by the MLF reader with
// the exported plan as its as-built plan; and proof by selftest that re-plans compute the same.
#include <gtest/gtest.h>

#include <filesystem>

#include "../mlf/mlf_test_support.h"
#include "export/bundle_writer.h"
#include "export/export_error.h"
#include "frontends/tvm/export/harness/tvm_selftest.h"
#include "frontends/tvm/mlf/mlf_model.h"
#include "frontends/tvm/tvm_frontend.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;

LoadOptions pools(std::vector<std::string> names, NamedValues<int64_t> hints = {}, bool io = false) {
  LoadOptions o;
  o.pools.workspace_pools = std::move(names);
  o.pools.workspace_size_hints = std::move(hints);
  o.pools.use_workspace_io = io;
  return o;
}

TEST(TirExport, KwsDscnnBecomesAnMlfModuleWhoseAsBuiltPlanIsTheExportedOne) {
  const ExportSource source = ExportSource::load(testing::source_path("resources/examples/kws_dscnn.tvmscript.py"),
                                                 pools({"dtcm", "sram"}, {{"dtcm", 16384}}));
  ASSERT_FALSE(source.is_mlf());
  const Problem& problem = source.input().problem;
  const Plan plan = testing::plan_with("hill_climb", problem);
  ASSERT_FALSE(plan.has_errors());
  const ExportBundle bundle = source.export_plan(problem, plan, {});
  std::vector<std::string> paths;
  for (const ExportFile& f : bundle.files)
    paths.push_back(f.path);
  EXPECT_EQ(paths,
            (std::vector<std::string>{"codegen/host/include/tvmgen_default.h", "codegen/host/src/default_lib0.c",
                                      "codegen/host/src/default_lib1.c", "codegen/host/usmpx_plan.json",
                                      "codegen/host/usmpx_pools.ld", "metadata.json", "src/kws_dscnn.tvmscript.py"}));
  const std::string& header = bundle.find("codegen/host/include/tvmgen_default.h")->data;
  EXPECT_NE(header.find("struct tvmgen_default_workspace_pools {\n  void* dtcm;\n  void* sram;\n};"),
            std::string::npos);
  EXPECT_NE(header.find("#define TVMGEN_DEFAULT_INPUT_1_SIZE 490\n"), std::string::npos) << header;
  EXPECT_NE(header.find("#define TVMGEN_DEFAULT_OUTPUT_SIZE 12\n"), std::string::npos);
  const std::string& lib0 = bundle.find("codegen/host/src/default_lib0.c")->data;
  EXPECT_NE(lib0.find("TVM_DLL int32_t tvmgen_default___tvm_main__(void* input_1,void* output0,uint8_t* dtcm_0_var,"
                      "uint8_t* sram_1_var);"),
            std::string::npos)
      << lib0;

  const fs::path out = fs::temp_directory_path() / "usmpx-tir-export-roundtrip";
  fs::remove_all(out);
  write_bundle(bundle, out.string());
  const MlfModel back = load_mlf_model(out.string());
  ASSERT_TRUE(back.as_built.has_value());
  int matched = 0;
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    if (problem.buffers[b].kind == BufferKind::kConstant) continue;  // linked into the code, not a pool
    const auto i = back.problem.find_buffer(problem.buffers[b].name);
    ASSERT_TRUE(i.has_value()) << problem.buffers[b].name;
    const Allocation& a = back.as_built->allocations[static_cast<size_t>(*i)];
    EXPECT_EQ(back.problem.pools[static_cast<size_t>(a.pool)].name,
              problem.pools[static_cast<size_t>(plan.allocations[b].pool)].name);
    EXPECT_EQ(a.offset, plan.allocations[b].offset) << problem.buffers[b].name;
    ++matched;
  }
  EXPECT_EQ(matched, 15);
  fs::remove_all(out);
}

TEST(TirExport, WorkspaceIoThatTvmWouldClobberIsRefusedAndPlannedSafelyOnRequest) {
  const std::string net = testing::fixture_path("export/small_net.py");
  const ExportSource tvm_like = ExportSource::load(net, pools({"sram"}, {}, true));
  const Plan plan = testing::plan_with("greedy_by_size", tvm_like.input().problem);
  try {
    tvm_like.export_plan(tvm_like.input().problem, plan, {});
    FAIL() << "exported outputs that the plan overwrites";
  } catch (const ExportError& e) {
    EXPECT_NE(std::string(e.what()).find("output 'out' shares bytes with 'out_f', which is live after it is written"),
              std::string::npos)
        << e.what();
  }
  LoadOptions safe = pools({"sram"}, {}, true);
  safe.pools.io_live_throughout = true;
  const ExportSource kept = ExportSource::load(net, safe);
  const Problem& problem = kept.input().problem;
  const Buffer& x = testing::buffer_named(problem, "x");
  const Buffer& out = testing::buffer_named(problem, "out");
  ASSERT_TRUE(x.lifetime && out.lifetime);
  EXPECT_EQ(x.lifetime->first(), 0);
  int64_t last = 0;
  for (const Buffer& b : problem.buffers)
    if (b.lifetime) last = std::max(last, b.lifetime->last());
  EXPECT_EQ(out.lifetime->last(), last);
  EXPECT_NO_THROW(kept.export_plan(problem, testing::plan_with("greedy_by_size", problem), {}));
}

TEST(TirExport, InputsAndOutputsInAnInternalPoolAreRefused) {
  const ExportSource source =
      ExportSource::load(testing::source_path("resources/examples/kws_dscnn.tvmscript.py"), pools({}, {}, true));
  const Plan plan = testing::plan_with("greedy_by_size", source.input().problem);
  try {
    source.export_plan(source.input().problem, plan, {});
    FAIL();
  } catch (const ExportError& e) {
    EXPECT_NE(std::string(e.what()).find("is planned into the internal pool 'global_workspace', which the application "
                                         "cannot reach"),
              std::string::npos)
        << e.what();
  }
}

std::vector<SelftestResult> selftest(const std::string& input, const LoadOptions& options, const std::string& algorithm,
                                     const std::vector<std::string>& targets, const std::string& name) {
  const ExportSource source = ExportSource::load(input, options);
  const Plan plan = testing::plan_with(algorithm, source.input().problem);
  ExportOptions eo;
  eo.harness = true;
  const fs::path work = fs::temp_directory_path() / ("usmpx-tir-selftest-" + name);
  fs::remove_all(work);
  auto results =
      run_selftest(source.original(eo), source.export_plan(source.input().problem, plan, eo), targets, work.string());
  fs::remove_all(work);
  return results;
}

TEST(TirExport, EveryBundledExampleComputesTheSameReplanned) {
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  struct Case {
    const char* file;
    const char* algorithm;
    size_t outputs;
  };
  for (const Case& c : {Case{"kws_dscnn.tvmscript.py", "hill_climb", 1},
                        Case{"kws_dscnn.planned.tvmscript.py", "greedy_by_conflicts", 1},
                        Case{"vww_mobilenet.legacy.txt", "greedy_by_conflicts", 1},
                        Case{"anomaly_autoencoder.legacy.txt", "hill_climb", 1}}) {
    SCOPED_TRACE(c.file);
    const auto results = selftest(testing::source_path(std::string("resources/examples/") + c.file),
                                  pools({"dtcm", "sram"}, {{"dtcm", 16384}}), c.algorithm, {"host"}, c.file);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_TRUE(results[0].same) << results[0].verdict << "\n" << results[0].original.log << results[0].replanned.log;
    EXPECT_EQ(results[0].replanned.outputs.size(), c.outputs);
  }
}

TEST(TirExport, KwsDscnnRunsOnEmulatedCortexM7) {
  std::string missing;
  if (!selftest_target_available("cortex-m7", &missing)) GTEST_SKIP() << missing << " is not installed";
  LoadOptions io = pools({"sram"}, {}, true);
  io.pools.io_live_throughout = true;
  const auto results = selftest(testing::source_path("resources/examples/kws_dscnn.tvmscript.py"), io, "hill_climb",
                                {"cortex-m7"}, "kws-m7");
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].same) << results[0].verdict << "\n" << results[0].replanned.log;
  EXPECT_GT(results[0].replanned.text, 0);
}

}  // namespace
}  // namespace usmpx
