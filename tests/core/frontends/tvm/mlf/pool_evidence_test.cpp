// What TVM's output says about its pools when lib0.c does not: the alignment TVM's plan shows
// (a lone operator library), the size the header's or metadata.json's totals give (a lib0.c whose
// pool array was replaced by a heap allocation); and refusals that name what is missing (a lib1.c,
// the AOT executor). Fixtures under tests/fixtures/mlf, written by this project.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "base/archive_reader.h"
#include "base/input_error.h"
#include "base/text_file.h"
#include "frontends/tvm/export/mlf_export.h"
#include "frontends/tvm/mlf/mlf_model.h"
#include "frontends/tvm/mlf/pool_evidence.h"
#include "inputs/input_file.h"
#include "inputs/input_kinds.h"
#include "mlf_test_support.h"
#include "planners/common/validator.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;
using testing::buffer_named;
using testing::fixture_path;

int64_t pool_size(const Problem& problem, const Plan& plan, const std::string& pool) {
  const auto p = problem.find_pool(pool);
  if (!p) throw std::runtime_error("no pool " + pool);
  return plan.pool_sizes[static_cast<size_t>(*p)];
}

const Pool& pool_named(const Problem& problem, const std::string& pool) {
  const auto p = problem.find_pool(pool);
  if (!p) throw std::runtime_error("no pool " + pool);
  return problem.pools[static_cast<size_t>(*p)];
}

Plan finished_as_built(const MlfModel& m) {
  EXPECT_TRUE(m.as_built.has_value());
  if (!m.as_built) return {};
  Plan plan = *m.as_built;
  finish_plan(m.problem, plan);
  return plan;
}

std::vector<std::string> codes(const std::vector<Diagnostic>& warnings) {
  std::vector<std::string> out;
  for (const Diagnostic& d : warnings)
    out.push_back(d.code);
  return out;
}

const Diagnostic* warning(const std::vector<Diagnostic>& warnings, const std::string& code) {
  for (const Diagnostic& d : warnings) {
    if (d.code == code) return &d;
  }
  return nullptr;
}

// An as-built export writes every input file back byte for byte.
void expect_as_built_export_identical(const MlfModel& m, const std::string& folder) {
  const Plan plan = finished_as_built(m);
  ASSERT_FALSE(plan.has_errors());
  const ExportBundle bundle = export_mlf(m, m.problem, plan);
  const ArchiveContents original = read_folder(folder, [](std::string_view p) { return !p.ends_with(".md"); });
  ASSERT_FALSE(original.files.empty());
  for (const ArchiveFile& f : original.files) {
    const ExportFile* out = bundle.find(f.path);
    ASSERT_NE(out, nullptr) << f.path;
    EXPECT_EQ(out->data, f.data) << f.path;
  }
}

TEST(AlignmentDividing, LargestPowerOfTwoUpToTheCap) {
  EXPECT_EQ(alignment_dividing({0, 64, 128, 168}, 16), 8);
  EXPECT_EQ(alignment_dividing({0, 64, 128, 176}, 16), 16);
  EXPECT_EQ(alignment_dividing({0, 256, 1024}, 16), 16);  // never above TVM's default
  EXPECT_EQ(alignment_dividing({3026472, 96}, 16), 8);
  EXPECT_EQ(alignment_dividing({4, 12}, 16), 4);
  EXPECT_EQ(alignment_dividing({7}, 16), 1);
  EXPECT_EQ(alignment_dividing({}, 16), 16);
}

TEST(SizesFromTotals, OnlyWhenOnePoolOfTheKindIsUnknown) {
  Pool a;
  a.name = "a";
  Pool b;
  b.name = "b";
  Pool c;
  c.name = "c";
  c.kind = PoolKind::kConstant;
  const std::vector<PoolTotal> totals = {{PoolKind::kWorkspace, 1000, "the header's X"},
                                         {PoolKind::kConstant, 312, "metadata.json's constants_size_bytes"}};
  const auto one = sizes_from_totals({a, b, c}, {{"a", 400}, {"c", 312}}, totals);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].pool, "b");
  EXPECT_EQ(one[0].bytes, 600);
  EXPECT_EQ(one[0].source, "the header's X");
  EXPECT_TRUE(sizes_from_totals({a, b}, {}, totals).empty()) << "two unknown workspace pools share the total";
  EXPECT_TRUE(sizes_from_totals({a, b}, {{"a", 1200}}, totals).empty()) << "the total counts something else";
  const auto constant = sizes_from_totals({a, c}, {{"a", 10}}, totals);
  ASSERT_EQ(constant.size(), 1u);
  EXPECT_EQ(constant[0].pool, "c");
  EXPECT_EQ(constant[0].bytes, 312);
}

