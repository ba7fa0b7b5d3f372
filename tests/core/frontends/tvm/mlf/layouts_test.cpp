// Every real layout and era opens: a flat MLF folder, operator libraries recognised by what they
// define (whatever the file is called), TVM 0.8 trees without tvmgen_<mod>.h; graph-executor
// outputs and inputs without code are refused with the reason; C that includes CMSIS headers the
// tree lacks keeps its statements; buffers of functions an operator calls get their lifetimes
// through the call. Fixtures under tests/fixtures/mlf, written by this project.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "archive_builder.h"
#include "base/input_error.h"
#include "base/text_file.h"
#include "checks/as_built_check.h"
#include "frontends/tvm/export/harness/tvm_selftest.h"
#include "frontends/tvm/export/mlf_export.h"
#include "frontends/tvm/mlf/firmware_tree.h"
#include "frontends/tvm/mlf/mlf_model.h"
#include "inputs/input_file.h"
#include "mlf_test_support.h"
#include "planners/common/validator.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;
using testing::buffer_named;
using testing::conflict_names;
using testing::fixture_path;
using Names = testing::Names;

// A scratch folder per test, removed afterwards.
class Layouts : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("usmpx_layouts_" + std::to_string(::getpid()) + "_" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "in");
  }
  void TearDown() override { fs::remove_all(root_); }

  std::string folder() const { return (root_ / "in").string(); }
  void put(const std::string& rel, const std::string& text) const {
    const fs::path p = root_ / "in" / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
  }
  // `dir` (a fixture or the scratch folder) as a .tar beside the scratch folder.
  std::string archive_of(const std::string& dir) const {
    const fs::path tar = root_ / "input.tar";
    std::ofstream(tar, std::ios::binary) << testing::make_tar(testing::folder_entries(dir));
    return tar.string();
  }

  fs::path root_;
};

std::string fixture_text(const std::string& relative) {
  return read_text_file(fixture_path(relative));
}

int64_t pool_size(const Problem& problem, const Plan& plan, const std::string& pool) {
  const auto p = problem.find_pool(pool);
  if (!p) throw std::runtime_error("no pool " + pool);
  return plan.pool_sizes[static_cast<size_t>(*p)];
}

// TVM's plan of a USMP-on model: finished, valid, and what greedy_by_size reproduces.
Plan checked_as_built(const Problem& problem, const std::optional<Plan>& as_built, int buffers) {
  EXPECT_TRUE(as_built.has_value());
  if (!as_built) return {};
  Plan plan = *as_built;
  finish_plan(problem, plan);
  EXPECT_FALSE(plan.has_errors());
  EXPECT_EQ(match_as_built(problem, plan).matching, buffers);
  return plan;
}

