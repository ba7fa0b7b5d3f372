// Several TFLite Micro interpreters on one MicroAllocator, against TFLM itself
// (../shared/tflite/tflm_multi_tenant.json): for every combination, order and build it holds, the
// shared head, the shared tail and the smallest shared kTensorArenaSize.
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "frontends/tflite/tflite_problem.h"
#include "frontends/tflite/tflm_shared.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

struct BuildCase {
  const char* key;
  TflmBuild build;
};

const BuildCase kBuilds[] = {
    {"reference_cortex_m4", {TflmKernels::kReference, TflmTarget::kCortexM}},
    {"cmsis_nn_cortex_m4", {TflmKernels::kCmsisNn, TflmTarget::kCortexM}},
    {"reference_x86_64", {TflmKernels::kReference, TflmTarget::kX86_64}},
};

TflmTenant tenant_of(const std::string& name, const TflmBuild& build) {
  const std::string path = testing::shared_path("tflite/models/" + name + ".tflite");
  TfliteLoadOptions options;
  options.build = build;
  const TfliteAnalysis a = analyse_tflite(read_tflite_file(path), path, options);
  const Plan plan = run_planner(*make_planner("tflm_greedy"), a.problem, PlannerOptions{});
  return tflm_tenant(name, a, plan.pool_sizes[0]);
}

TEST(TflmSharedArena, HeadTailAndSmallestArenaAreTflmsForEveryCombinationOrderAndBuild) {
  USMPX_REQUIRE_SHARED(json_path, "tflite/tflm_multi_tenant.json");
  std::ifstream in(json_path);
  const nlohmann::json truth = nlohmann::json::parse(in);
  int checked = 0;
  int64_t worst_tail = 0;
  int64_t worst_arena = 0;
  for (const BuildCase& b : kBuilds) {
    for (const auto& [combo, t] : truth["builds"][b.key].items()) {
      SCOPED_TRACE(std::string(b.key) + " " + combo);
      std::vector<TflmTenant> tenants;
      for (const auto& name : t["models"])
        tenants.push_back(tenant_of(name.get<std::string>(), b.build));
      const TflmSharedArena s = tflm_shared_arena(tenants, b.build);
      const auto& rec = t["recording_8MiB"];
      EXPECT_TRUE(s.exact);
      // The shared head is the largest head, to the byte.
      EXPECT_EQ(s.head, rec["shared_head"].get<int64_t>());
      // Tail and total as the recording allocator counts them; the smallest arena a plain
      // allocator runs in, order included.
      const int64_t tail_error = s.tail - rec["shared_tail"].get<int64_t>();
      const int64_t arena_error = s.arena - t["min_arena"].get<int64_t>();
      EXPECT_EQ(tail_error, 0);
      EXPECT_EQ(arena_error, 0);
      EXPECT_EQ(s.recording_total, rec["shared_total"].get<int64_t>());
      worst_tail = std::max(worst_tail, std::abs(tail_error));
      worst_arena = std::max(worst_arena, std::abs(arena_error));
      // Where the order matters (a model planned after others needs more than its head), it is seen.
      if (t["min_arena_minus_pred_plain"].get<int64_t>() > 1000) {
        EXPECT_GT(s.arena, s.arena_order_free + 1000);
      }
      // What sharing saves against one arena per model.
      EXPECT_NEAR(static_cast<double>(s.separate_arenas - s.arena),
                  static_cast<double>(t["sum_single_min_arena"].get<int64_t>() - t["min_arena"].get<int64_t>()), 64.0);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 54);  // (7 pairs x 2 orders + 1 triple x 6 orders) x 3 builds
  RecordProperty("worst_tail_error_bytes", static_cast<int>(worst_tail));
  RecordProperty("worst_arena_error_bytes", static_cast<int>(worst_arena));
}

TEST(TflmSharedArena, OrderMattersWhenTheLstmModelIsPlannedFirst) {
  USMPX_REQUIRE_SHARED(json_path, "tflite/tflm_multi_tenant.json");
  const TflmBuild build{TflmKernels::kReference, TflmTarget::kCortexM};
  const TflmTenant lstm = tenant_of("trained_lstm_int8", build);
  const TflmTenant svdf = tenant_of("keyword_scrambled", build);
  const TflmSharedArena svdf_first = tflm_shared_arena({svdf, lstm}, build);
  const TflmSharedArena lstm_first = tflm_shared_arena({lstm, svdf}, build);
  // TFLM: 15,616 and 17,080 bytes.
  EXPECT_EQ(svdf_first.head, lstm_first.head);
  EXPECT_EQ(svdf_first.arena, 15616);
  EXPECT_EQ(lstm_first.arena, 17080);
}

}  // namespace
}  // namespace usmpx
