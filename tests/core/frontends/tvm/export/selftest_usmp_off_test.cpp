// USMP-off firmware whose workspaces come from TVMBackendAllocWorkspace (fixtures written by the
// project under tests/fixtures/mlf): arm_cpu-style NHWC schedules (PadInput, data_vec, conv, a
// depthwise padded_data handed through a local pointer to the function that reads it, an
// accumulator indexed past its allocation) and TVM 0.8's unpacked entry that copies its output
// pointer into a local, with no file stating the output's size. A re-plan the tool exports must
// compute what the original computes.
#include <gtest/gtest.h>

#include <filesystem>

#include "base/text_file.h"
#include "frontends/tvm/export/harness/tvm_selftest.h"
#include "frontends/tvm/export/mlf_export.h"
#include "mlf_bundle_support.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;
using testing::fixture_path;

const char* const kArm = "mlf/usmp_off_arm_nhwc";
const char* const kLib1 = "codegen/host/src/default_lib1.c";
const char* const kUnpacked = "mlf/aot_2021_unpacked_no_shapes";

const Buffer& buffer(const MlfModel& m, const std::string& name) {
  const auto b = m.problem.find_buffer(name);
  EXPECT_TRUE(b.has_value()) << name;
  return m.problem.buffers[static_cast<size_t>(b.value_or(0))];
}

bool conflict(const MlfModel& m, const std::string& a, const std::string& b) {
  const int ia = *m.problem.find_buffer(a);
  const int ib = *m.problem.find_buffer(b);
  const auto& ca = m.problem.buffers[static_cast<size_t>(ia)].conflicts;
  const auto& cb = m.problem.buffers[static_cast<size_t>(ib)].conflicts;
  return std::find(ca.begin(), ca.end(), ib) != ca.end() || std::find(cb.begin(), cb.end(), ia) != cb.end();
}

const Diagnostic* find_diagnostic(const std::vector<Diagnostic>& ds, const std::string& code) {
  const Diagnostic* found = nullptr;
  int count = 0;
  for (const Diagnostic& d : ds) {
    if (d.code == code && ++count == 1) found = &d;
  }
  EXPECT_LE(count, 1) << code << " is said once";
  return found;
}

// The fixture copied to a fresh folder with `from` replaced by `to` in default_lib1.c.
std::string variant(const std::string& name, const std::string& from, const std::string& to) {
  const fs::path dir = fs::temp_directory_path() / ("usmpx-usmp-off-" + name);
  fs::remove_all(dir);
  fs::copy(fixture_path(kArm), dir, fs::copy_options::recursive);
  std::string lib1 = read_text_file((dir / kLib1).string());
  const size_t at = lib1.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) lib1.replace(at, from.size(), to);
  write_file_atomically((dir / kLib1).string(), lib1);
  return dir.string();
}

std::vector<std::string> host_or_skip() {
  std::string missing;
  if (!selftest_target_available("host", &missing)) return {};
  return {"host"};
}

TEST(SelftestUsmpOff, PaddedDataStaysLiveThroughTheCallThatReadsItByALocalPointer) {
  const MlfModel m = load_mlf_model(fixture_path(kArm));
  ASSERT_EQ(m.problem.buffers.size(), 8u);
  // `int8_t* padded_data_ptr = (int8_t*)padded_data;` is padded_data: the compute function it is
  // passed to reads it while writing sid_2, so the two conflict (they shared bytes before).
  EXPECT_TRUE(conflict(m, "padded_data", "sid_2"));
  const Buffer& padded = buffer(m, "padded_data");
  const Buffer& sid_2 = buffer(m, "sid_2");
  ASSERT_TRUE(padded.lifetime && sid_2.lifetime);
  EXPECT_GE(padded.lifetime->last(), sid_2.lifetime->first());
  // Sizes as allocated, but for the accumulator (below).
  EXPECT_EQ(buffer(m, "PadInput").size_bytes, 400);
  EXPECT_EQ(buffer(m, "data_vec").size_bytes, 288);
  EXPECT_EQ(buffer(m, "conv").size_bytes, 256);
  EXPECT_EQ(padded.size_bytes, 800);
}

