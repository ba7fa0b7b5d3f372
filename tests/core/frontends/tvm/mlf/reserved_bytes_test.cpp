// Bytes of TVM's pools that code the tool cannot read may use stay reserved: an NPU operator given
// the pool's base (the Ethos-U-style fixture: 74,480 bytes declared, 18 in known buffers), and a
// pool declared larger than its known buffers reach. No plan shrinks such a pool or moves a
// buffer into those bytes; an as-built export writes every file back byte for byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/archive_reader.h"
#include "frontends/tvm/export/mlf_export.h"
#include "frontends/tvm/mlf/mlf_model.h"
#include "frontends/tvm/mlf/reserved_bytes.h"
#include "planners/registry.h"
#include "session/session_edits.h"
#include "test_support.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;
using testing::fixture_path;
using testing::plan_with;

constexpr const char* kNpu = "mlf/usmp_ethosu_npu";

std::vector<const Diagnostic*> with_code(const MlfModel& m, const std::string& code) {
  std::vector<const Diagnostic*> out;
  for (const Diagnostic& d : m.warnings) {
    if (d.code == code) out.push_back(&d);
  }
  return out;
}

int64_t pool_size(const Problem& problem, const Plan& plan, const std::string& pool) {
  return plan.pool_sizes.at(static_cast<size_t>(*problem.find_pool(pool)));
}

Plan as_built(const MlfModel& m) {
  Plan plan = *m.as_built;
  finish_plan(m.problem, plan);
  return plan;
}

// No buffer of `plan` shares a byte of the reserved buffers' ranges in their pool.
void expect_reserved_untouched(const Problem& problem, const Plan& plan) {
  for (size_t r = 0; r < problem.buffers.size(); ++r) {
    if (problem.buffers[r].kind != BufferKind::kReserved) continue;
    const Allocation& at = plan.allocations[r];
    EXPECT_EQ(at.offset, *problem.buffers[r].pin->offset) << problem.buffers[r].name;
    for (size_t b = 0; b < problem.buffers.size(); ++b) {
      if (b == r || plan.allocations[b].pool != at.pool) continue;
      const int64_t begin = plan.allocations[b].offset;
      const int64_t end = begin + problem.buffers[b].size_bytes;
      EXPECT_TRUE(end <= at.offset || begin >= at.offset + problem.buffers[r].size_bytes)
          << problem.buffers[b].name << " [" << begin << ", " << end << ") in " << problem.buffers[r].name;
    }
  }
}

TEST(ReservedBytes, NpuOperatorKeepsEveryUnknownByteOfItsPool) {
  const MlfModel m = load_mlf_model(fixture_path(kNpu));
  // One warning, naming the bytes and the operator.
  const auto said = with_code(m, "mlf-reserved-bytes");
  ASSERT_EQ(said.size(), 1u);
  EXPECT_NE(said[0]->message.find("74462 bytes in 1 range of pool 'global_workspace': TVMEthosULaunch (called from "
                                  "tvmgen_default_ethos_u_main_0) receives the pool"),
            std::string::npos)
      << said[0]->message;
  EXPECT_TRUE(with_code(m, "mlf-pool-size").empty());
  // The known buffers: 18 bytes; the rest of TVM's 74,480 is one reserved buffer pinned at 18.
  ASSERT_EQ(m.problem.buffers.size(), 4u);
  EXPECT_EQ(reserved_bytes(m.problem), 74462);
  const Buffer& reserved = m.problem.buffers.back();
  EXPECT_EQ(reserved.kind, BufferKind::kReserved);
  EXPECT_EQ(to_string(reserved.kind), "reserved");
  EXPECT_EQ(reserved.name, "reserved_global_workspace_18");
  EXPECT_EQ(reserved.size_bytes, 74462);
  ASSERT_TRUE(reserved.pin.has_value());
  EXPECT_EQ(reserved.pin->offset, 18);
  EXPECT_EQ(reserved.origin.function, "TVMEthosULaunch");
  const auto sid_1 = m.problem.find_buffer("sid_1");
  const auto sid_2 = m.problem.find_buffer("sid_2");
  ASSERT_TRUE(sid_1 && sid_2);
  EXPECT_EQ(m.problem.buffers[static_cast<size_t>(*sid_1)].size_bytes, 16);
  EXPECT_EQ(m.problem.buffers[static_cast<size_t>(*sid_2)].size_bytes, 2);
  // as-built is TVM's size, and no planner goes below it or into the reserved bytes.
  ASSERT_TRUE(m.as_built.has_value());
  EXPECT_EQ(pool_size(m.problem, as_built(m), "global_workspace"), 74480);
  for (const char* algorithm : {"best", "greedy_by_size", "greedy_by_conflicts", "hill_climb"}) {
    SCOPED_TRACE(algorithm);
    const Plan plan = plan_with(algorithm, m.problem);
    EXPECT_FALSE(plan.has_errors());
    EXPECT_GE(pool_size(m.problem, plan, "global_workspace"), 74480);
    expect_reserved_untouched(m.problem, plan);
  }
  EXPECT_EQ(pool_size(m.problem, plan_with("best", m.problem), "global_workspace"), 74480);
}

