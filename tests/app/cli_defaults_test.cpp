// usmpx without --algorithm uses the input's reference plan, as the explorer opens it, and says
// so; compare offers a toolchain's own planner only for that toolchain's inputs; size hints read
// what the tool prints.
#include <gtest/gtest.h>

#include "cli_run.h"
#include "test_support.h"

namespace usmpx {
namespace {

using testing::CliRun;
using testing::run_usmpx;

std::string example(const std::string& name) {
  return testing::source_path("resources/examples/" + name);
}

TEST(CliDefaults, PlanUsesTheReferencePlanOfEachFamilyAndSaysWhich) {
  struct Case {
    std::string input;
    std::string heading;
    std::string note;
  };
  const Case cases[] = {
      {example("kws_dscnn.planned.tvmscript.py"), "as-built plan of",
       "algorithm: as-built (the plan the input carries), the input's reference plan; --algorithm chooses another"},
      {testing::fixture_path("mlf/usmp_default_pools"), "as-built plan of",
       "algorithm: as-built (the plan the input carries), the input's reference plan"},
      {example("kws_dscnn.tvmscript.py"), "greedy_by_size plan of",
       "algorithm: greedy_by_size (TVM's default planner), the input's reference plan"},
      {example("tiny_classifier.tflite"), "tflm_greedy plan of",
       "algorithm: tflm_greedy (TFLM's own planner), the input's reference plan"},
      {example("kws_cnn.problem.json"), "greedy_by_size plan of",
       "algorithm: greedy_by_size (TVM's default planner), the input's reference plan"},
  };
  for (const Case& c : cases) {
    const CliRun run = run_usmpx({"plan", c.input});
    EXPECT_EQ(run.out.rfind(c.heading, 0), 0u) << run.out;
    EXPECT_NE(run.out.find(c.note), std::string::npos) << run.out;
  }
  // Chosen explicitly: no note.
  const CliRun chosen = run_usmpx({"plan", example("kws_dscnn.planned.tvmscript.py"), "--algorithm", "best"});
  EXPECT_EQ(chosen.out.rfind("best plan of", 0), 0u) << chosen.out;
  EXPECT_EQ(chosen.out.find("algorithm: "), std::string::npos) << chosen.out;
  // A pin leaves the carried plan behind: the toolchain's planner stands in for it.
  const CliRun pinned = run_usmpx({"plan", example("kws_dscnn.planned.tvmscript.py"), "--pin", "sid_1=sram"});
  EXPECT_EQ(pinned.out.rfind("greedy_by_size plan of", 0), 0u) << pinned.out << pinned.err;
}

TEST(CliDefaults, CompareOffersTflmGreedyOnlyForTflite) {
  const CliRun tvm = run_usmpx({"compare", example("kws_dscnn.tvmscript.py"), "--time-limit", "0.2"});
  EXPECT_EQ(tvm.out.find("tflm_greedy"), std::string::npos) << tvm.out;
  EXPECT_NE(tvm.out.find("greedy_by_size"), std::string::npos) << tvm.out;
  const CliRun tflite = run_usmpx({"compare", example("tiny_classifier.tflite"), "--time-limit", "0.2"});
  EXPECT_NE(tflite.out.find("tflm_greedy"), std::string::npos) << tflite.out;
}

TEST(CliDefaults, SizeHintsReadDecimalsAndUnits) {
  const CliRun run =
      run_usmpx({"plan", example("kws_cnn.problem.json"), "--workspace-pools-size-hint-bytes", "dtcm:4.6M", "--json"});
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("\"size_hint_bytes\": 4823450"), std::string::npos) << run.out;
  const CliRun bad =
      run_usmpx({"plan", example("kws_cnn.problem.json"), "--workspace-pools-size-hint-bytes", "dtcm:4.6"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("expected a byte count"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace usmpx
