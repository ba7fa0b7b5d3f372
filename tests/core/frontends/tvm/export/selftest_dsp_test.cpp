// Complete outputs the proof builds with what the project provides: TVM's Arm DSP schedules call
// CMSIS-NN's support helper read_and_pad, which the built-in arm_nnsupportfunctions.h defines;
// TVM's own warnings stay warnings (kept in the log). Fixtures under tests/fixtures/mlf.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "base/text_file.h"
#include "frontends/tvm/export/harness/tvm_selftest.h"
#include "frontends/tvm/export/mlf_export.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;
using testing::fixture_path;

std::vector<SelftestResult> prove(const MlfModel& m, const Plan& plan, const std::vector<std::string>& targets,
                                  const std::string& name) {
  ExportOptions eo;
  eo.harness = true;
  const fs::path work = fs::temp_directory_path() / ("usmpx-selftest-dsp-" + name);
  fs::remove_all(work);
  auto results =
      run_selftest(mlf_original_bundle(m, eo), export_mlf(m, m.problem, plan, eo), targets, work.string(), {});
  fs::remove_all(work);
  return results;
}

TEST(SelftestDsp, ReadAndPadComesFromTheBuiltInSupportHeader) {
  const MlfModel m = load_mlf_model(fixture_path("mlf/arm_dsp_read_and_pad"));
  ASSERT_TRUE(m.as_built.has_value());
  Plan as_built = *m.as_built;
  finish_plan(m.problem, as_built);
  EXPECT_FALSE(as_built.has_errors());
  EXPECT_EQ(as_built.pool_sizes, (std::vector<int64_t>{64, 48}));
  const Plan plan = testing::plan_with("greedy_by_size", m.problem);
  ASSERT_FALSE(plan.has_errors());
  EXPECT_EQ(plan.pool_sizes, (std::vector<int64_t>{64, 32}));
  ExportOptions eo;
  eo.harness = true;
  const ExportBundle original = mlf_original_bundle(m, eo);
  EXPECT_EQ(selftest_obstacle(original, {}), "") << "read_and_pad is the built-in header's";
  EXPECT_TRUE(selftest_uses_builtin_cmsis_nn(original, {}));
  const SelftestTargets chosen = choose_selftest_targets(original, {});
  std::vector<std::string> targets;
  for (const std::string& t : chosen.targets) {
    if (selftest_target_available(t)) targets.push_back(t);
  }
  if (targets.empty()) GTEST_SKIP() << "no target of " << chosen.reason << " is installed";
  for (const SelftestResult& r : prove(m, plan, {targets.front()}, "read-and-pad")) {
    EXPECT_TRUE(r.same) << r.target << ": " << r.verdict << r.original.log << r.replanned.log;
    ASSERT_EQ(r.replanned.outputs.size(), 1u);
    EXPECT_EQ(r.replanned.outputs[0].first, "output");
    EXPECT_EQ(r.replanned.outputs[0].second.substr(0, 3), "16 ");
  }
}

TEST(SelftestDsp, ReadAndPadWidensInMemoryOrder) {
  // The helper's documented result, checked by running it: (s0, s1) and (s2, s3), low half first.
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  const fs::path dir = fs::temp_directory_path() / "usmpx-read-and-pad";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string header = read_text_file(
      testing::source_path("core/frontends/tvm/export/harness/kernels/cmsis_nn/Include/arm_nnsupportfunctions.h"));
  for (const char* h : {"arm_nnsupportfunctions.h", "arm_nn_math_types.h", "arm_nn_types.h"}) {
    fs::copy_file(testing::source_path(std::string("core/frontends/tvm/export/harness/kernels/cmsis_nn/Include/") + h),
                  dir / h);
  }
  std::ofstream(dir / "main.c")
      << "#define USMPX_NN_NO_INTRINSICS\n#include <stdio.h>\n#include \"arm_nnsupportfunctions.h\"\n"
         "int main(void) {\n  const int8_t s[4] = {-3, 5, -128, 127};\n  int32_t a, b;\n"
         "  const int8_t* next = read_and_pad(s, &a, &b);\n"
         "  printf(\"%08x %08x %d\\n\", (unsigned)a, (unsigned)b, (int)(next - s));\n"
         "  read_and_pad_reordered(s, &a, &b);\n"
         "  printf(\"%08x %08x\\n\", (unsigned)a, (unsigned)b);\n  return 0;\n}\n";
  const std::string build = "cc -std=c11 -Wall -Werror -I" + dir.string() + " " + (dir / "main.c").string() + " -o " +
                            (dir / "main").string() + " && " + (dir / "main").string() + " > " +
                            (dir / "out.txt").string();
  ASSERT_EQ(std::system(build.c_str()), 0) << header.size();
  EXPECT_EQ(read_text_file((dir / "out.txt").string()), "0005fffd 007fff80 4\nff80fffd 007f0005\n");
  fs::remove_all(dir);
}

TEST(SelftestWarnings, TvmsWarningsStayWarningsInTheLog) {
  // TVM's code as some releases print it: a pool pointer given to a pointer of another type in
  // lib1.c, and an unused static function in the interface header the harness includes.
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  const fs::path dir = fs::temp_directory_path() / "usmpx-selftest-warnings";
  fs::remove_all(dir);
  fs::copy(fixture_path("mlf/usmp_default_pools"), dir, fs::copy_options::recursive);
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
  const fs::path lib1 = dir / "codegen/host/src/default_lib1.c";
  std::string text = read_text_file(lib1.string());
  const std::string body = "  void* fused_constant_let = (&(global_const_workspace_2_var[256]));\n";
  ASSERT_NE(text.find(body), std::string::npos);
  text.insert(text.find(body) + body.size(), "  int32_t* pool_view = global_workspace_3_var;\n  (void)pool_view;\n");
  std::ofstream(lib1, std::ios::binary | std::ios::trunc) << text;
  const fs::path header = dir / "codegen/host/include/tvmgen_default.h";
  std::string h = read_text_file(header.string());
  const std::string guard = "#include <stdint.h>\n";
  h.insert(h.find(guard) + guard.size(), "static int tvmgen_default_unused_helper(void) { return 0; }\n");
  std::ofstream(header, std::ios::binary | std::ios::trunc) << h;

  const MlfModel m = load_mlf_model(dir.string());
  const Plan plan = testing::plan_with("hill_climb", m.problem);
  const auto results = prove(m, plan, {"host"}, "warnings");
  fs::remove_all(dir);
  ASSERT_EQ(results.size(), 1u);
  const SelftestResult& r = results[0];
  EXPECT_TRUE(r.same) << r.verdict << r.original.log;
  EXPECT_NE(r.original.log.find("pool_view"), std::string::npos) << "the warning is kept in the log:\n"
                                                                 << r.original.log;
  EXPECT_NE(r.original.log.find("tvmgen_default_unused_helper"), std::string::npos);
  EXPECT_EQ(r.original.log.find("warnings being treated as errors"), std::string::npos);
}

}  // namespace
}  // namespace usmpx