std::string load_error(const std::string& path) {
  try {
    (void)load_input(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(loaded)";
}

// ---- flat MLF folders --------------------------------------------------------------------

void expect_flat_mnist(const LoadedInput& in) {
  EXPECT_EQ(in.format, InputFormat::kMlf);
  EXPECT_EQ(in.problem.buffers.size(), 9u);
  const Plan plan = checked_as_built(in.problem, in.as_built, 9);
  EXPECT_EQ(pool_size(in.problem, plan, "global_workspace"), 208);
  EXPECT_EQ(pool_size(in.problem, plan, "global_const_workspace"), 312);
  EXPECT_EQ(buffer_named(in.problem, "sid_1").size_bytes, 32);
  EXPECT_EQ(buffer_named(in.problem, "PaddedInput").size_bytes, 40);
  EXPECT_TRUE(in.warnings.empty()) << testing::located(in.warnings.front());
}

TEST_F(Layouts, FlatMlfFolderReadsLikeAnyMlf) {
  const std::string flat = fixture_path("mlf/flat_mnist");
  EXPECT_EQ(recognise_input(flat), InputFormat::kMlf);
  expect_flat_mnist(load_input(flat));
  EXPECT_EQ(input_modules(flat), Names{"mnist"});
  // The same files as an archive.
  expect_flat_mnist(load_input(archive_of(flat)));
  // Its three libraries, in library order, the dense operator's body in mnist_lib2.c.
  const MlfModel m = load_mlf_model(flat);
  ASSERT_EQ(m.program.files.size(), 4u) << "three sources and the header";
  EXPECT_EQ(m.program.files[0].path, "mnist_lib0.c");
  EXPECT_EQ(m.program.files[2].path, "mnist_lib2.c");
  EXPECT_EQ(m.code.prefix, "tvmgen_mnist_");
}

// ---- inputs whose code is not there or cannot be planned --------------------------------

TEST_F(Layouts, GraphExecutorOutputsAreRefusedWithTheReason) {
  const std::string graph = fixture_path("mlf/graph_executor");
  const std::string reason =
      "module 'default' was built for the graph executor (\"executors\": [\"graph\"]), which has no static memory "
      "plan: its tensors are allocated at run time, so there is nothing to plan; compile with the AOT executor "
      "(tvmc --executor aot, or relay.build(..., executor=Executor(\"aot\")))";
  EXPECT_EQ(recognise_input(graph), InputFormat::kMlf);
  EXPECT_EQ(load_error(graph), graph + "/metadata.json: " + reason);
  const std::string tar = archive_of(graph);
  EXPECT_EQ(load_error(tar), tar + "/metadata.json: " + reason);
  // MLF version 1 named the executor under "runtimes".
  put("metadata.json",
      R"({"version": 1, "model_name": "net", "runtimes": ["graph"], "target": {"1": "c"}, "memory": []})");
  put("codegen/host/src/lib0.c", fixture_text("mlf/graph_executor/codegen/host/src/default_lib1.c"));
  const std::string v1 = load_error(folder());
  EXPECT_EQ(v1, folder() + "/metadata.json: " + std::string(reason).replace(8, 7, "net"));
}

TEST_F(Layouts, CodeNotFoundIsAnErrorNotAnEmptyModel) {
  // metadata.json and the header, but no library file anywhere.
  put("metadata.json", fixture_text("mlf/flat_mnist/metadata.json"));
  put("tvmgen_mnist.h", fixture_text("mlf/flat_mnist/tvmgen_mnist.h"));
  EXPECT_EQ(load_error(folder()), folder() +
                                      ": module 'mnist' has no C sources (none under codegen/host/src, no "
                                      "mnist_lib<N>.c beside tvmgen_mnist.h); nothing to plan");
  // Sources that define no entry (an operator-style MLF): refused, naming the files looked at.
  put("metadata.json",
      R"({"version": 7, "modules": {"default": {"model_name": "default", "style": "operator", "executors": [],
          "target": ["c"], "memory": {}}}})");
  put("codegen/host/src/lib0.c", "int tvmgen_default_fused_add(float* a, float* b) { b[0] = a[0]; return 0; }\n");
  EXPECT_EQ(load_error(folder()),
            folder() +
                ": no entry function tvmgen_default___tvm_main__ (or tvmgen_default_run_model) is defined in "
                "codegen/host/src/lib0.c; nothing to plan (an operator-style MLF holds single operators, not a "
                "model: export the full model)");
  // C that does not parse: the first error is named.
  put("codegen/host/src/lib0.c", "int tvmgen_default___tvm_main__(void* a, { return 0; }\n");
  EXPECT_EQ(load_error(folder()),
            folder() +
                ": no entry function tvmgen_default___tvm_main__ (or tvmgen_default_run_model) is defined in "
                "codegen/host/src/lib0.c; nothing to plan (an operator-style MLF holds single operators, not a "
                "model: export the full model); the C did not parse cleanly (3 errors, the first at " +
                folder() + "/codegen/host/src/lib0.c:1:42: C parse error: expected parameter declarator)");
}

// ---- libraries recognised by what they define ---------------------------------------------

