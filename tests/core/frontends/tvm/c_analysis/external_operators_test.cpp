// External operators on the real CMSIS-NN model (../shared/mlf/firmware/mlperf_tiny_ic_cmsis_nn,
// TVM 0.10): calls into code the tree does not carry count as accesses to every buffer they
// receive; a file that does not parse whole is planned conservatively; missing code stops export.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <unistd.h>

#include "../mlf/mlf_test_support.h"
#include "base/text_file.h"
#include "checks/as_built_check.h"
#include "export/export_error.h"
#include "frontends/tvm/tvm_frontend.h"
#include "inputs/input_file.h"
#include "planners/common/validator.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;
using testing::buffer_named;
using testing::conflict_names;

const char* const kModel = "mlf/firmware/mlperf_tiny_ic_cmsis_nn";

// A step budget, not seconds: what best reaches does not depend on the machine's load.
PlannerOptions search_budget() {
  return testing::step_budget(50'000'000);
}

class CmsisNnModel : public ::testing::Test {
 protected:
  void SetUp() override {
    source_ = testing::shared_path(kModel);
    if (!fs::is_directory(source_)) GTEST_SKIP() << "shared data not found: " << source_;
  }
  void TearDown() override {
    if (!copy_.empty()) fs::remove_all(copy_);
  }

  // A copy of the model's tree with `from` replaced by `to` in default_lib2.c (or the file removed).
  std::string edited_copy(const std::string& from, const std::string& to, bool remove_lib2 = false) {
    copy_ = (fs::temp_directory_path() / ("usmpx_cmsis_" + std::to_string(::getpid()) + "_" +
                                          ::testing::UnitTest::GetInstance()->current_test_info()->name()))
                .string();
    fs::remove_all(copy_);
    fs::create_directories(copy_);
    fs::copy(fs::path(source_) / "model", fs::path(copy_) / "model", fs::copy_options::recursive);
    for (const auto& entry : fs::recursive_directory_iterator(copy_))
      fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
    const fs::path lib2 = fs::path(copy_) / "model/codegen/host/src/default_lib2.c";
    if (remove_lib2) {
      fs::remove(lib2);
      return copy_;
    }
    std::string text = read_text_file(lib2.string());
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    std::ofstream(lib2, std::ios::binary | std::ios::trunc) << text;
    return copy_;
  }

  std::string source_;
  std::string copy_;
};

TEST_F(CmsisNnModel, EveryBufferHasALifetimeAndTheSizeTheApiStates) {
  const LoadedInput in = load_input(source_);
  EXPECT_EQ(in.format, InputFormat::kFirmwareTree);
  ASSERT_EQ(in.problem.buffers.size(), 80u);
  for (const Buffer& b : in.problem.buffers) {
    // Constants are live for the whole run whatever their accesses (TVM emits lets for some unused ones).
    if (b.kind != BufferKind::kConstant) EXPECT_TRUE(b.lifetime) << b.name;
    EXPECT_FALSE(b.lifetime_assumed) << b.name;
  }
  // Sizes from the calls: dims before the data, the context's size, softmax rows x row size.
  EXPECT_EQ(buffer_named(in.problem, "sid_7").size_bytes, 16384);  // output_dims {1,32,32,16}
  EXPECT_EQ(buffer_named(in.problem, "sid_67").size_bytes, 64);    // avgpool output {1,1,1,64}
  EXPECT_EQ(buffer_named(in.problem, "sid_70").size_bytes, 10);    // fully connected output, softmax 1 x 10
  EXPECT_EQ(buffer_named(in.problem, "context_buffer_0").size_bytes, 108);
  EXPECT_EQ(buffer_named(in.problem, "context_buffer_8").size_bytes, 2304);
  // Only the firmware tree's note: every file parses with the project's CMSIS-NN declarations.
  ASSERT_EQ(in.warnings.size(), 1u) << in.warnings.front().message;
  EXPECT_EQ(in.warnings[0].code, "mlf-firmware-tree");
  // TVM's plan is valid and TVM's greedy_by_size reproduces it.
  ASSERT_TRUE(in.as_built);
  Plan built = *in.as_built;
  finish_plan(in.problem, built);
  EXPECT_FALSE(built.has_errors());
  EXPECT_EQ(match_as_built(in.problem, *in.as_built).matching, 80);
  EXPECT_EQ(built.pool_sizes[static_cast<size_t>(*in.problem.find_pool("global_workspace"))], 66112);
}