TEST(ReservedBytes, NpuAsBuiltAndBestExportsKeepThePoolAtTvmsSize) {
  const MlfModel m = load_mlf_model(fixture_path(kNpu));
  const ArchiveContents original = read_folder(fixture_path(kNpu), [](std::string_view) { return true; });
  for (const char* algorithm : {"as-built", "best"}) {
    SCOPED_TRACE(algorithm);
    const Plan plan = std::string(algorithm) == "as-built" ? as_built(m) : plan_with(algorithm, m.problem);
    const ExportBundle bundle = export_mlf(m, m.problem, plan);
    for (const ArchiveFile& f : original.files) {
      const ExportFile* out = bundle.find(f.path);
      ASSERT_NE(out, nullptr) << f.path;
      EXPECT_EQ(out->data, f.data) << f.path;
    }
    EXPECT_EQ(bundle.changed,
              (std::vector<std::string>{"codegen/host/usmpx_plan.json", "codegen/host/usmpx_pools.ld"}));
    EXPECT_NE(bundle.find("codegen/host/src/default_lib0.c")->data.find("static uint8_t global_workspace[74480];"),
              std::string::npos);
  }
}

// usmp_default_pools with its workspace array declared 4096 bytes instead of the 208 its buffers reach.
fs::path declared_larger() {
  const fs::path dir = fs::temp_directory_path() / "usmpx-reserved-tail";
  fs::remove_all(dir);
  fs::copy(fixture_path("mlf/usmp_default_pools"), dir, fs::copy_options::recursive);
  const fs::path lib0 = dir / "codegen/host/src/default_lib0.c";
  std::stringstream text;
  text << std::ifstream(lib0, std::ios::binary).rdbuf();
  std::string s = text.str();
  const std::string from = "static uint8_t global_workspace[208];";
  const size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos);
  s.replace(at, from.size(), "static uint8_t global_workspace[4096];");
  std::ofstream(lib0, std::ios::binary) << s;
  return dir;
}

TEST(ReservedBytes, APoolDeclaredLargerThanItsBuffersKeepsItsTail) {
  const fs::path dir = declared_larger();
  const MlfModel m = load_mlf_model(dir.string());
  const auto said = with_code(m, "mlf-reserved-bytes");
  ASSERT_EQ(said.size(), 1u);
  EXPECT_NE(said[0]->message.find("3888 bytes in 1 range of pool 'global_workspace': the code declares it 4096 bytes "
                                  "but its known buffers end at 208"),
            std::string::npos)
      << said[0]->message;
  EXPECT_EQ(reserved_bytes(m.problem), 3888);
  EXPECT_EQ(pool_size(m.problem, as_built(m), "global_workspace"), 4096);
  EXPECT_EQ(pool_size(m.problem, as_built(m), "global_const_workspace"), 312);
  const Plan best = plan_with("best", m.problem);
  EXPECT_EQ(pool_size(m.problem, best, "global_workspace"), 4096);
  expect_reserved_untouched(m.problem, best);
  const ExportBundle bundle = export_mlf(m, m.problem, as_built(m));
  for (const ArchiveFile& f : read_folder(dir.string(), [](std::string_view) { return true; }).files)
    EXPECT_EQ(bundle.find(f.path)->data, f.data) << f.path;
  fs::remove_all(dir);
}

