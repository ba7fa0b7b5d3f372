// USMP-off firmware with TVM's Arm "tensordot" int16 kernels (fixture written by the project,
// tests/fixtures/mlf/usmp_off_int16_tensordot): `kernel_convolve_int16_*` declares `uint32_t *out,
// uint32_t *tensor, uint32_t *kernel` while its caller passes int32_t and int16_t pointers into
// workspaces, and counts 4-byte words inside. The analysis sizes what the kernel reaches in its own
// element type; what it cannot size stays with TVM's allocator; a re-plan computes what the original computes.
#include <gtest/gtest.h>

#include <filesystem>

#include "base/text_file.h"
#include "frontends/tvm/export/harness/tvm_selftest.h"
#include "frontends/tvm/export/mlf_export.h"
#include "mlf_bundle_support.h"
#include "test_support.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;
using testing::fixture_path;

const char* const kFixture = "mlf/usmp_off_int16_tensordot";
const char* const kLib1 = "codegen/host/src/default_lib1.c";

const Buffer& buffer(const MlfModel& m, const std::string& name) {
  const auto b = m.problem.find_buffer(name);
  EXPECT_TRUE(b.has_value()) << name;
  return m.problem.buffers[static_cast<size_t>(b.value_or(0))];
}

const Diagnostic* find_diagnostic(const std::vector<Diagnostic>& ds, const std::string& code) {
  for (const Diagnostic& d : ds) {
    if (d.code == code) return &d;
  }
  return nullptr;
}

// The fixture copied with `from` replaced by `to` in default_lib1.c (every occurrence).
std::string variant(const std::string& name, const std::string& from, const std::string& to) {
  const fs::path dir = fs::temp_directory_path() / ("usmpx-tensordot-" + name);
  fs::remove_all(dir);
  fs::copy(fixture_path(kFixture), dir, fs::copy_options::recursive);
  std::string lib1 = read_text_file((dir / kLib1).string());
  size_t replaced = 0;
  for (size_t at = lib1.find(from); at != std::string::npos; at = lib1.find(from, at + to.size())) {
    lib1.replace(at, from.size(), to);
    ++replaced;
  }
  EXPECT_GT(replaced, 0u) << from;
  write_file_atomically((dir / kLib1).string(), lib1);
  return dir.string();
}

std::vector<std::string> targets_or_skip() {
  std::string missing;
  if (!selftest_target_available("host", &missing)) return {};
  std::vector<std::string> targets = {"host"};
  if (selftest_target_available("cortex-m4", &missing)) targets.push_back("cortex-m4");
  return targets;
}

TEST(SelftestTensordot, TheKernelsReachInWordsWhatTheirCallersAllocated) {
  const MlfModel m = load_mlf_model(fixture_path(kFixture));
  ASSERT_EQ(m.problem.buffers.size(), 7u);
  // The words the kernels read and write end where TVM's allocations end: nothing grows.
  EXPECT_EQ(buffer(m, "T_reshape").size_bytes, 72);
  EXPECT_EQ(buffer(m, "padded_data").size_bytes, 800);
  EXPECT_EQ(buffer(m, "DepthwiseConv2d").size_bytes, 128);
  EXPECT_EQ(buffer(m, "acc").size_bytes, 16);
  EXPECT_EQ(find_diagnostic(m.warnings, "mlf-allocation-overrun"), nullptr);
  EXPECT_EQ(find_diagnostic(m.warnings, "mlf-kept-allocation"), nullptr);
  // padded_data: the last call's window starts at int16 (7*40 + 7*4 + 2) = 310 and reads words
  // up to 2*2 + 2*20: 620 + 180 = 800 bytes, though the caller's int16 view ends at 622.
  const auto walked = std::find_if(m.walk.buffers.begin(), m.walk.buffers.end(),
                                   [](const WalkBuffer& w) { return w.name == "padded_data"; });
  ASSERT_NE(walked, m.walk.buffers.end());
  EXPECT_EQ(walked->accesses.load_bytes, 800);
}