TEST_F(CmsisNnModel, ContextBufferIsLiveAtTheKernelCallThroughItsStruct) {
  const LoadedInput in = load_input(source_);
  // cmsis_nn_context holds context_buffer_0; the convolution that receives &context writes sid_7.
  const std::vector<std::string> conflicts = conflict_names(in.problem, "context_buffer_0");
  EXPECT_NE(std::find(conflicts.begin(), conflicts.end(), "sid_7"), conflicts.end());
  const Buffer& ctx = buffer_named(in.problem, "context_buffer_0");
  const Buffer& out = buffer_named(in.problem, "sid_7");
  EXPECT_GE(ctx.lifetime->last(), out.lifetime->first());
  // A re-plan keeps them apart.
  const Plan best = run_planner(*make_planner("best"), in.problem, search_budget());
  EXPECT_TRUE(validate(in.problem, best).empty());
  EXPECT_EQ(best.pool_sizes[static_cast<size_t>(*in.problem.find_pool("global_workspace"))], 49728);
}

TEST_F(CmsisNnModel, AFunctionThatDoesNotParseWholeIsPlannedLiveThroughout) {
  // A vendor type the tree does not declare: clang drops the statement holding the context.
  const std::string tree = edited_copy("cmsis_nn_context context= {context_buffer_0_let,108};",
                                       "vendor_ctx_t context= {context_buffer_0_let,108};");
  const LoadedInput in = load_input(tree);
  const Buffer& ctx = buffer_named(in.problem, "context_buffer_0");
  EXPECT_TRUE(ctx.lifetime_assumed);
  EXPECT_FALSE(buffer_named(in.problem, "context_buffer_1").lifetime_assumed) << "other operators parse whole";
  const auto assumed = std::find_if(in.warnings.begin(), in.warnings.end(),
                                    [](const Diagnostic& d) { return d.code == "mlf-assumed-lifetime"; });
  ASSERT_NE(assumed, in.warnings.end());
  EXPECT_NE(assumed->message.find("planned live for the whole run"), std::string::npos) << assumed->message;
  // It conflicts with every other workspace buffer, so no plan overlaps it with one.
  const int ctx_index = *in.problem.find_buffer("context_buffer_0");
  const Plan best = run_planner(*make_planner("best"), in.problem, search_budget());
  EXPECT_TRUE(validate(in.problem, best).empty());
  const Allocation& a = best.allocations[static_cast<size_t>(ctx_index)];
  for (size_t b = 0; b < in.problem.buffers.size(); ++b) {
    if (static_cast<int>(b) == ctx_index || in.problem.buffers[b].kind == BufferKind::kConstant) continue;
    const Allocation& o = best.allocations[b];
    const bool apart = o.pool != a.pool || o.offset >= a.offset + ctx.size_bytes ||
                       a.offset >= o.offset + in.problem.buffers[b].size_bytes;
    EXPECT_TRUE(apart) << in.problem.buffers[b].name << " overlaps context_buffer_0";
  }
}

TEST_F(CmsisNnModel, MissingOperatorCodeStopsTheExportOfARePlan) {
  const std::string tree = edited_copy("", "", /*remove_lib2=*/true);
  const ExportSource source = ExportSource::load(tree, LoadOptions{});
  const LoadedInput& in = source.input();
  EXPECT_FALSE(in.problem.find_buffer("context_buffer_0")) << "its code is gone";
  ASSERT_TRUE(in.as_built);
  const Plan greedy = run_planner(*make_planner("greedy_by_size"), in.problem, PlannerOptions{});
  try {
    (void)source.export_plan(in.problem, greedy, ExportOptions{});
    FAIL() << "a re-plan of a model with unreadable operators was exported";
  } catch (const ExportError& e) {
    EXPECT_NE(std::string(e.what()).find("operator tvmgen_default_cmsis_nn_main_0"), std::string::npos) << e.what();
  }
  Plan built = *in.as_built;
  finish_plan(in.problem, built);
  EXPECT_NO_THROW((void)source.export_plan(in.problem, built, ExportOptions{}));
}

}  // namespace
}  // namespace usmpx