// ---- alignment from TVM's plan --------------------------------------------------------------

TEST(PoolEvidence, LoneLibraryTakesTheAlignmentTvmsPlanShows) {
  const std::string folder = fixture_path("mlf/operator_library_align8");
  const MlfModel m = load_mlf_model(folder);
  EXPECT_EQ(pool_named(m.problem, "global_workspace").alignment, 8);
  EXPECT_EQ(pool_named(m.problem, "global_const_workspace").alignment, 16);  // offsets 0, 256, 288
  EXPECT_EQ(buffer_named(m.problem, "sid_1").alignment, 8);
  EXPECT_EQ(buffer_named(m.problem, "PaddedInput").alignment, 8);
  EXPECT_EQ(buffer_named(m.problem, "fused_constant_1").alignment, 16);
  const Diagnostic* note = warning(m.warnings, "mlf-alignment-from-plan");
  ASSERT_NE(note, nullptr);
  EXPECT_EQ(note->severity, Severity::kNote);
  EXPECT_EQ(note->message,
            "no default_lib0.c or aligned attribute states the alignment of the pools; taken from TVM's plan, the "
            "largest power of two up to 16 dividing every offset TVM placed in the pool (bytes): "
            "'global_workspace' 8");
  // TVM's plan is valid under the rule it was made with.
  const Plan plan = finished_as_built(m);
  EXPECT_FALSE(plan.has_errors());
  EXPECT_TRUE(validate(m.problem, plan).empty());
  EXPECT_EQ(pool_size(m.problem, plan, "global_workspace"), 200);
  EXPECT_EQ(pool_size(m.problem, plan, "global_const_workspace"), 312);
  // TVM's algorithm with that alignment gives TVM's pool sizes.
  const Plan tvm = testing::plan_with("greedy_by_size", m.problem);
  EXPECT_FALSE(tvm.has_errors());
  EXPECT_EQ(pool_size(m.problem, tvm, "global_workspace"), 200);
  EXPECT_EQ(pool_size(m.problem, tvm, "global_const_workspace"), 312);
}

TEST(PoolEvidence, SixteenByteOffsetsKeepTvmsDefaultWithoutANote) {
  const MlfModel m = load_mlf_model(fixture_path("mlf/operator_library"));
  EXPECT_EQ(pool_named(m.problem, "global_workspace").alignment, 16);
  EXPECT_EQ(buffer_named(m.problem, "sid_1").alignment, 16);
  EXPECT_EQ(warning(m.warnings, "mlf-alignment-from-plan"), nullptr);
  EXPECT_EQ(pool_size(m.problem, finished_as_built(m), "global_workspace"), 208);
}

// ---- pool sizes from the totals TVM wrote ----------------------------------------------------

