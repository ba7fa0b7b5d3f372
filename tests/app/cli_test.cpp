#include "cli.h"
#include "cli_run.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_support.h"

namespace usmpx {
namespace {

using testing::CliRun;
using testing::run_usmpx;

std::string fixture(const char* name) {
  return testing::fixture_path(name);
}

TEST(Cli, VersionAndHelp) {
  EXPECT_EQ(run_usmpx({"--version"}).out, std::string("usmpx ") + USMPX_VERSION + "\n");
  const CliRun help = run_usmpx({"--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("Commands:"), std::string::npos);
  const CliRun plan_help = run_usmpx({"plan", "--help"});
  EXPECT_EQ(plan_help.code, 0);
  EXPECT_NE(plan_help.out.find("--pin BUF=POOL[@OFFSET]"), std::string::npos);
}

TEST(Cli, UsageErrorsExitWith2) {
  EXPECT_EQ(run_usmpx({}).code, 2);
  EXPECT_EQ(run_usmpx({"frobnicate", "x"}).code, 2);
  EXPECT_EQ(run_usmpx({"plan"}).code, 2);
  const CliRun unknown = run_usmpx({"plan", fixture("tvm_examples/linear.json"), "--algorithm", "magic"});
  EXPECT_EQ(unknown.code, 2);
  EXPECT_NE(unknown.err.find("unknown algorithm 'magic' (available: greedy_by_size, greedy_by_conflicts, hill_climb"),
            std::string::npos);
  EXPECT_EQ(run_usmpx({"plan", fixture("tvm_examples/linear.json"), "--pin", "nope=global_workspace"}).code, 2);
  EXPECT_EQ(run_usmpx({"plan", fixture("tvm_examples/linear.json"), "--time-limit", "soon"}).code, 2);
  EXPECT_EQ(run_usmpx({"plan", fixture("tvm_examples/linear.json"), "--bogus"}).code, 2);
}

TEST(Cli, BadInputExitsWith3AndNamesThePosition) {
  const CliRun missing = run_usmpx({"plan", "/nonexistent/problem.json"});
  EXPECT_EQ(missing.code, 3);
  EXPECT_EQ(missing.err, "/nonexistent/problem.json: no such file or folder\n");
  const CliRun bad = run_usmpx({"info", fixture("bad/negative_size.json")});
  EXPECT_EQ(bad.code, 3);
  EXPECT_EQ(bad.err, fixture("bad/negative_size.json") + ":6:66: size_bytes must not be negative\n");
}

TEST(Cli, PlanJsonMatchesTvm) {
  const CliRun run = run_usmpx({"plan", fixture("tvm_examples/fanout.json"), "--algorithm", "hill_climb", "--json"});
  EXPECT_EQ(run.code, 1) << "the asymmetric fanout lists make TVM overlap buffers";
  const auto json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json["algorithm"], "hill_climb");
  EXPECT_EQ(json["fits"], true);
  EXPECT_EQ(json["pools"][0]["size_bytes"], 190);
  EXPECT_EQ(json["allocations"][0]["buffer"], "bi_a");
  EXPECT_EQ(json["allocations"][0]["offset"], 100);
  EXPECT_NE(run.err.find("error: buffers 'bi_f'"), std::string::npos);
}

TEST(Cli, NpuPoolKeepsTvmsSizeInEveryPlan) {
  // The Ethos-U operator is given global_workspace: its 74,462 bytes no known buffer holds stay.
  const CliRun built = run_usmpx({"plan", fixture("mlf/usmp_ethosu_npu"), "--algorithm", "as-built", "--json"});
  EXPECT_EQ(built.code, 0) << built.err;
  const auto json = nlohmann::json::parse(built.out);
  EXPECT_EQ(json["pools"][1]["name"], "global_workspace");
  EXPECT_EQ(json["pools"][1]["size_bytes"], 74480);
  EXPECT_EQ(json["allocations"][3]["buffer"], "reserved_global_workspace_18");
  EXPECT_EQ(json["allocations"][3]["kind"], "reserved");
  EXPECT_EQ(json["allocations"][3]["offset"], 18);
  EXPECT_EQ(json["allocations"][3]["size_bytes"], 74462);
  EXPECT_FALSE(json["allocations"][1].contains("kind"));
  size_t warnings = 0;
  for (size_t at = built.err.find("74462 bytes"); at != std::string::npos; at = built.err.find("74462 bytes", at + 1))
    ++warnings;
  EXPECT_EQ(warnings, 1u) << built.err;
  const auto best =
      nlohmann::json::parse(run_usmpx({"plan", fixture("mlf/usmp_ethosu_npu"), "--algorithm", "best", "--json"}).out);
  EXPECT_GE(best["pools"][1]["size_bytes"].get<int64_t>(), 74480);
}

TEST(Cli, PlanTableForTwoPools) {
  const CliRun run = run_usmpx({"plan", fixture("tvm_examples/linear.json"), "--workspace-pools", "fast,slow",
                                "--workspace-pools-size-hint-bytes", "fast:60"});
  EXPECT_EQ(run.code, 0) << run.out << run.err;
  // c (100) cannot go into fast; e, b and a do, the rest falls back to slow.
  // Every buffer may go into either pool, so no pool has bytes every plan must give it (bound 0, no
  // gap); the total's bound is the peak of all six (140: everything in slow), 35.7% below this plan.
  EXPECT_NE(run.out.find("  fast   workspace    50         60  83.3%            0      -        3"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("  slow   workspace   140  unlimited      -            0      -        3"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("  total              190                            140  35.7%        6"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("  bi_a    fast      20    10   30      1  intermediate"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("  bi_d    slow     100    40  140      1  intermediate"), std::string::npos) << run.out;
}

TEST(Cli, TvmEraseReinsertQuirkIsReproducedAndFlagged) {
  // With fast limited to 100, d's first conflict c pushes it out of fast, and its next conflict e
  // puts fast back at 50: TVM places d over c. The plan "fits" but is invalid.
  const CliRun run = run_usmpx({"plan", fixture("tvm_examples/linear.json"), "--workspace-pools", "fast,slow",
                                "--workspace-pools-size-hint-bytes", "fast:100"});
  EXPECT_EQ(run.code, 1);
  EXPECT_NE(run.out.find("  bi_d    fast      50    40   90"), std::string::npos) << run.out;
  EXPECT_NE(
      run.out.find("error: buffers 'bi_c' [0, 100) and 'bi_d' [50, 90) overlap in pool 'fast' while both are live"),
      std::string::npos);
}

TEST(Cli, PinsAreHonoured) {
  const CliRun run =
      run_usmpx({"plan", fixture("tvm_examples/linear.json"), "--pin", "bi_a=global_workspace@500", "--json"});
  EXPECT_EQ(run.code, 0) << run.err;
  const auto json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json["allocations"][0]["offset"], 500);
  EXPECT_EQ(json["allocations"][1]["offset"], 510);  // b conflicts with a: TVM's rule puts it above
  EXPECT_EQ(json["pools"][0]["size_bytes"], 530);
}

TEST(Cli, CheckGatesOnOverflow) {
  const CliRun ok =
      run_usmpx({"check", fixture("tvm_examples/linear.json"), "--capacity", "140", "--algorithm", "greedy_by_size"});
  EXPECT_EQ(ok.code, 0) << ok.out;
  EXPECT_NE(ok.out.find("check passed"), std::string::npos);
  const CliRun quirk =
      run_usmpx({"check", fixture("tvm_examples/linear.json"), "--capacity", "139", "--algorithm", "greedy_by_size"});
  EXPECT_EQ(quirk.code, 1);
  EXPECT_NE(quirk.out.find("error: buffers 'bi_c' [0, 100) and 'bi_d' [50, 90) overlap"), std::string::npos);
  const CliRun overflow =
      run_usmpx({"check", fixture("tvm_examples/linear.json"), "--capacity", "99", "--algorithm", "greedy_by_size"});
  EXPECT_EQ(overflow.code, 1);
  EXPECT_NE(overflow.out.find("TVM USMP Error: the space available"), std::string::npos);
  EXPECT_NE(overflow.out.find("check FAILED"), std::string::npos);
}

TEST(Cli, CompareTabulatesEveryTvmAlgorithm) {
  const CliRun run = run_usmpx({"compare", fixture("tvm_examples/fanout.json"), "--json"});
  const auto json = nlohmann::json::parse(run.out);
  // TVM's three first, then the one-pass planners and best (not the searching multi_start, exact;
  // not TFLM's tflm_greedy, which applies to .tflite models only).
  const std::vector<std::string> expected = {
      "greedy_by_size",         "greedy_by_conflicts",    "hill_climb",    "first_fit",        "best_fit_size",
      "best_fit_size_duration", "best_fit_duration_size", "best_fit_area", "best_fit_breadth", "best"};
  ASSERT_EQ(json["plans"].size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(json["plans"][i]["algorithm"], expected[i]);
  EXPECT_EQ(json["plans"][0]["pools"][0]["size_bytes"], 190);
  EXPECT_EQ(json["plans"][1]["pools"][0]["size_bytes"], 320);
  EXPECT_EQ(json["plans"][2]["pools"][0]["size_bytes"], 190);
  // TVM reads fanout's conflict lists one way (190 overlaps); both directions need the bound, 210.
  EXPECT_EQ(json["lower_bound_bytes"], 210);
  EXPECT_EQ(json["plans"][9]["pools"][0]["size_bytes"], 210);
  EXPECT_EQ(json["plans"][9]["fits"], true);
  const CliRun table = run_usmpx({"compare", fixture("tvm_examples/linear.json")});
  EXPECT_EQ(table.code, 0);
  EXPECT_NE(table.out.find("greedy_by_conflicts"), std::string::npos);
}

// The bound is the problem's, so compare measures each row from it: on an odd cycle of conflicts
// (five 10-byte buffers) the clique bound is 20, the bound search proves 30 for every planner
// (also a one-pass one), and the one-pass planners' 30 is then 0.0% above it, not 50%.
TEST(Cli, CompareMeasuresEveryRowFromTheHighestBound) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "usmpx-cli-cycle5.json";
  {
    std::ofstream out(path);
    out << R"({"format": "usmpx-problem", "version": 1,
      "pools": [{"name": "global_workspace", "kind": "workspace", "size_hint_bytes": -1, "alignment": 1}],
      "buffers": [{"name": "a", "size_bytes": 10, "alignment": 1, "conflicts": ["b", "e"]},
                  {"name": "b", "size_bytes": 10, "alignment": 1, "conflicts": ["c"]},
                  {"name": "c", "size_bytes": 10, "alignment": 1, "conflicts": ["d"]},
                  {"name": "d", "size_bytes": 10, "alignment": 1, "conflicts": ["e"]},
                  {"name": "e", "size_bytes": 10, "alignment": 1, "conflicts": []}]})";
  }
  const auto json = nlohmann::json::parse(run_usmpx({"compare", path.string(), "--json"}).out);
  ASSERT_EQ(json["plans"].size(), 10u);
  EXPECT_EQ(json["plans"][3]["algorithm"], "first_fit");
  EXPECT_EQ(json["plans"][3]["lower_bound_bytes"], 30);
  EXPECT_EQ(json["plans"][9]["algorithm"], "best");
  EXPECT_EQ(json["plans"][9]["lower_bound_bytes"], 30);
  EXPECT_EQ(json["lower_bound_bytes"], 30);
  const CliRun table = run_usmpx({"compare", path.string()});
  EXPECT_NE(table.out.find("lower bound 30 bytes"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("  first_fit                             30     30    0.0%"), std::string::npos)
      << table.out;
  std::filesystem::remove(path);
}

TEST(Cli, InfoListsBuffers) {
  const CliRun run = run_usmpx({"info", fixture("tvm_examples/linear.json")});
  EXPECT_EQ(run.code, 0);
  EXPECT_NE(run.out.find("  bi_c     100      1  intermediate  -                 2  global_workspace"),
            std::string::npos)
      << run.out;
}

std::string example(const char* name) {
  return testing::source_path(std::string("resources/examples/") + name);
}

TEST(Cli, InfoOnATirDumpShowsOriginsAndLifetimes) {
  const std::string path = example("kws_dscnn.tvmscript.py");
  const CliRun run = run_usmpx({"info", path});
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find(path + " (TVMScript TIR): 23 buffers, 2 pools, memory pressure 20,928 bytes"),
            std::string::npos)
      << run.out;
  EXPECT_NE(
      run.out.find("  sid_1               8,000     16  intermediate  [8, 25]           3  global_workspace        "
                   "__tvm_main__ " +
                   path + ":143:9"),
      std::string::npos)
      << run.out;
  EXPECT_NE(
      run.out.find("  fused_constant2       576     16  constant      [34, 34]          7  global_const_workspace  "
                   "tvmgen_default_fused_nn_conv2d_add_fixed_point_multiply_clip_cast_1 " +
                   path + ":43:9"),
      std::string::npos)
      << run.out;
}

TEST(Cli, PlansTirDumpsIntoTwoPools) {
  const CliRun run = run_usmpx({"plan", example("kws_dscnn.tvmscript.py"), "--workspace-pools", "dtcm,sram",
                                "--workspace-pools-size-hint-bytes", "dtcm:16384", "--json"});
  EXPECT_EQ(run.code, 0) << run.err;
  const auto json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json["pools"][0]["name"], "dtcm");
  EXPECT_EQ(json["pools"][0]["size_bytes"], 12352);
  EXPECT_EQ(json["pools"][1]["size_bytes"], 8000);
  EXPECT_EQ(json["lower_bound_bytes"], 20352);

  const CliRun legacy =
      run_usmpx({"plan", example("vww_mobilenet.legacy.txt"), "--workspace-pools", "dtcm,sram",
                 "--workspace-pools-size-hint-bytes", "dtcm:32768", "--algorithm", "hill_climb", "--json"});
  EXPECT_EQ(legacy.code, 0) << legacy.err;
  const auto vww = nlohmann::json::parse(legacy.out);
  EXPECT_EQ(vww["pools"][0]["size_bytes"], 27888);
  EXPECT_EQ(vww["pools"][1]["size_bytes"], 36864);
}

TEST(Cli, PostUsmpDumpsCheckAsBuilt) {
  const std::string path = example("kws_dscnn.planned.tvmscript.py");
  const CliRun check = run_usmpx({"check", path});
  EXPECT_EQ(check.code, 0) << check.out;
  EXPECT_NE(check.out.find("as-built plan of " + path + ": 15 buffers, 2 pools, fits, total 20,352 bytes"),
            std::string::npos)
      << check.out;
  const CliRun compare = run_usmpx({"compare", path, "--workspace-pools-size-hint-bytes", "dtcm:16384", "--json"});
  const auto json = nlohmann::json::parse(compare.out);
  ASSERT_EQ(json["plans"].size(), 11u);
  EXPECT_EQ(json["plans"][10]["algorithm"], "as-built");
  EXPECT_EQ(json["plans"][10]["allocations"], json["plans"][0]["allocations"]);  // = greedy_by_size
}

TEST(Cli, WorkspaceIoOnALegacyDump) {
  const CliRun run = run_usmpx({"info", example("anomaly_autoencoder.legacy.txt"), "--use-workspace-io", "--json"});
  EXPECT_EQ(run.code, 0) << run.err;
  const auto json = nlohmann::json::parse(run.out);
  ASSERT_EQ(json["buffers"].size(), 12u);
  EXPECT_EQ(json["buffers"][0]["name"], "output_1");
  EXPECT_EQ(json["buffers"][0]["kind"], "output");
  EXPECT_EQ(json["buffers"][1]["name"], "input_1");
  EXPECT_EQ(json["buffers"][1]["kind"], "input");
  EXPECT_EQ(json["buffers"][1]["size_bytes"], 640);
}

TEST(Cli, BrokenTirDumpExitsWith3AndNamesThePosition) {
  const CliRun run = run_usmpx({"plan", fixture("bad/broken_dump.py")});
  EXPECT_EQ(run.code, 3);
  EXPECT_EQ(run.err, fixture("bad/broken_dump.py") + ":8:9: expected ')' to close the argument list, got 'X'\n");
}

TEST(Cli, CsvInput) {
  USMPX_REQUIRE_SHARED(path, "benchmarks/minimalloc/input.12.csv");
  const CliRun run = run_usmpx({"plan", path, "--capacity", "12", "--algorithm", "hill_climb", "--json"});
  const auto json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json["lower_bound_bytes"], 12);
  EXPECT_EQ(json["pools"][0]["size_hint_bytes"], 12);
}

TEST(Cli, MlfInfoPrintsBuffersAndNotes) {
  USMPX_REQUIRE_SHARED(path, "mlf/letscope_v7.tar");
  const CliRun run = run_usmpx({"info", path});
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find(path + " (Model Library Format): 5 buffers, 2 pools, memory pressure 2,560 bytes"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("note: 9 constant arrays (273416 bytes) stay static arrays"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("  sid_2     512     16  intermediate  [21, 38]          2  global_workspace"),
            std::string::npos)
      << run.out;
  const CliRun as_built = run_usmpx({"plan", path, "--algorithm", "as-built"});
  EXPECT_EQ(as_built.code, 2);
  EXPECT_EQ(as_built.err, "usmpx: --algorithm as-built: " + path + " carries no plan\n");
}

TEST(Cli, MlfAsBuiltCheckReportsTheSelfCheck) {
  const std::string dir = testing::fixture_path("mlf/usmp_default_pools");
  const CliRun check = run_usmpx({"check", dir});
  EXPECT_EQ(check.code, 0) << check.out << check.err;
  EXPECT_NE(check.out.find("as-built plan of " + dir + ": 9 buffers, 2 pools, fits, total 520 bytes"),
            std::string::npos)
      << check.out;
  EXPECT_NE(check.out.find("as-built plan: greedy_by_size reproduces 9 of 9 offsets\n"), std::string::npos)
      << check.out;
  const CliRun plan = run_usmpx({"plan", dir, "--algorithm", "as-built", "--json"});
  const auto json = nlohmann::json::parse(plan.out);
  EXPECT_EQ(json["algorithm"], "as-built");
  EXPECT_EQ(json["pools"][0]["name"], "global_const_workspace");
  EXPECT_EQ(json["pools"][0]["size_bytes"], 312);
  EXPECT_EQ(json["pools"][1]["size_bytes"], 208);
  const CliRun compare = run_usmpx({"compare", dir});
  EXPECT_NE(compare.out.find("  as-built"), std::string::npos) << compare.out;
}

TEST(Cli, MlfUnknownModuleExitsWith3) {
  const std::string dir = testing::fixture_path("mlf/usmp_external_pools");
  const CliRun run = run_usmpx({"info", dir, "--module", "default"});
  EXPECT_EQ(run.code, 3);
  EXPECT_EQ(run.err, dir + "/metadata.json: no module 'default' (modules: mini)\n");
  EXPECT_EQ(run_usmpx({"info", dir, "--module", "mini"}).code, 0);
}

}  // namespace
}  // namespace usmpx

namespace usmpx {
namespace {

TEST(CliExport, WritesAFolderOrArchiveAndRefusesToOverwrite) {
  namespace fs = std::filesystem;
  const fs::path out = fs::temp_directory_path() / "usmpx-cli-export-test";
  fs::remove_all(out);
  const std::string input = testing::fixture_path("mlf/usmp_default_pools");
  const CliRun first = run_usmpx({"export", input, "--algorithm", "hill_climb", "--out", out.string()});
  EXPECT_EQ(first.code, 0) << first.out << first.err;
  EXPECT_NE(first.out.find("hill_climb plan: total 440 bytes (lower bound 440)"), std::string::npos) << first.out;
  EXPECT_NE(first.out.find("  codegen/host/src/default_lib1.c\n"), std::string::npos);
  EXPECT_TRUE(fs::exists(out / "codegen/host/usmpx_pools.ld"));
  const CliRun again = run_usmpx({"export", input, "--out", out.string()});
  EXPECT_EQ(again.code, 2);
  EXPECT_NE(again.err.find("exists and is not empty; use --force"), std::string::npos);
  EXPECT_EQ(run_usmpx({"export", input, "--out", out.string(), "--force", "--harness"}).code, 0);
  EXPECT_TRUE(fs::exists(out / "harness/Makefile"));
  const std::string tar = out.string() + ".tar.gz";
  EXPECT_EQ(run_usmpx({"export", input, "--out", tar, "--force", "--pool-section", "global_workspace=.sram"}).code, 0);
  EXPECT_TRUE(fs::exists(tar));
  fs::remove_all(out);
  fs::remove(tar);
}

TEST(CliExport, UsageAndInputErrors) {
  const std::string input = testing::fixture_path("mlf/usmp_default_pools");
  EXPECT_EQ(run_usmpx({"export", input}).code, 2);  // no --out
  EXPECT_EQ(run_usmpx({"export", input, "--out", "/tmp/x", "--pool-section", "nosuch=.x"}).code, 2);
  EXPECT_EQ(run_usmpx({"export", input, "--out", "/tmp/x", "--pool-section", "broken"}).code, 2);
  const CliRun problem = run_usmpx({"export", testing::fixture_path("tvm_examples/linear.json"), "--out", "/tmp/x"});
  EXPECT_EQ(problem.code, 2);
  EXPECT_NE(problem.err.find("is neither a Model Library Format archive or folder, a firmware tree nor a TIR dump; "
                             "problem files carry no code to export"),
            std::string::npos)
      << problem.err;
  const CliRun overflow = run_usmpx({"export", input, "--workspace-pools", "sram", "--workspace-pools-size-hint-bytes",
                                     "sram:64", "--out", "/tmp/usmpx-never-written"});
  EXPECT_EQ(overflow.code, 1);
  EXPECT_NE(overflow.out.find("the plan cannot be exported"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists("/tmp/usmpx-never-written"));
}

// The selftest is offered by the input's family (ModelExporter::selftest): a TFLite model's export
// is a model file, not a program to build, and the command says so instead of trying.
TEST(CliExport, SelftestRefusesAFamilyWithoutOne) {
  const CliRun run = run_usmpx({"selftest", testing::source_path("resources/examples/tiny_classifier.tflite")});
  EXPECT_EQ(run.code, 1) << run.out;
  EXPECT_NE(run.out.find("selftest cannot run this input: its exports are not programs this tool builds"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("selftest FAILED"), std::string::npos) << run.out;
}

TEST(CliExport, SelftestComparesTheOriginalAndTheReplannedBuild) {
  const CliRun run =
      run_usmpx({"selftest", testing::fixture_path("mlf/usmp_external_pools"), "--algorithm", "hill_climb"});
  if (run.out.find("SKIPPED host") != std::string::npos) GTEST_SKIP() << run.out;
  EXPECT_EQ(run.code, 0) << run.out;
  EXPECT_NE(run.out.find("pool bytes: 100 as built, 100 re-planned"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("host    same outputs"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("selftest passed"), std::string::npos);
  EXPECT_EQ(run_usmpx({"selftest", testing::fixture_path("mlf/usmp_external_pools"), "--targets", "z80"}).code, 2);
  EXPECT_NE(run.out.find("targets: host (portable C: no Arm intrinsics, arm_acle.h or CMSIS headers)\n"),
            std::string::npos)
      << run.out;
}

TEST(CliExport, SelftestRefusesVendorKernelsBeforeCompilingAndKernelsDirSuppliesThem) {
  const std::string input = testing::fixture_path("mlf/selftest_refusals/esp_dl_kernels");
  const std::string keep = (std::filesystem::temp_directory_path() / "usmpx-cli-selftest-refusal").string();
  std::filesystem::remove_all(keep);
  const CliRun refused = run_usmpx({"selftest", input, "--keep", keep});
  EXPECT_EQ(refused.code, 1);
  EXPECT_NE(refused.out.find("usmpx selftest: selftest cannot run this model: default_lib2.c calls esp_dl_nn_relu_f32, "
                             "esp_dl_nn_leaky_relu_f32 (defined nowhere in the model) and includes esp_dl_nn.h (not in "
                             "the model): vendor kernels; give their sources and headers with --kernels DIR (DIR/*.c, "
                             "headers in DIR or DIR/include)\n"),
            std::string::npos)
      << refused.out;
  EXPECT_EQ(refused.out.find("targets:"), std::string::npos) << refused.out;
  EXPECT_FALSE(std::filesystem::exists(keep)) << "nothing may be compiled";
  const CliRun supplied = run_usmpx({"selftest", input, "--algorithm", "hill_climb", "--kernels",
                                     testing::fixture_path("mlf/selftest_refusals/esp_dl_kernels_src")});
  if (supplied.out.find("SKIPPED host") != std::string::npos) GTEST_SKIP() << supplied.out;
  EXPECT_EQ(supplied.code, 0) << supplied.out;
  EXPECT_NE(supplied.out.find("host    same outputs"), std::string::npos) << supplied.out;
}

}  // namespace
}  // namespace usmpx