TEST(SelftestUsmpOff, AnAccumulatorIndexedPastItsAllocationIsPlannedAtTheSizeItReaches) {
  const MlfModel m = load_mlf_model(fixture_path(kArm));
  // TVMBackendAllocWorkspace(..., 32, ...) but acc[0..11] of int32: 48 bytes.
  EXPECT_EQ(buffer(m, "acc").size_bytes, 48);
  const Diagnostic* note = find_diagnostic(m.warnings, "mlf-allocation-overrun");
  ASSERT_NE(note, nullptr);
  EXPECT_EQ(note->severity, Severity::kNote);
  EXPECT_NE(note->message.find("'acc' 32 -> 48"), std::string::npos) << note->message;
  EXPECT_EQ(find_diagnostic(m.warnings, "mlf-kept-allocation"), nullptr);
}

TEST(SelftestUsmpOff, ReplansComputeWhatTheOriginalComputes) {
  const MlfModel m = load_mlf_model(fixture_path(kArm));
  const std::vector<std::string> targets = host_or_skip();
  if (targets.empty()) GTEST_SKIP() << "the host's C compiler is not installed";
  const ExportBundle original = testing::original_with_harness(m);
  EXPECT_EQ(choose_selftest_targets(original, {}).targets, (std::vector<std::string>{"host"}));
  for (const char* algorithm : {"greedy_by_size", "greedy_by_conflicts", "hill_climb"}) {
    const Plan plan = testing::plan_with(algorithm, m.problem);
    ASSERT_FALSE(plan.has_errors()) << algorithm;
    testing::expect_same_outputs(original, testing::replanned_bundle(m, true, algorithm), targets,
                                 std::string("usmp-off-arm-") + algorithm, "output", 10);
  }
  // greedy_by_size: one 2,256-byte pool where the original's allocator is given 2,816 bytes (every
  // allocation, 16-aligned).
  EXPECT_EQ(testing::plan_with("greedy_by_size", m.problem).total_size(), 2256);
  EXPECT_NE(original.find("harness/Makefile")->data.find("ARENA_BYTES := 2816\n"), std::string::npos);
}

TEST(SelftestUsmpOff, AWorkspaceWhoseAddressEscapesStaysWithTheAllocator) {
  // The accumulator's address stored in a file-scope variable: the walk cannot follow its uses.
  const std::string dir =
      variant("escape", "TVM_DLL int32_t tvmgen_default_fused_mean_cast(int8_t* p0, int8_t* T_cast) {\n",
              "static void* tvmgen_default_last_acc;\n"
              "TVM_DLL int32_t tvmgen_default_fused_mean_cast(int8_t* p0, int8_t* T_cast) {\n");
  std::string lib1 = read_text_file(dir + "/" + kLib1);
  const std::string check = "  if (acc == NULL) {\n    return -1;\n  }\n";
  const size_t at = lib1.find(check);
  ASSERT_NE(at, std::string::npos);
  lib1.insert(at + check.size(), "  tvmgen_default_last_acc = acc;\n");
  write_file_atomically(dir + "/" + kLib1, lib1);
  const MlfModel m = load_mlf_model(dir);
  EXPECT_FALSE(m.problem.find_buffer("acc").has_value());
  ASSERT_EQ(m.problem.buffers.size(), 7u);
  ASSERT_EQ(m.walk.kept.size(), 1u);
  const Diagnostic* note = find_diagnostic(m.warnings, "mlf-kept-allocation");
  ASSERT_NE(note, nullptr);
  EXPECT_EQ(note->message,
            "1 workspace allocation (32 bytes) whose extent or lifetime the analysis cannot bound stays with TVM's "
            "allocator, each a block of its own as in the original, and is not planned: 'acc': its address is "
            "stored where the analysis does not follow it (codegen/host/src/default_lib1.c:230:29)");
  const ExportBundle replanned = testing::replanned_bundle(m, true);
  const std::string& out = replanned.find(kLib1)->data;
  EXPECT_NE(out.find("void* acc = TVMBackendAllocWorkspace(1, 0, (uint64_t)32, 0, 32);"), std::string::npos);
  EXPECT_EQ(out.find("void* padded_data = TVMBackendAllocWorkspace"), std::string::npos);
  // The arena holds what acc's accesses reach (48 bytes), not only the 32 it asks for.
  EXPECT_NE(replanned.find("harness/Makefile")->data.find("ARENA_BYTES := 48\n"), std::string::npos);
  const std::vector<std::string> targets = host_or_skip();
  if (targets.empty()) GTEST_SKIP() << "the host's C compiler is not installed";
  testing::expect_same_outputs(testing::original_with_harness(m), replanned, targets, "usmp-off-escape", "output", 10);
}