TEST_F(Layouts, OperatorLibraryAloneIsATvmInput) {
  const std::string lib = fixture_path("mlf/operator_library");
  for (const std::string& path : {lib, archive_of(lib)}) {
    SCOPED_TRACE(path);
    EXPECT_EQ(recognise_input(path), InputFormat::kFirmwareTree);
    LoadedInput in = load_input(path);
    EXPECT_EQ(in.problem.buffers.size(), 9u);
    const Plan plan = checked_as_built(in.problem, in.as_built, 9);
    // Without default_lib0.c the pools are as large as their buffers reach: TVM's sizes here.
    EXPECT_EQ(pool_size(in.problem, plan, "global_workspace"), 208);
    EXPECT_EQ(pool_size(in.problem, plan, "global_const_workspace"), 312);
    ASSERT_EQ(in.warnings.size(), 2u) << testing::located(in.warnings.back());
    EXPECT_EQ(in.warnings[0].code, "mlf-constants-pinned");
    EXPECT_EQ(in.warnings[0].message,
              "3 constant(s) pinned where TVM's plan put them ('fused_constant', 'fused_constant_1', "
              "'fused_constant_2'): their data is in default_lib0.c, which the input does not hold, so no plan may "
              "move them");
    in.warnings.erase(in.warnings.begin());
    EXPECT_EQ(in.warnings[0].code, "mlf-firmware-tree");
    EXPECT_EQ(in.warnings[0].message,
              "C library without metadata.json: module 'default' recognised by lib1.c, which defines "
              "tvmgen_default___tvm_main__ (1 C file); not found: default_lib0.c (TVM's run wrapper and internal "
              "pools: pool sizes taken from where their buffers end), tvmgen_default.h (inputs and outputs taken "
              "from the entry's parameters); pools from the C (USMP on); inputs and outputs from the entry's "
              "parameters; not known: the Relay types, the I/O sizes (taken from the code), the TVM release");
  }
  const MlfPackage p = read_mlf(lib);
  ASSERT_EQ(p.firmware.modules.size(), 1u);
  EXPECT_EQ(p.firmware.modules[0].sources, Names{"lib1.c"}) << "devc.c's blob is not the module's";
}

TEST_F(Layouts, RenamedLibraryBesideLib0AndHeader) {
  const std::string from = "mlf/usmp_default_pools/codegen/host/";
  put("tvm/model.c", fixture_text(from + "src/default_lib1.c"));
  put("tvm/default_lib0.c", fixture_text(from + "src/default_lib0.c"));
  put("tvm/tvmgen_default.h", fixture_text(from + "include/tvmgen_default.h"));
  put("app/main.c", "#include \"tvmgen_default.h\"\nint main(void) { return tvmgen_default_run(0, 0); }\n");
  EXPECT_EQ(recognise_input(folder()), InputFormat::kFirmwareTree);
  const LoadedInput in = load_input(folder());
  EXPECT_EQ(in.problem.buffers.size(), 9u);
  const Plan plan = checked_as_built(in.problem, in.as_built, 9);
  EXPECT_EQ(pool_size(in.problem, plan, "global_workspace"), 208);
  ASSERT_EQ(in.warnings.size(), 1u) << testing::located(in.warnings.back());
  EXPECT_EQ(in.warnings[0].message,
            "C library without metadata.json: module 'default' recognised by tvm/model.c, which defines "
            "tvmgen_default___tvm_main__ (2 C files); pools from the C (USMP on); inputs and outputs from the header; "
            "TVM 0.15 to 0.16 (judged by the code's style); not known: the Relay types");
  const MlfPackage p = read_mlf(folder());
  ASSERT_EQ(p.firmware.modules.size(), 1u);
  EXPECT_EQ(p.firmware.modules[0].header, "tvm/tvmgen_default.h");
  EXPECT_EQ(p.firmware.modules[0].sources, (Names{"tvm/default_lib0.c", "tvm/model.c"}));
}