TEST(ReservedBytes, AnExternalPoolSizedLargerByTheHeaderKeepsItsTail) {
  const fs::path dir = fs::temp_directory_path() / "usmpx-reserved-external";
  fs::remove_all(dir);
  fs::copy(fixture_path("mlf/usmp_external_pools"), dir, fs::copy_options::recursive);
  const fs::path header = dir / "codegen/host/include/tvmgen_mini.h";
  std::stringstream text;
  text << std::ifstream(header, std::ios::binary).rdbuf();
  std::string s = text.str();
  const std::string from = "#define TVMGEN_MINI_SRAM_WORKSPACE_POOL_SIZE 64";
  ASSERT_NE(s.find(from), std::string::npos);
  s.replace(s.find(from), from.size(), "#define TVMGEN_MINI_SRAM_WORKSPACE_POOL_SIZE 1000");
  std::ofstream(header, std::ios::binary) << s;
  const MlfModel m = load_mlf_model(dir.string());
  EXPECT_EQ(reserved_bytes(m.problem), 936);
  EXPECT_EQ(pool_size(m.problem, as_built(m), "sram"), 1000);
  EXPECT_EQ(pool_size(m.problem, as_built(m), "dtcm"), 36);
  EXPECT_EQ(pool_size(m.problem, plan_with("best", m.problem), "sram"), 1000);
  const ExportBundle bundle = export_mlf(m, m.problem, as_built(m));
  EXPECT_EQ(bundle.find("codegen/host/include/tvmgen_mini.h")->data, s);
  fs::remove_all(dir);
}

TEST(ReservedBytes, AnOperatorWhoseFileIsMissingIsCodeWithoutABody) {
  const fs::path dir = fs::temp_directory_path() / "usmpx-reserved-missing-lib2";
  fs::remove_all(dir);
  fs::copy(fixture_path(kNpu), dir, fs::copy_options::recursive);
  fs::remove(dir / "codegen/host/src/default_lib2.c");
  const MlfModel m = load_mlf_model(dir.string());
  EXPECT_EQ(reserved_bytes(m.problem), 74462);
  const auto said = with_code(m, "mlf-reserved-bytes");
  ASSERT_EQ(said.size(), 1u);
  EXPECT_NE(said[0]->message.find("tvmgen_default_ethos_u_main_0 (called from tvmgen_default___tvm_main__)"),
            std::string::npos)
      << said[0]->message;
  fs::remove_all(dir);
}

TEST(ReservedBytes, KnownBuffersPassedToLibrariesReserveNothing) {
  // CMSIS-NN kernels receive the lets of known buffers, never a pool: nothing is reserved.
  for (const char* fixture :
       {"mlf/usmp_cmsis_nn", "mlf/usmp_default_pools", "mlf/usmp_external_pools", "mlf/usmp_tvm016_external"}) {
    const MlfModel m = load_mlf_model(fixture_path(fixture));
    EXPECT_EQ(reserved_bytes(m.problem), 0) << fixture;
    EXPECT_TRUE(with_code(m, "mlf-reserved-bytes").empty()) << fixture;
  }
}

TEST(ReservedBytes, RealCmsisNnTreeReservesNothing) {
  USMPX_REQUIRE_SHARED(tree, "mlf/firmware/mlperf_tiny_ic_cmsis_nn/model");
  const MlfModel m = load_mlf_model(tree);
  EXPECT_EQ(reserved_bytes(m.problem), 0);
  ASSERT_TRUE(m.as_built.has_value());
  EXPECT_EQ(pool_size(m.problem, as_built(m), "global_workspace"), 66112);
}

TEST(ReservedBytes, PoolOptionsCannotRemoveAPoolWithReservedBytes) {
  PoolOptions options;
  options.workspace_pools = {"sram"};
  try {
    load_mlf_model(fixture_path(kNpu), {options, ""});
    ADD_FAILURE() << "the NPU's pool was replaced";
  } catch (const std::exception& e) {
    EXPECT_EQ(std::string(e.what()),
              "pool 'global_workspace' holds 74462 reserved bytes at offset 18 that code the tool cannot read may "
              "use; the pool options cannot remove it");
  }
}

TEST(ReservedBytes, TheExplorersEditsLeaveReservedBytesInPlace) {
  const MlfModel m = load_mlf_model(fixture_path(kNpu));
  const SessionEdits edits = initial_edits(m.problem, "best");
  const Problem unchanged = apply_edits(m.problem, edits);
  const Buffer& reserved = unchanged.buffers.back();
  EXPECT_EQ(reserved.pin, (Pin{1, 18}));
  EXPECT_EQ(reserved.pool_candidates, (std::vector<int>{1}));
  try {
    apply_edits(m.problem, with_pin(edits, "reserved_global_workspace_18", PinSpec{"", "global_workspace", 0}));
    ADD_FAILURE() << "reserved bytes were moved";
  } catch (const std::exception& e) {
    EXPECT_EQ(std::string(e.what()),
              "'reserved_global_workspace_18' holds bytes that code the tool cannot read may use; it stays where "
              "TVM left it");
  }
}

}  // namespace
}  // namespace usmpx