TEST(SelftestTensordot, BestComputesWhatTheOriginalComputes) {
  const MlfModel m = load_mlf_model(fixture_path(kFixture));
  const Plan best = testing::plan_with("best", m.problem);
  ASSERT_FALSE(best.has_errors());
  // One pool: 1,512 bytes (padded_data, T_reshape, sid_2 and a row of DepthwiseConv2d live together)
  // where the original's allocator is given 2,048.
  EXPECT_EQ(best.total_size(), 1512);
  const std::vector<std::string> targets = targets_or_skip();
  if (targets.empty()) GTEST_SKIP() << "the host's C compiler is not installed";
  testing::expect_same_outputs(testing::original_with_harness(m), testing::replanned_bundle(m, true, "best"), targets,
                               "tensordot-best", "output", 10);
}

TEST(SelftestTensordot, AnAccumulatorTheKernelWritesPastItsAllocationIsPlannedAtTheWordsItReaches) {
  // The accumulator allocated and passed in the caller's int16 elements (8 bytes, two int16 per
  // call), while the kernel stores two 32-bit words per call: 16 bytes.
  const std::string dir =
      variant("acc-int16", "(&(((int32_t*)acc)[(c_outer * 2)]))", "(&(((int16_t*)acc)[(c_outer * 4)]))");
  std::string lib1 = read_text_file(dir + "/" + kLib1);
  const std::string alloc = "void* acc = TVMBackendAllocWorkspace(1, 0, (uint64_t)16, 0, 16);";
  ASSERT_NE(lib1.find(alloc), std::string::npos);
  lib1.replace(lib1.find(alloc), alloc.size(), "void* acc = TVMBackendAllocWorkspace(1, 0, (uint64_t)8, 0, 16);");
  write_file_atomically(dir + "/" + kLib1, lib1);
  const MlfModel m = load_mlf_model(dir);
  EXPECT_EQ(buffer(m, "acc").size_bytes, 16);
  const Diagnostic* note = find_diagnostic(m.warnings, "mlf-allocation-overrun");
  ASSERT_NE(note, nullptr);
  EXPECT_NE(note->message.find("'acc' 8 -> 16"), std::string::npos) << note->message;
  const std::vector<std::string> targets = targets_or_skip();
  if (targets.empty()) GTEST_SKIP() << "the host's C compiler is not installed";
  testing::expect_same_outputs(testing::original_with_harness(m), testing::replanned_bundle(m, true, "best"), targets,
                               "tensordot-acc-int16", "output", 10);
}

TEST(SelftestTensordot, AKernelThatCannotBeSizedKeepsItsBufferInABlockOfItsOwn) {
  // The sum kernel walks as many rows as a variable of the firmware says: nothing bounds how far.
  const std::string dir =
      variant("unsized", "for (int r = 0; r < 64; r++) {", "for (int r = 0; r < kernel_sum_rows; r++) {");
  std::string lib1 = read_text_file(dir + "/" + kLib1);
  const std::string kernel = "/* Sums two int16 channels";
  ASSERT_NE(lib1.find(kernel), std::string::npos);
  lib1.insert(lib1.find(kernel), "static volatile int32_t kernel_sum_rows = 64;\n");
  write_file_atomically(dir + "/" + kLib1, lib1);
  const MlfModel m = load_mlf_model(dir);
  EXPECT_FALSE(m.problem.find_buffer("sid_2").has_value());
  const Diagnostic* note = find_diagnostic(m.warnings, "mlf-kept-allocation");
  ASSERT_NE(note, nullptr);
  EXPECT_NE(note->message.find("'sid_2': read through a pointer to another element type further than the analysis "
                               "can bound, 'uint32_t * tensor' of kernel_sum_int16_r64_c4_qe4nxv: an access the "
                               "analysis cannot bound (codegen/host/src/default_lib1.c:"),
            std::string::npos)
      << note->message;
  const ExportBundle replanned = testing::replanned_bundle(m, true, "best");
  EXPECT_NE(replanned.find(kLib1)->data.find("void* sid_2 = TVMBackendAllocWorkspace(1, 0, (uint64_t)512, 0, 16);"),
            std::string::npos);
  const std::vector<std::string> targets = targets_or_skip();
  if (targets.empty()) GTEST_SKIP() << "the host's C compiler is not installed";
  testing::expect_same_outputs(testing::original_with_harness(m), replanned, targets, "tensordot-unsized", "output",
                               10);
}

}  // namespace
}  // namespace usmpx
