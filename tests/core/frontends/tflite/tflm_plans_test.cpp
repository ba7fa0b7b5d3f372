// tflm_greedy against TFLite Micro's own memory plans of real models (../shared/tflite): the same
// buffers in the same AddBuffer order, sizes, lifetimes, every offset and the arena head.
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "frontends/tflite/tflite_export.h"
#include "frontends/tflite/tflite_problem.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

nlohmann::json tflm_plans(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

TfliteAnalysis analyse_file(const std::string& path, const TfliteLoadOptions& options = {}) {
  return analyse_tflite(read_tflite_file(path), path, options);
}

class TflmPlans : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string json = testing::shared_path("tflite/tflm_plans.json");
    if (json.empty()) GTEST_SKIP() << "shared data not found: tflite/tflm_plans.json";
    plans_ = tflm_plans(json);
  }

  // Every model TFLM runs, with its path.
  std::vector<std::pair<std::string, nlohmann::json>> running() const {
    std::vector<std::pair<std::string, nlohmann::json>> models;
    for (const auto& [name, entry] : plans_["models"].items()) {
      if (entry["runs_in_tflm"].get<bool>())
        models.emplace_back(testing::shared_path("tflite/models/" + name + ".tflite"), entry);
    }
    return models;
  }

  nlohmann::json plans_;
};

TEST_F(TflmPlans, TflmGreedyGivesTflmsOffsetsAndHeadForEveryModel) {
  const auto models = running();
  ASSERT_EQ(models.size(), 11u);
  for (const auto& [path, entry] : models) {
    SCOPED_TRACE(path);
    const TfliteAnalysis a = analyse_file(path);
    const Problem& problem = a.problem;
    const auto& buffers = entry["buffers"];
    ASSERT_EQ(problem.buffers.size(), buffers.size());
    EXPECT_TRUE(a.unknown_scratch.empty());
    const Plan plan = run_planner(*make_planner("tflm_greedy"), problem, PlannerOptions{});
    EXPECT_FALSE(plan.has_errors());
    for (const auto& b : buffers) {
      const size_t id = b["id"].get<size_t>();
      SCOPED_TRACE("buffer " + std::to_string(id));
      const Buffer& buffer = problem.buffers[id];
      EXPECT_EQ(buffer.size_bytes, b["size"].get<int64_t>());
      EXPECT_EQ(buffer.lifetime->first(), b["first_used"].get<int64_t>());
      EXPECT_EQ(buffer.lifetime->last(), b["last_used"].get<int64_t>());
      EXPECT_EQ(plan.allocations[id].offset, b["offset"].get<int64_t>());
      if (b["tensor"].is_null()) {
        EXPECT_NE(buffer.origin.function.find("scratch"), std::string::npos);
      } else {
        EXPECT_EQ(a.tensors[b["tensor"].get<size_t>()].buffer, static_cast<int>(id));
      }
    }
    EXPECT_EQ(plan.pool_sizes[0], entry["arena_head_bytes"].get<int64_t>());
  }
}

TEST_F(TflmPlans, BestIsNeverLargerThanTflmAndNeverBelowTheLowerBound) {
  for (const auto& [path, entry] : running()) {
    SCOPED_TRACE(path);
    const TfliteAnalysis a = analyse_file(path);
    // A work budget, not the clock: the same search on any machine.
    const Plan best = run_planner(*make_planner("best"), a.problem, testing::step_budget(200000));
    EXPECT_FALSE(best.has_errors());
    EXPECT_LE(best.pool_sizes[0], entry["arena_head_bytes"].get<int64_t>());
    EXPECT_GE(best.pool_sizes[0], best.lower_bound_bytes);
  }
}