TEST(EntryDefinitions, OnlyDefinitionsCountAndTheScanStaysLinear) {
  const auto e = defined_entry(
      "TVM_DLL int32_t tvmgen_kws___tvm_main__(void* a);\n"
      "TVM_DLL int32_t tvmgen_kws___tvm_main__(void* a,\n  uint8_t* p) {\n  return 0;\n}\n");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->name, "tvmgen_kws___tvm_main__");
  EXPECT_EQ(e->prefix, "tvmgen_kws_");
  EXPECT_EQ(e->module, "kws");
  EXPECT_FALSE(defined_entry("int32_t tvmgen_default___tvm_main__(void* a);\n")) << "a declaration";
  EXPECT_FALSE(defined_entry("int my_run_model(void) { return 0; }\n")) << "run_model needs TVM's prefix";
  const auto old = defined_entry("int32_t tvmgen_default_run_model(void* input, void* output) {}");
  ASSERT_TRUE(old);
  EXPECT_EQ(old->module, "default");
  EXPECT_TRUE(defines_function("int32_t tvmgen_default_run(void* a) {}", "tvmgen_default_run"));
  EXPECT_FALSE(defines_function("int32_t tvmgen_default_run_model(void* a) {}", "tvmgen_default_run"));
  // Many unclosed candidates: refused without scanning each to the end.
  std::string hostile;
  for (int i = 0; i < 20000; ++i)
    hostile += "f___tvm_main__(";
  hostile += std::string(1 << 20, '(');
  EXPECT_FALSE(defined_entry(hostile));
}

TEST_F(Layouts, ASecondFileDefiningTheEntryIsLeftAsideAndNamed) {
  const std::string lib1 = fixture_text("mlf/operator_library/lib1.c");
  put("model/lib1.c", lib1);
  put("old/build/lib1.c", lib1);
  const MlfPackage p = read_mlf(folder());
  ASSERT_EQ(p.firmware.modules.size(), 1u);
  EXPECT_EQ(p.firmware.modules[0].entry_file, "model/lib1.c");
  EXPECT_EQ(p.firmware.ignored, Names{"another file defining tvmgen_default___tvm_main__, old/build/lib1.c, is left "
                                      "aside; the entry is read from model/lib1.c"});
  EXPECT_EQ(load_input(folder()).problem.buffers.size(), 9u);
}

// ---- TVM 0.8 (2021) -----------------------------------------------------------------------

TEST_F(Layouts, Tvm08TreeWithoutHeaderOpens) {
  const std::string tree = fixture_path("mlf/aot_2021_tree");
  for (const std::string& path : {tree, archive_of(tree)}) {
    SCOPED_TRACE(path);
    EXPECT_EQ(recognise_input(path), InputFormat::kFirmwareTree);
    const LoadedInput in = load_input(path);
    EXPECT_EQ(testing::buffer_names(in.problem), (Names{"sid_1", "sid_2", "packed_weight", "T_softmax_exp"}));
    EXPECT_EQ(buffer_named(in.problem, "sid_1").size_bytes, 32);
    EXPECT_EQ(buffer_named(in.problem, "packed_weight").size_bytes, 256);
    EXPECT_EQ(buffer_named(in.problem, "T_softmax_exp").size_bytes, 32);
    EXPECT_FALSE(in.as_built) << "USMP off: TVM made no static plan";
    EXPECT_EQ(conflict_names(in.problem, "packed_weight"), (Names{"sid_1", "sid_2"}));
    EXPECT_EQ(conflict_names(in.problem, "T_softmax_exp"), (Names{"sid_2"}));
    const Diagnostic* note = nullptr;
    for (const Diagnostic& d : in.warnings) {
      if (d.code == "mlf-firmware-tree") note = &d;
    }
    ASSERT_NE(note, nullptr);
    EXPECT_EQ(note->message,
              "C library without metadata.json: module 'default' recognised by tvm_model/default_lib0.c, which "
              "defines tvmgen_default_run_model (1 C file); not found: tvmgen_default.h (inputs and outputs taken "
              "from the entry's parameters); pools from TVM's defaults and the pool options (USMP off); inputs and "
              "outputs from the entry's parameters; TVM before 0.9 (judged by the code's style); not known: the "
              "Relay types, the I/O sizes (taken from the code)");
  }
}

// ---- CMSIS headers the tree lacks ---------------------------------------------------------