TEST(PoolEvidence, HeaderWorkspaceSizeBoundsThePoolLib0NoLongerDeclares) {
  const std::string folder = fixture_path("mlf/pool_size_from_header");
  const MlfModel m = load_mlf_model(folder);
  EXPECT_EQ(warning(m.warnings, "mlf-missing-pool"), nullptr) << "the header says how large it is";
  const Diagnostic* from_total = warning(m.warnings, "mlf-pool-size-from-total");
  ASSERT_NE(from_total, nullptr);
  EXPECT_EQ(from_total->message,
            "pool 'global_workspace' is not declared in default_lib0.c; its size, 208 bytes, comes from "
            "tvmgen_default.h's TVMGEN_DEFAULT_WORKSPACE_SIZE");
  // The split loop's accesses reach 64 bytes of sid_1; TVM's pool ends 32 bytes after it.
  EXPECT_EQ(buffer_named(m.problem, "sid_1").size_bytes, 32);
  const Diagnostic* clamped = warning(m.warnings, "mlf-size-clamped");
  ASSERT_NE(clamped, nullptr);
  EXPECT_NE(clamped->message.find("'sid_1' 64 -> 32"), std::string::npos) << clamped->message;
  const Plan plan = finished_as_built(m);
  EXPECT_FALSE(plan.has_errors());
  EXPECT_EQ(pool_size(m.problem, plan, "global_workspace"), 208);
  EXPECT_EQ(pool_size(m.problem, plan, "global_const_workspace"), 312);
  const Plan tvm = testing::plan_with("greedy_by_size", m.problem);
  EXPECT_EQ(pool_size(m.problem, tvm, "global_workspace"), 208);
  expect_as_built_export_identical(m, folder);
}

// A scratch copy of a fixture folder, edited, removed afterwards.
class EditedFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("usmpx_evidence_" + std::to_string(::getpid()) + "_" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  std::string copy_of(const std::string& fixture) {
    fs::copy(fixture_path(fixture), root_, fs::copy_options::recursive);
    for (const auto& entry : fs::recursive_directory_iterator(root_))
      fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
    return root_.string();
  }
  void replace(const std::string& rel, const std::string& from, const std::string& to) {
    const fs::path p = root_ / rel;
    std::string text = read_text_file(p.string());
    const size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
  }

  fs::path root_;
};

TEST_F(EditedFixture, MetadataJsonWorkspaceSizeBoundsThePoolWhenTheHeaderDoesNot) {
  const std::string mlf = copy_of("mlf/usmp_default_pools");
  replace("codegen/host/src/default_lib0.c", "static uint8_t global_workspace[208];",
          "extern uint8_t* global_workspace;");
  replace("codegen/host/include/tvmgen_default.h", "#define TVMGEN_DEFAULT_WORKSPACE_SIZE 208", "");
  const MlfModel m = load_mlf_model(mlf);
  const Diagnostic* from_total = warning(m.warnings, "mlf-pool-size-from-total");
  ASSERT_NE(from_total, nullptr) << testing::located(m.warnings.front());
  EXPECT_EQ(from_total->message,
            "pool 'global_workspace' is not declared in default_lib0.c; its size, 208 bytes, comes from "
            "metadata.json's workspace_size_bytes");
  EXPECT_EQ(pool_size(m.problem, finished_as_built(m), "global_workspace"), 208);
}

// ---- refusals that name what is missing ------------------------------------------------------

TEST_F(EditedFixture, MissingLib1IsNamed) {
  const std::string mlf = copy_of("mlf/usmp_default_pools");
  fs::remove(root_ / "codegen/host/src/default_lib1.c");
  try {
    load_input(mlf);
    FAIL() << "loaded without the operators";
  } catch (const InputError& e) {
    EXPECT_EQ(e.message(),
              "codegen/host/src/default_lib1.c is missing: TVM writes the operators and the entry function "
              "tvmgen_default___tvm_main__ (or tvmgen_default_run_model) there, and codegen/host/src/default_lib0.c "
              "only calls it; nothing to plan without it (copy default_lib1.c from the same TVM build)");
  }
}

TEST(PoolEvidenceRefusals, GraphExecutorFirmwareTreeHasNoStaticPlan) {
  const std::string tree = fixture_path("mlf/graph_executor_tree");
  try {
    recognise_input(tree);
    FAIL() << "recognised";
  } catch (const InputError& e) {
    EXPECT_EQ(e.message(),
              "graph executor: no static plan: src/model/lib0.c registers the operators (fused_nn_conv2d_add_nn_relu, "
              "...) for TVM's graph executor (_lookup_linked_param), which allocates every tensor at run time, so "
              "there is nothing to plan; compile with the AOT executor (tvmc --executor aot, or relay.build(..., "
              "executor=Executor(\"aot\")))");
    EXPECT_EQ(e.location().file, tree);
  }
}

}  // namespace
}  // namespace usmpx