TEST_F(TflmPlans, SvdfAndLstmScratchSizesComeFromTheKernelRules) {
  const TfliteAnalysis svdf = analyse_file(testing::shared_path("tflite/models/keyword_scrambled.tflite"));
  ASSERT_EQ(svdf.problem.buffers.size(), 30u);
  EXPECT_EQ(svdf.problem.buffers[16].name, "SVDF#1/scratch0");
  EXPECT_EQ(svdf.problem.buffers[16].size_bytes, 256);
  EXPECT_EQ(svdf.problem.buffers[29].size_bytes, 128);
  const TfliteAnalysis lstm = analyse_file(testing::shared_path("tflite/models/trained_lstm_int8.tflite"));
  ASSERT_EQ(lstm.problem.buffers.size(), 9u);
  for (size_t k = 5; k < 9; ++k)
    EXPECT_EQ(lstm.problem.buffers[k].size_bytes, 48);  // 1 x 20 cells x int16, rounded to 16
}

TEST_F(TflmPlans, ExportedCopiesReadBackAsTheSamePlan) {
  for (const auto& [path, entry] : running()) {
    SCOPED_TRACE(path);
    const std::string bytes = read_tflite_file(path);
    const TfliteAnalysis a = analyse_tflite(bytes, path, {});
    for (const char* algorithm : {"tflm_greedy", "best"}) {
      SCOPED_TRACE(algorithm);
      const Plan plan = run_planner(*make_planner(algorithm), a.problem, testing::step_budget(200000));
      const TfliteExport e = export_tflite(a, bytes, path, plan);
      // The old bytes follow the new root region unchanged, moved by a multiple of 16.
      ASSERT_GT(e.bytes.size(), bytes.size());
      EXPECT_EQ((e.bytes.size() - bytes.size()) % 16, 0u);
      EXPECT_EQ(e.bytes.substr(e.bytes.size() - (bytes.size() - 8)), bytes.substr(8));
      const TfliteAnalysis copy = analyse_tflite(e.bytes, "copy.tflite", {});
      ASSERT_TRUE(copy.as_built);
      EXPECT_EQ(copy.problem.buffers, a.problem.buffers);
      EXPECT_EQ(copy.as_built->allocations, e.tflm_plan.allocations);
      // Tensors keep the plan's offsets; only scratch buffers may move (TFLM places them).
      for (const TfliteTensorInfo& t : a.tensors) {
        if (t.buffer >= 0)
          EXPECT_EQ(copy.as_built->allocations[static_cast<size_t>(t.buffer)],
                    plan.allocations[static_cast<size_t>(t.buffer)]);
      }
      EXPECT_EQ(copy.model.buffers.size(), a.model.buffers.size() + 1);
      EXPECT_EQ(copy.model.subgraphs[0].operators.size(), a.model.subgraphs[0].operators.size());
      // Writing the copy again patches the entry in place: same length, same bytes.
      const TfliteExport again = export_tflite(copy, e.bytes, "copy.tflite", plan);
      EXPECT_EQ(again.bytes, e.bytes);
    }
  }
}

TEST_F(TflmPlans, VelasOfflinePlanReadsAsAsBuilt) {
  const std::string path = testing::shared_path("tflite/models/person_detect_vela.tflite");
  const TfliteAnalysis a = analyse_file(path);
  ASSERT_TRUE(a.offline_offsets);
  EXPECT_EQ(*a.offline_offsets, (std::vector<int32_t>{0, -1, -1, 0, 0, 0}));
  ASSERT_TRUE(a.as_built);
  for (size_t t = 0; t < a.tensors.size(); ++t) {
    if (a.tensors[t].buffer >= 0 && (*a.offline_offsets)[t] >= 0)
      EXPECT_EQ(a.as_built->allocations[static_cast<size_t>(a.tensors[t].buffer)].offset, (*a.offline_offsets)[t]);
  }
  EXPECT_EQ(a.operators.size(), 1u);
  EXPECT_EQ(a.operators[0].name, "ethos-u");
  // The ethos-u kernel's two scratch requests are known; Vela's four overlapping tensors are its
  // intent: pinned, free of conflicts with one another, and no warning.
  EXPECT_TRUE(a.unknown_scratch.empty());
  EXPECT_EQ(a.operators[0].scratch_buffers.size(), 2u);
  EXPECT_EQ(a.npu_layout.size(), 4u);
  EXPECT_TRUE(a.warnings.empty());
}

}  // namespace
}  // namespace usmpx