// The fixture's lib1.c with its CMSIS includes replaced by the few declarations it needs.
std::string without_cmsis_includes(std::string text) {
  const std::string includes =
      "#include <arm_acle.h>\n#include <arm_math.h>\n#include <arm_nnsupportfunctions.h>\n#include "
      "<cmsis_compiler.h>\n";
  const size_t at = text.find(includes);
  if (at == std::string::npos) throw std::runtime_error("the fixture's includes changed");
  text.replace(at, includes.size(),
               "#define __STATIC_FORCEINLINE static inline\n"
               "typedef int32_t q31_t;\n"
               "int32_t arm_nn_read_q7x4(const int8_t*); uint32_t __SXTB16(uint32_t); uint32_t __ROR(uint32_t, "
               "uint32_t);\n"
               "uint32_t __SMLAD(uint32_t, uint32_t, uint32_t); int32_t __ssub8(int32_t, int32_t); int32_t "
               "__sel(int32_t, int32_t);\n"
               "int32_t __QADD(int32_t, int32_t);\n");
  return text;
}

void expect_same_liveness(const MlfModel& a, const MlfModel& b) {
  ASSERT_EQ(a.problem.buffers.size(), b.problem.buffers.size());
  for (size_t i = 0; i < a.problem.buffers.size(); ++i) {
    const Buffer& x = a.problem.buffers[i];
    const Buffer& y = b.problem.buffers[i];
    SCOPED_TRACE(x.name);
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.size_bytes, y.size_bytes);
    ASSERT_TRUE(x.lifetime && y.lifetime);
    EXPECT_EQ(x.lifetime->first(), y.lifetime->first());
    EXPECT_EQ(x.lifetime->last(), y.lifetime->last());
    EXPECT_FALSE(y.lifetime_assumed);
    EXPECT_EQ(conflict_names(a.problem, x.name), conflict_names(b.problem, y.name));
  }
  EXPECT_EQ(a.walk.ticks, b.walk.ticks);
  EXPECT_TRUE(b.as_built.has_value());
}

TEST_F(Layouts, AbsentCmsisHeadersStillParseIntoStatements) {
  const std::string with = fixture_path("mlf/cmsis_dsp_headers");
  const MlfModel a = load_mlf_model(with);
  ASSERT_GE(a.code.entry, 0);
  EXPECT_EQ(a.program.functions[static_cast<size_t>(a.code.entry)].name, "tvmgen_default___tvm_main__");
  for (const Diagnostic& d : a.warnings)
    ADD_FAILURE() << testing::located(d);
  EXPECT_EQ(testing::buffer_names(a.problem),
            (Names{"sid_1", "sid_2", "fused_constant", "data_pad", "fused_constant_1"}));
  const Plan plan = checked_as_built(a.problem, a.as_built, 5);
  EXPECT_EQ(pool_size(a.problem, plan, "global_workspace"), 32);
  EXPECT_EQ(pool_size(a.problem, plan, "global_const_workspace"), 80);
  EXPECT_EQ(buffer_named(a.problem, "data_pad").size_bytes, 16);
  EXPECT_EQ(conflict_names(a.problem, "data_pad"), (Names{"sid_1", "sid_2"}));
  EXPECT_EQ(conflict_names(a.problem, "sid_1"), (Names{"data_pad"}));
  EXPECT_EQ(testing::offset_of(a.problem, plan, "data_pad"), 0);

  // The same model declaring what it uses itself: the same buffers, sizes, lifetimes, conflicts.
  fs::copy(with, folder(), fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  put("codegen/host/src/default_lib1.c",
      without_cmsis_includes(fixture_text("mlf/cmsis_dsp_headers/codegen/host/src/default_lib1.c")));
  expect_same_liveness(a, load_mlf_model(folder()));

  // An attribute macro that no header here defines is read as empty: the functions it qualifies
  // keep their structure, and one note names it.
  std::string vendor = fixture_text("mlf/cmsis_dsp_headers/codegen/host/src/default_lib1.c");
  for (size_t at = vendor.find("__STATIC_FORCEINLINE"); at != std::string::npos;
       at = vendor.find("__STATIC_FORCEINLINE", at))
    vendor.replace(at, 20, "__VENDOR_FORCEINLINE");
  put("codegen/host/src/default_lib1.c", vendor);
  const MlfModel c = load_mlf_model(folder());
  expect_same_liveness(a, c);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(testing::located(c.warnings[0]), folder() +
                                                 "/codegen/host/src/default_lib1.c: '__VENDOR_FORCEINLINE' is defined "
                                                 "by no header here; read as an empty macro");
}

// ---- buffers of functions an operator calls --------------------------------------------------

TEST_F(Layouts, IterateeBuffersLiveThroughTheCall) {
  const MlfModel m = load_mlf_model(fixture_path("mlf/nested_iteratee"));
  for (const Diagnostic& d : m.warnings)
    ADD_FAILURE() << testing::located(d);
  EXPECT_EQ(testing::buffer_names(m.problem),
            (Names{"sid_1", "sid_2", "fused_constant", "PaddedInput", "fused_constant_1", "acc"}));
  EXPECT_EQ(buffer_named(m.problem, "acc").size_bytes, 32);
  const Plan plan = checked_as_built(m.problem, m.as_built, 6);
  EXPECT_EQ(pool_size(m.problem, plan, "global_workspace"), 144);
  EXPECT_EQ(testing::offset_of(m.problem, plan, "acc"), 112);
  // acc lives within the operator's call that calls its function, through both iterations.
  const Buffer& acc = buffer_named(m.problem, "acc");
  ASSERT_TRUE(acc.lifetime);
  const TimelineSpan* conv = m.problem.span_at(acc.lifetime->first());
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->label, "tvmgen_default_fused_nn_conv1d");
  EXPECT_LE(acc.lifetime->last(), conv->last);
  EXPECT_EQ(conflict_names(m.problem, "acc"), (Names{"PaddedInput", "sid_2"}));
  EXPECT_EQ(conflict_names(m.problem, "sid_1"), (Names{"PaddedInput"}));
  // sid_2 is written by the iteratee through `&(conv1d_ncw[oc * 8])`: a view of sid_2.
  EXPECT_EQ(conflict_names(m.problem, "sid_2"), (Names{"PaddedInput", "acc"}));
  EXPECT_EQ(buffer_named(m.problem, "sid_2").size_bytes, 64) << "from relu's reads, not from the view's";
}

