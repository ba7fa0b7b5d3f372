// What a user sees on the command line for every layout and era: the number of buffers and exit
// 0 where the code is there, exit 3 and one line with the reason where it is not or cannot be
// planned (never "0 buffers" with exit 0).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "base/text_file.h"
#include "cli_run.h"
#include "test_support.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;
using testing::fixture_path;
using testing::run_usmpx;

TEST(CliLayouts, FlatMlfFolderListsItsBuffers) {
  const std::string dir = fixture_path("mlf/flat_mnist");
  const auto run = run_usmpx({"check", dir});
  EXPECT_EQ(run.code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("as-built plan of " + dir + ": 9 buffers, 2 pools, fits, total 520 bytes"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("as-built plan: greedy_by_size reproduces 9 of 9 offsets\n"), std::string::npos) << run.out;
}

TEST(CliLayouts, GraphExecutorExitsWith3AndTheReason) {
  const std::string dir = fixture_path("mlf/graph_executor");
  for (const char* command : {"info", "plan", "check"}) {
    const auto run = run_usmpx({command, dir});
    EXPECT_EQ(run.code, 3) << command;
    EXPECT_EQ(run.out, "") << command;
    EXPECT_EQ(run.err, dir +
                           "/metadata.json: module 'default' was built for the graph executor (\"executors\": "
                           "[\"graph\"]), which has no static memory plan: its tensors are allocated at run time, so "
                           "there is nothing to plan; compile with the AOT executor (tvmc --executor aot, or "
                           "relay.build(..., executor=Executor(\"aot\")))\n")
        << command;
  }
}

TEST(CliLayouts, GraphExecutorFirmwareTreeExitsWith3AndTheReason) {
  // No metadata.json: recognised by its system-lib shape, not "unknown input kind".
  const std::string dir = fixture_path("mlf/graph_executor_tree");
  for (const char* command : {"info", "plan", "selftest"}) {
    const auto run = run_usmpx({command, dir});
    EXPECT_EQ(run.code, 3) << command;
    EXPECT_EQ(run.err, dir +
                           ": graph executor: no static plan: src/model/lib0.c registers the operators "
                           "(fused_nn_conv2d_add_nn_relu, ...) for TVM's graph executor (_lookup_linked_param), which "
                           "allocates every tensor at run time, so there is nothing to plan; compile with the AOT "
                           "executor (tvmc --executor aot, or relay.build(..., executor=Executor(\"aot\")))\n")
        << command;
  }
}

TEST(CliLayouts, AlignmentFromTvmsPlanKeepsTheLoneLibraryValid) {
  const std::string lib = fixture_path("mlf/operator_library_align8");
  const auto run = run_usmpx({"check", lib, "--algorithm", "as-built"});
  EXPECT_EQ(run.code, 0) << run.out << run.err;
  const std::string said = run.out + run.err;
  EXPECT_NE(said.find("taken from TVM's plan, the largest power of two up to 16 dividing every offset TVM placed in "
                      "the pool (bytes): 'global_workspace' 8"),
            std::string::npos)
      << said;
  EXPECT_NE(said.find("as-built plan: greedy_by_size reproduces 9 of 9 offsets"), std::string::npos) << said;
  EXPECT_EQ(said.find("is not aligned"), std::string::npos) << said;
  // Its as-built export writes lib1.c back byte for byte and no lib0.c of its own.
  const fs::path out = fs::temp_directory_path() / ("usmpx_cli_lone_" + std::to_string(::getpid()));
  fs::remove_all(out);
  const auto exported = run_usmpx({"export", lib, "--algorithm", "as-built", "--out", out.string()});
  EXPECT_EQ(exported.code, 0) << exported.out << exported.err;
  EXPECT_EQ(read_text_file((out / "lib1.c").string()), read_text_file(lib + "/lib1.c"));
  EXPECT_FALSE(fs::exists(out / "default_lib0.c"));
  // A plan that moves a constant is refused: its data is in the lib0.c the input lacks.
  const auto moved = run_usmpx(
      {"export", lib, "--pin", "fused_constant=global_const_workspace@512", "--out", (out / "moved").string()});
  EXPECT_EQ(moved.code, 1) << moved.out << moved.err;
  EXPECT_NE((moved.out + moved.err).find("the plan moves constant 'fused_constant' to offset 512"), std::string::npos)
      << moved.out << moved.err;
  fs::remove_all(out);
}

TEST(CliLayouts, NoCodeExitsWith3) {
  const fs::path dir = fs::temp_directory_path() / ("usmpx_cli_nocode_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(fixture_path("mlf/flat_mnist/metadata.json"), dir / "metadata.json");
  const auto run = run_usmpx({"info", dir.string()});
  EXPECT_EQ(run.code, 3);
  EXPECT_EQ(run.err, dir.string() +
                         ": module 'mnist' has no C sources (none under codegen/host/src, no mnist_lib<N>.c beside "
                         "tvmgen_mnist.h); nothing to plan\n");
  fs::remove_all(dir);
}

TEST(CliLayouts, OperatorLibraryAndTvm08TreeOpen) {
  const std::string lib = fixture_path("mlf/operator_library");
  const auto a = run_usmpx({"info", lib});
  EXPECT_EQ(a.code, 0) << a.err;
  EXPECT_NE(a.out.find(lib + " (firmware tree): 9 buffers, 2 pools"), std::string::npos) << a.out;
  EXPECT_NE(a.out.find("note: C library without metadata.json: module 'default' recognised by lib1.c"),
            std::string::npos)
      << a.out;
  const std::string tree = fixture_path("mlf/aot_2021_tree");
  const auto b = run_usmpx({"info", tree});
  EXPECT_EQ(b.code, 0) << b.err;
  EXPECT_NE(b.out.find(tree + " (firmware tree): 4 buffers, 2 pools"), std::string::npos) << b.out;
}

TEST(CliLayouts, Tvm08TreeExportsAndSelftestsWithNoOptions) {
  const std::string tree = fixture_path("mlf/aot_2021_tree");
  const fs::path out = fs::temp_directory_path() / ("usmpx_cli_tvm08_" + std::to_string(::getpid()));
  fs::remove_all(out);
  const auto exported = run_usmpx({"export", tree, "--out", out.string()});
  EXPECT_EQ(exported.code, 0) << exported.out << exported.err;
  EXPECT_NE(exported.out.find("greedy_by_size plan: total 320 bytes (lower bound 320)\nwrote " + out.string() +
                              ": 5 files, 3 changed or new:\n  tvm_model/default_lib0.c\n  tvm_model/usmpx_plan.json\n"
                              "  tvm_model/usmpx_pools.ld\n"),
            std::string::npos)
      << exported.out;
  EXPECT_FALSE(fs::exists(out / "tvm_model/include/tvmgen_default.h"));
  fs::remove_all(out);
  const auto selftest = run_usmpx({"selftest", tree});
  if (selftest.out.find("SKIPPED host") != std::string::npos) GTEST_SKIP() << selftest.out;
  EXPECT_EQ(selftest.code, 0) << selftest.out << selftest.err;
  EXPECT_NE(selftest.out.find("pool bytes: none (USMP off, or pools other than TVM's) as built, 320 re-planned\n"),
            std::string::npos)
      << selftest.out;
  EXPECT_NE(selftest.out.find("  host    same outputs        1"), std::string::npos) << selftest.out;
  EXPECT_NE(selftest.out.find("selftest passed"), std::string::npos);
}

// TVM 0.8's packed wrapper alone in lib0.c (the entry in lib1.c), and its C runtime descriptor
// `tvm_model_t tvmgen_default_network` with relative includes of runtime headers the input lacks.
TEST(CliLayouts, Tvm08Lib1EntryAndCrtDescriptorSelftestWithNoOptions) {
  const std::vector<std::pair<std::string, std::string>> cases = {{"mlf/aot_2021_packed_lib1", "64"},
                                                                  {"mlf/aot_2021_crt_model", "128"}};
  for (const auto& [fixture, bytes] : cases) {
    const std::string path = fixture_path(fixture);
    const auto info = run_usmpx({"info", path});
    EXPECT_EQ(info.code, 0) << info.err;
    EXPECT_NE(info.out.find(path + " (Model Library Format): 3 buffers, 2 pools"), std::string::npos) << info.out;
    EXPECT_EQ(info.out.find("C parse error"), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("note: a declaration with parameter names but no types (TVM 0.8 writes its entry's so; "
                            "GCC accepts it with a warning): read as declaring no prototype"),
              std::string::npos)
        << info.out;
    const auto selftest = run_usmpx({"selftest", path});
    if (selftest.out.find("SKIPPED host") != std::string::npos) GTEST_SKIP() << selftest.out;
    EXPECT_EQ(selftest.code, 0) << fixture << ": " << selftest.out << selftest.err;
    EXPECT_NE(selftest.out.find("greedy_by_size plan: total " + bytes + " bytes (lower bound " + bytes + ")\n"),
              std::string::npos)
        << selftest.out;
    EXPECT_NE(selftest.out.find("pool bytes: none (USMP off, or pools other than TVM's) as built, " + bytes +
                                " re-planned\n"),
              std::string::npos)
        << selftest.out;
    EXPECT_NE(selftest.out.find("  host    same outputs        1"), std::string::npos) << selftest.out;
    EXPECT_NE(selftest.out.find("selftest passed"), std::string::npos) << selftest.out;
  }
}

// USMP-off firmware whose re-plan computed something else (a workspace read through a local
// pointer by a nested function, an allocation indexed past its size), and TVM 0.8's unpacked
// output whose size no file states: both proven with no options, the assumptions said in notes.
TEST(CliLayouts, UsmpOffFirmwareAndTvm08UnpackedOutputSelftestWithNoOptions) {
  const auto arm = run_usmpx({"selftest", fixture_path("mlf/usmp_off_arm_nhwc")});
  if (arm.out.find("SKIPPED host") != std::string::npos) GTEST_SKIP() << arm.out;
  EXPECT_EQ(arm.code, 0) << arm.out << arm.err;
  EXPECT_NE(arm.out.find("note: 1 allocation's accesses reach past the bytes TVMBackendAllocWorkspace asks for; "
                         "planned at the size the accesses reach (bytes): 'acc' 32 -> 48\n"),
            std::string::npos)
      << arm.out;
  EXPECT_NE(arm.out.find("pool bytes: none (USMP off, or pools other than TVM's) as built, 2,256 re-planned\n"),
            std::string::npos)
      << arm.out;
  EXPECT_NE(arm.out.find("  host    same outputs        1"), std::string::npos) << arm.out;
  const auto tvm08 = run_usmpx({"selftest", fixture_path("mlf/aot_2021_unpacked_no_shapes")});
  EXPECT_EQ(tvm08.code, 0) << tvm08.out << tvm08.err;
  EXPECT_NE(tvm08.out.find("note: output arg1: 24 bytes (6 x float), the extent its writers' loops store"),
            std::string::npos)
      << tvm08.out;
  EXPECT_NE(tvm08.out.find("  host    same outputs        1"), std::string::npos) << tvm08.out;
}

TEST(CliLayouts, IterateeModelExportsAnyPlan) {
  const fs::path out = fs::temp_directory_path() / ("usmpx_cli_iteratee_" + std::to_string(::getpid()));
  fs::remove_all(out);
  const auto run =
      run_usmpx({"export", fixture_path("mlf/nested_iteratee"), "--algorithm", "hill_climb", "--out", out.string()});
  EXPECT_EQ(run.code, 0) << run.out << run.err;
  EXPECT_TRUE(fs::exists(out / "codegen/host/src/default_lib1.c")) << run.out;
  fs::remove_all(out);
}

}  // namespace
}  // namespace usmpx