TEST(SelftestUsmpOff, AnIndexTheAnalysisCannotBoundKeepsTheWorkspaceWithTheAllocator) {
  // The first channel's sum stored at an index read from the data: no loop bounds it.
  const std::string dir = variant("unbounded", "((int32_t*)acc)[c1] = (((int32_t*)acc)[c1] +",
                                  "((int32_t*)acc)[(c1 + (p0[0] * 0))] = (((int32_t*)acc)[c1] +");
  const MlfModel m = load_mlf_model(dir);
  EXPECT_FALSE(m.problem.find_buffer("acc").has_value());
  const Diagnostic* note = find_diagnostic(m.warnings, "mlf-kept-allocation");
  ASSERT_NE(note, nullptr);
  EXPECT_NE(note->message.find("'acc': an index the analysis cannot bound (codegen/host/src/default_lib1.c:"),
            std::string::npos)
      << note->message;
  // Unbounded: the arena keeps the original's room (every allocation, 16-aligned).
  EXPECT_NE(testing::replanned_bundle(m, true).find("harness/Makefile")->data.find("ARENA_BYTES := 2816\n"),
            std::string::npos);
  const std::vector<std::string> targets = host_or_skip();
  if (targets.empty()) GTEST_SKIP() << "the host's C compiler is not installed";
  testing::expect_same_outputs(testing::original_with_harness(m), testing::replanned_bundle(m, true), targets,
                               "usmp-off-unbounded", "output", 10);
}

TEST(SelftestUsmpOff, Tvm08OutputSizeComesFromTheExtentItsWritersStore) {
  // metadata.json v5 without outputs, no header, no Relay text; the entry copies arg1 into
  // `void* output` and hands that to the dense operator, which writes 6 floats.
  const MlfModel m = load_mlf_model(fixture_path(kUnpacked));
  ASSERT_EQ(m.problem.buffers.size(), 1u);
  EXPECT_EQ(m.problem.buffers[0].name, "sid_1");
  const ExportBundle original = testing::original_with_harness(m);
  EXPECT_EQ(selftest_obstacle(original, {}), "");
  ASSERT_EQ(original.notes.size(), 1u);
  EXPECT_EQ(original.notes[0].message,
            "output arg1: 24 bytes (6 x float), the extent its writers' loops store; no metadata.json output, "
            "interface header or Relay result type states it");
  EXPECT_NE(original.find("harness/main.c")->data.find("24"), std::string::npos);
  const std::vector<std::string> targets = host_or_skip();
  if (targets.empty()) GTEST_SKIP() << "the host's C compiler is not installed";
  testing::expect_same_outputs(original, testing::replanned_bundle(m, true), targets, "tvm08-unpacked", "arg1", 24);
}

}  // namespace
}  // namespace usmpx