TEST_F(Layouts, IterateeModelExportsAnyPlan) {
  const std::string dir = fixture_path("mlf/nested_iteratee");
  const MlfModel m = load_mlf_model(dir);
  ASSERT_TRUE(m.as_built);
  Plan built = *m.as_built;
  finish_plan(m.problem, built);
  const ExportBundle same = export_mlf(m, m.problem, built);
  for (const std::string f : {"codegen/host/src/default_lib0.c", "codegen/host/src/default_lib1.c",
                              "codegen/host/include/tvmgen_default.h", "metadata.json"}) {
    ASSERT_NE(same.find(f), nullptr) << f;
    EXPECT_EQ(same.find(f)->data, fixture_text("mlf/nested_iteratee/" + f)) << f;
  }
  // best: 136 bytes; acc moves to 64 inside the iteratee, whose pool parameters keep their names.
  ExportOptions eo;
  eo.harness = true;
  const Plan best = testing::plan_with("best", m.problem);
  EXPECT_EQ(pool_size(m.problem, best, "global_workspace"), 136);
  const ExportBundle replanned = export_mlf(m, m.problem, best, eo);
  const std::string& lib1 = replanned.find("codegen/host/src/default_lib1.c")->data;
  EXPECT_NE(lib1.find("  void* acc_let = (&(global_workspace_7_var[" +
                      std::to_string(testing::offset_of(m.problem, best, "acc")) + "]));\n"),
            std::string::npos)
      << lib1;
  EXPECT_NE(lib1.find("    if (tvmgen_default_fused_nn_conv1d_iteratee(((float*)PaddedInput_let), "
                      "(&(conv1d_ncw[(oc * 8)])), oc, global_const_workspace_4_var, global_workspace_5_var) != 0 ) "
                      "return -1;\n"),
            std::string::npos);
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  const fs::path work = root_ / "selftest";
  const auto results = run_selftest(mlf_original_bundle(m, eo), replanned, {"host"}, work.string());
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].same) << results[0].verdict << results[0].original.log << results[0].replanned.log;
}

}  // namespace
}  // namespace usmpx
