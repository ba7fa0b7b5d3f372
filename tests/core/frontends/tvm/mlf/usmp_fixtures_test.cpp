// MLF fixtures in the shape of USMP-on output (tests/fixtures/mlf, written by this project):
// the as-built plan read from the C, and the derivation of each fixture's offsets.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include "archive_builder.h"
#include "base/input_error.h"
#include "checks/as_built_check.h"
#include "frontends/tvm/mlf/mlf_model.h"
#include "inputs/input_file.h"
#include "mlf_test_support.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

using testing::buffer_named;
using testing::buffer_names;
using testing::conflict_names;
using testing::Names;
using testing::TarEntry;

std::string fixture(const std::string& name) {
  return testing::fixture_path("mlf/" + name);
}

int64_t built_offset(const MlfModel& m, const std::string& name) {
  return m.as_built->allocations[static_cast<size_t>(*m.problem.find_buffer(name))].offset;
}
std::string built_pool(const MlfModel& m, const std::string& name) {
  return m.problem
      .pools[static_cast<size_t>(m.as_built->allocations[static_cast<size_t>(*m.problem.find_buffer(name))].pool)]
      .name;
}

// usmp_default_pools: module "default", internal pools global_const_workspace (a const struct in
// default_lib0.c) and global_workspace (208 bytes). Main: add(input -> sid_1), conv1d(sid_1 ->
// sid_2, PaddedInput inside), relu(sid_2 -> sid_3), relu(sid_3 -> sid_4) (compute inside, so
// two intervals), dense(sid_4 -> output).
// * Sizes the C does not state, from the largest stored index: sid_1 8 floats (add's ax1 < 8) =
//   32; sid_2 (oc * 8) + x <= 15 -> 64; sid_3, sid_4, compute 16 floats = 64; PaddedInput 10
//   floats = 40 (the guarded read p0[i1 - 1] reaches index 8 of sid_1: stores come first).
//   Constants from the struct: fused_constant_2 64 floats = 256, fused_constant 32,
//   fused_constant_1 24, at offsets 0, 256, 288 (clang's layout equals the let lines).
// * Liveness (loops extend to their nest): sid_1 [add loop, conv's first loop], PaddedInput
//   [conv first loop, conv nest], sid_2 [conv nest, relu#1 first loop], compute [relu first
//   loop, relu second loop] twice, sid_3 [relu#1 second loop, relu#2 first loop], sid_4
//   [relu#2 second loop, dense nest]. Conflicts: sid_1 {PaddedInput}, PaddedInput {sid_1,
//   sid_2}, sid_2 {PaddedInput, compute}, compute {sid_2, sid_3, sid_3, sid_4} (compute starts
//   twice while sid_3 is open, so sid_3 twice, and sid_3's own list holds compute twice),
//   sid_3 {compute, compute}, sid_4 {compute}. Constants conflict with each other only.
//   Memory pressure: in dense, sid_4 64 + fused_constant_2 256 = 320 (constants count).
// * greedy_by_size, workspace: compute (64, 4 conflicts) 0; sid_3 and sid_2 (64, 2; "sid_3" >
//   "sid_2") 64 and 64; sid_4 64; PaddedInput above sid_2: 128; sid_1 above PaddedInput's end
//   168 rounded to 16: 176; pool end 176 + 32 = 208. Constants: fused_constant_2 0, then
//   fused_constant 256, fused_constant_1 288; pool end 312.
TEST(UsmpFixtures, DefaultPoolsAsBuilt) {
  const MlfModel m = load_mlf_model(fixture("usmp_default_pools"));
  const Problem& p = m.problem;
  EXPECT_TRUE(m.warnings.empty()) << m.warnings.front().message;
  EXPECT_EQ(buffer_names(p), (Names{"sid_1", "sid_2", "sid_3", "sid_4", "fused_constant", "fused_constant_1",
                                    "PaddedInput", "compute", "fused_constant_2"}));
  const std::vector<int64_t> sizes = {32, 64, 64, 64, 32, 24, 40, 64, 256};
  for (size_t i = 0; i < sizes.size(); ++i) {
    EXPECT_EQ(p.buffers[i].size_bytes, sizes[i]) << p.buffers[i].name;
    EXPECT_EQ(p.buffers[i].alignment, 16) << p.buffers[i].name;
  }
  EXPECT_EQ(buffer_named(p, "fused_constant_2").kind, BufferKind::kConstant);
  EXPECT_EQ(buffer_named(p, "fused_constant_2").dtype, "float32");
  EXPECT_EQ(buffer_named(p, "fused_constant_2").shape, std::vector<int64_t>{64});
  EXPECT_EQ(buffer_named(p, "PaddedInput").dtype, "float32");
  EXPECT_EQ(buffer_named(p, "PaddedInput").shape, std::vector<int64_t>{10});
  EXPECT_EQ(buffer_named(p, "PaddedInput").origin.function, "tvmgen_default_fused_nn_conv1d");
  EXPECT_EQ(buffer_named(p, "PaddedInput").origin.location, (SourceLocation{"codegen/host/src/default_lib1.c", 43, 3}));

  EXPECT_EQ(conflict_names(p, "sid_1"), (Names{"PaddedInput"}));
  EXPECT_EQ(conflict_names(p, "PaddedInput"), (Names{"sid_1", "sid_2"}));
  EXPECT_EQ(conflict_names(p, "sid_2"), (Names{"PaddedInput", "compute"}));
  EXPECT_EQ(conflict_names(p, "compute"), (Names{"sid_2", "sid_3", "sid_3", "sid_4"}));
  EXPECT_EQ(conflict_names(p, "sid_3"), (Names{"compute", "compute"}));
  EXPECT_EQ(conflict_names(p, "sid_4"), (Names{"compute"}));
  EXPECT_EQ(conflict_names(p, "fused_constant"), (Names{"fused_constant_1", "fused_constant_2"}));
  EXPECT_EQ(p.memory_pressure, 320);

  ASSERT_EQ(p.pools.size(), 2u);
  EXPECT_EQ(p.pools[0].name, "global_const_workspace");
  EXPECT_EQ(p.pools[0].kind, PoolKind::kConstant);
  EXPECT_TRUE(p.pools[0].internal);
  EXPECT_EQ(p.pools[1].name, "global_workspace");
  EXPECT_EQ(p.pools[1].kind, PoolKind::kWorkspace);

  ASSERT_TRUE(m.as_built);
  const std::vector<std::pair<std::string, int64_t>> offsets = {
      {"compute", 0},          {"sid_3", 64},           {"sid_2", 64},
      {"sid_4", 64},           {"PaddedInput", 128},    {"sid_1", 176},
      {"fused_constant_2", 0}, {"fused_constant", 256}, {"fused_constant_1", 288}};
  for (const auto& [name, offset] : offsets)
    EXPECT_EQ(built_offset(m, name), offset) << name;
  EXPECT_EQ(built_pool(m, "sid_1"), "global_workspace");
  EXPECT_EQ(built_pool(m, "fused_constant"), "global_const_workspace");
  Plan built = *m.as_built;
  compute_pool_sizes(p, built);
  EXPECT_EQ(built.pool_sizes, (std::vector<int64_t>{312, 208}));

  const AsBuiltMatch match = match_as_built(p, *m.as_built);
  EXPECT_EQ(match.algorithm, "greedy_by_size");
  EXPECT_EQ(match.matching, 9);
  EXPECT_EQ(match.total, 9);
  const Plan greedy = testing::plan_with("greedy_by_size", p);
  EXPECT_EQ(greedy.pool_sizes, (std::vector<int64_t>{312, 208}));

  // The C model keeps what the exporter rewrites: let lines with the offset's exact bytes.
  ASSERT_EQ(m.code.lets.size(), 9u);
  const auto let = std::find_if(m.code.lets.begin(), m.code.lets.end(), [&](const PoolLet& l) {
    return m.program.functions[static_cast<size_t>(l.function)].variables[static_cast<size_t>(l.variable)].name ==
           "sid_1_let";
  });
  ASSERT_NE(let, m.code.lets.end());
  const PoolLet& sid_1 = *let;
  EXPECT_EQ(sid_1.pool, "global_workspace");
  EXPECT_EQ(sid_1.pool_param, "global_workspace_1_var");
  const std::string_view file = m.program.files[static_cast<size_t>(sid_1.offset_range.file)].text;
  EXPECT_EQ(file.substr(sid_1.offset_range.begin, sid_1.offset_range.end - sid_1.offset_range.begin), "176");
  EXPECT_EQ(file.substr(sid_1.statement.begin, sid_1.statement.end - sid_1.statement.begin),
            "void* sid_1_let = (&(global_workspace_1_var[176]));");
  ASSERT_EQ(m.code.calls.size(), 5u);
  EXPECT_EQ(m.code.calls[3].callee, "tvmgen_default_fused_nn_relu");
  EXPECT_EQ(m.code.pool_params.size(), 10u) << "two per function: main and four operators";
  // What runs at each tick, for display: the five calls, each over its operator's body.
  ASSERT_EQ(p.timeline.size(), 5u);
  EXPECT_EQ(p.timeline[2].label, "tvmgen_default_fused_nn_relu");
  EXPECT_EQ(p.span_at(buffer_named(p, "PaddedInput").lifetime->first())->label, "tvmgen_default_fused_nn_conv1d");
  for (size_t i = 1; i < p.timeline.size(); ++i)
    EXPECT_GT(p.timeline[i].first, p.timeline[i - 1].last);
  ASSERT_EQ(m.code.internal_pools.size(), 2u);
}

// usmp_external_pools: module "mini", external pools dtcm and sram (sizes 36 and 64 in
// tvmgen_mini.h), constants left as static arrays. Main: cast(x -> sid_1), conv1d_add(sid_1 ->
// sid_2, PaddedInput inside), max_pool1d(sid_2 -> sid_3), dense_cast(sid_3 -> output, dense
// inside). Sizes from stores: sid_1 16 int16 = 32; sid_2 through the local cse_var_1 =
// (oc * 16) + x <= 31 -> 64; sid_3 16 int16 = 32; PaddedInput 18 int16 = 36; dense 4 int32 = 16.
// Conflicts: sid_1 {PaddedInput}, PaddedInput {sid_1, sid_2}, sid_2 {PaddedInput, sid_3} (max_pool
// reads and writes in one nest), sid_3 {sid_2, dense}, dense {sid_3}; pressure 36 + 64 = 100.
// TVM with --workspace-pools sram,dtcm and sram limited to 64: sid_2 sram 0; PaddedInput does not
// fit above sid_2 in sram -> dtcm 0; sid_3 likewise dtcm 0; sid_1 sram 0 (its only conflict is
// in dtcm); dense sram 0. The tool lists each buffer's own pool first, so greedy_by_size
// reproduces the same placements without knowing the hint.
TEST(UsmpFixtures, ExternalPoolsAsBuilt) {
  const MlfModel m = load_mlf_model(fixture("usmp_external_pools"));
  const Problem& p = m.problem;
  EXPECT_TRUE(m.warnings.empty()) << m.warnings.front().message;
  EXPECT_EQ(m.module, "mini");
  EXPECT_EQ(buffer_names(p), (Names{"sid_1", "sid_2", "sid_3", "PaddedInput", "dense"}));
  const std::vector<int64_t> sizes = {32, 64, 32, 36, 16};
  for (size_t i = 0; i < sizes.size(); ++i)
    EXPECT_EQ(p.buffers[i].size_bytes, sizes[i]) << p.buffers[i].name;
  EXPECT_EQ(conflict_names(p, "sid_1"), (Names{"PaddedInput"}));
  EXPECT_EQ(conflict_names(p, "PaddedInput"), (Names{"sid_1", "sid_2"}));
  EXPECT_EQ(conflict_names(p, "sid_2"), (Names{"PaddedInput", "sid_3"}));
  EXPECT_EQ(conflict_names(p, "sid_3"), (Names{"dense", "sid_2"}));
  EXPECT_EQ(conflict_names(p, "dense"), (Names{"sid_3"}));
  EXPECT_EQ(p.memory_pressure, 100);
  ASSERT_EQ(p.pools.size(), 2u);
  EXPECT_EQ(p.pools[0].name, "dtcm");
  EXPECT_FALSE(p.pools[0].internal);
  EXPECT_EQ(p.pools[1].name, "sram");
  EXPECT_EQ(buffer_named(p, "PaddedInput").pool_candidates, (std::vector<int>{0, 1}));
  EXPECT_EQ(buffer_named(p, "sid_2").pool_candidates, (std::vector<int>{1, 0}));
  EXPECT_EQ(buffer_named(p, "dense").dtype, "int32");

  ASSERT_TRUE(m.as_built);
  for (const char* name : {"sid_1", "sid_2", "dense"})
    EXPECT_EQ(built_pool(m, name), "sram") << name;
  for (const char* name : {"sid_3", "PaddedInput"})
    EXPECT_EQ(built_pool(m, name), "dtcm") << name;
  for (const char* name : {"sid_1", "sid_2", "sid_3", "PaddedInput", "dense"})
    EXPECT_EQ(built_offset(m, name), 0) << name;
  const AsBuiltMatch match = match_as_built(p, *m.as_built);
  EXPECT_EQ(match.matching, 5);
  EXPECT_EQ(match.algorithm, "greedy_by_size");
  EXPECT_EQ(m.code.external_pool_sizes.at("dtcm"), 36);
  EXPECT_EQ(m.code.external_pool_sizes.at("sram"), 64);
  EXPECT_EQ(m.code.inputs, Names{"x"});
}

// Re-planning with TVM's own options (the user's pools, sram limited) gives the same plan.
TEST(UsmpFixtures, ExternalPoolsWithTheOriginalPoolOptions) {
  MlfLoadOptions options;
  options.pools.workspace_pools = {"sram", "dtcm"};
  options.pools.workspace_size_hints = {{"sram", 64}};
  const MlfModel m = load_mlf_model(fixture("usmp_external_pools"), options);
  EXPECT_FALSE(m.as_built) << "the options replace the pools of the as-built plan";
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_EQ(m.warnings[0].message, "the pool options replace the pools TVM planned into; as-built not available");
  const Plan plan = testing::plan_with("greedy_by_size", m.problem);
  for (const char* name : {"sid_1", "sid_2", "dense"})
    EXPECT_EQ(testing::pool_of(m.problem, plan, name), "sram") << name;
  for (const char* name : {"sid_3", "PaddedInput"})
    EXPECT_EQ(testing::pool_of(m.problem, plan, name), "dtcm") << name;
}

std::vector<TarEntry> with_file(std::vector<TarEntry> entries, const std::string& path, const std::string* data) {
  std::erase_if(entries, [&](const TarEntry& e) { return e.path == path; });
  if (data) entries.push_back({path, *data, TarEntry::Type::kFile});
  return entries;
}

class MlfArchives : public ::testing::Test {
 protected:
  void TearDown() override {
    for (const std::string& f : files_)
      std::filesystem::remove(f);
  }
  std::string write(const std::string& name, const std::string& bytes) {
    const std::string path =
        (std::filesystem::temp_directory_path() / ("usmpx_mlf_" + std::to_string(::getpid()) + "_" + name)).string();
    std::ofstream(path, std::ios::binary) << bytes;
    files_.push_back(path);
    return path;
  }
  std::vector<std::string> files_;
};

TEST_F(MlfArchives, GzippedTarballLoadsLikeTheFolder) {
  const std::string path =
      write("default.tgz", testing::make_tar(testing::folder_entries(fixture("usmp_default_pools")), true));
  const LoadedInput in = load_input(path);
  EXPECT_EQ(in.format, InputFormat::kMlf);
  EXPECT_EQ(in.problem.buffers.size(), 9u);
  ASSERT_TRUE(in.as_built);
  EXPECT_EQ(match_as_built(in.problem, *in.as_built).matching, 9);
}

// One archive holding both fixtures as two modules of a v7 metadata.json.
TEST_F(MlfArchives, SeveralModulesThePicksAndTheError) {
  std::vector<TarEntry> entries = testing::folder_entries(fixture("usmp_default_pools"));
  for (TarEntry& e : testing::folder_entries(fixture("usmp_external_pools"))) {
    if (e.path != "./metadata.json" && e.path != "./NOTICE.md") entries.push_back(std::move(e));
  }
  auto read_json = [](const std::string& p) { return nlohmann::ordered_json::parse(std::ifstream(p)); };
  nlohmann::ordered_json meta = read_json(fixture("usmp_default_pools/metadata.json"));
  meta["modules"]["mini"] = read_json(fixture("usmp_external_pools/metadata.json"))["modules"]["mini"];
  const std::string text = meta.dump(2);
  const std::string path = write("two.tar", testing::make_tar(with_file(entries, "./metadata.json", &text)));

  EXPECT_EQ(input_modules(path), (std::vector<std::string>{"default", "mini"}));
  EXPECT_TRUE(input_modules(fixture("../tvm_examples/linear.json")).empty());
  LoadOptions options;
  EXPECT_EQ(load_input(path, options).problem.buffers.size(), 9u) << "the first module by default";
  options.module = "mini";
  const LoadedInput mini = load_input(path, options);
  EXPECT_EQ(buffer_names(mini.problem), (Names{"sid_1", "sid_2", "sid_3", "PaddedInput", "dense"}));
  options.module = "audio";
  try {
    load_input(path, options);
    FAIL() << "unknown module accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path + "/metadata.json: no module 'audio' (modules: default, mini)");
  }
}

// A lib0.c cut off inside the constant pool struct: parse errors and the missing pools become
// warnings naming the file and line; constant sizes then come from the accesses, which agree.
TEST_F(MlfArchives, TruncatedLib0DegradesToWarnings) {
  std::vector<TarEntry> entries = testing::folder_entries(fixture("usmp_default_pools"));
  std::string lib0;
  for (const TarEntry& e : entries) {
    if (e.path == "./codegen/host/src/default_lib0.c") lib0 = e.data.substr(0, e.data.find("float fused_constant_let"));
  }
  ASSERT_FALSE(lib0.empty());
  const std::string path =
      write("cut.tar", testing::make_tar(with_file(entries, "./codegen/host/src/default_lib0.c", &lib0)));
  const MlfModel m = load_mlf_model(path);
  std::vector<std::string> codes;
  for (const Diagnostic& d : m.warnings)
    codes.push_back(d.code);
  ASSERT_FALSE(m.warnings.empty());
  EXPECT_EQ(m.warnings[0].code, "c-parse-error");
  EXPECT_EQ(m.warnings[0].location.file, path + "/codegen/host/src/default_lib0.c");
  EXPECT_EQ(m.warnings[0].location.line, 8);
  // The pools lib0.c no longer declares are sized by the totals TVM wrote elsewhere.
  EXPECT_NE(std::find(codes.begin(), codes.end(), "mlf-pool-size-from-total"), codes.end());
  EXPECT_EQ(std::find(codes.begin(), codes.end(), "mlf-missing-pool"), codes.end());
  EXPECT_EQ(buffer_named(m.problem, "fused_constant_2").size_bytes, 256);
  EXPECT_EQ(buffer_named(m.problem, "fused_constant_1").size_bytes, 24);
  ASSERT_TRUE(m.as_built);
  EXPECT_EQ(match_as_built(m.problem, *m.as_built).matching, 9);

  const std::string no_lib0 =
      write("nolib0.tar", testing::make_tar(with_file(entries, "./codegen/host/src/default_lib0.c", nullptr)));
  const MlfModel n = load_mlf_model(no_lib0);
  ASSERT_EQ(n.warnings.size(), 3u);
  EXPECT_EQ(testing::located(n.warnings[0]),
            no_lib0 +
                ": pool 'global_workspace' is not declared in default_lib0.c; its size, 208 bytes, comes from "
                "tvmgen_default.h's TVMGEN_DEFAULT_WORKSPACE_SIZE");
  EXPECT_EQ(testing::located(n.warnings[1]),
            no_lib0 +
                ": pool 'global_const_workspace' is not declared in default_lib0.c; its size, 312 bytes, comes from "
                "metadata.json's constants_size_bytes");
  // The constants' data was in lib0.c: they stay where TVM put them.
  EXPECT_EQ(testing::located(n.warnings[2]),
            no_lib0 +
                ": 3 constant(s) pinned where TVM's plan put them ('fused_constant', 'fused_constant_1', "
                "'fused_constant_2'): their data is in default_lib0.c, which the input does not hold, so no plan may "
                "move them");
  EXPECT_EQ(buffer_named(n.problem, "fused_constant_2").pin, (Pin{*n.problem.find_pool("global_const_workspace"), 0}));
  EXPECT_EQ(n.problem.buffers.size(), 9u);
}

// One more channel in the conv (oc < 3) makes sid_2 96 bytes by its accesses: a size no tensor of
// the Relay text has; the as-built plan then overlaps sid_2 with PaddedInput, which the validator
// reports.
// An access pattern that reaches past a tensor (here a loop widened to 3 channels) must not make
// TVM's own plan look invalid: the inferred size stays within the room TVM's layout gives it.
TEST_F(MlfArchives, InferredSizesStayWithinTvmsLayout) {
  std::vector<TarEntry> entries = testing::folder_entries(fixture("usmp_default_pools"));
  std::string lib1;
  for (const TarEntry& e : entries) {
    if (e.path == "./codegen/host/src/default_lib1.c") lib1 = e.data;
  }
  const size_t at = lib1.find("oc < 2");
  ASSERT_NE(at, std::string::npos);
  lib1.replace(at, 6, "oc < 3");
  const std::string path =
      write("wide.tar", testing::make_tar(with_file(entries, "./codegen/host/src/default_lib1.c", &lib1)));
  const MlfModel m = load_mlf_model(path);
  EXPECT_EQ(buffer_named(m.problem, "sid_2").size_bytes, 64) << "the accesses say 96, TVM's layout leaves 64";
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_EQ(m.warnings[0].severity, Severity::kNote);
  EXPECT_EQ(m.warnings[0].message,
            "sizes inferred from accesses reach into a conflicting neighbour in TVM's plan; kept within TVM's layout "
            "(bytes): 'sid_2' 96 -> 64");
  ASSERT_TRUE(m.as_built);
  Plan built = *m.as_built;
  finish_plan(m.problem, built);
  EXPECT_FALSE(built.has_errors()) << "TVM's plan checks valid";
}

TEST_F(MlfArchives, NoMetadataOrNoSources) {
  const std::string bare = write("bare.tar", testing::make_tar({{"./codegen/host/src/default_lib1.c", "int x;"}}));
  try {
    load_input(bare);
    FAIL();
  } catch (const InputError& e) {
    // Neither kind: the message lists what each kind of input looks like.
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(bare + ": unknown input kind; expected one of:", 0), 0u) << what;
    EXPECT_NE(what.find("firmware tree: a folder or archive holding tvmgen_<mod>.h and <mod>_lib<N>.c"),
              std::string::npos);
  }
  const std::string empty =
      write("empty.tar", testing::make_tar({{"./metadata.json", R"({"version": 5, "model_name": "m"})"}}));
  // Code not found is an error, never an empty model.
  try {
    load_input(empty);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              empty +
                  ": module 'm' has no C sources (none under codegen/host/src, no m_lib<N>.c beside "
                  "tvmgen_m.h); nothing to plan");
  }
}

// --use-workspace-io on USMP-on code: the I/O become buffers the code's plan does not place.
TEST(UsmpFixtures, WorkspaceIoDropsTheAsBuiltPlan) {
  MlfLoadOptions options;
  options.pools.use_workspace_io = true;
  const MlfModel m = load_mlf_model(fixture("usmp_default_pools"), options);
  EXPECT_EQ(buffer_named(m.problem, "input").size_bytes, 32);
  EXPECT_EQ(buffer_named(m.problem, "input").dtype, "float32");
  EXPECT_EQ(buffer_named(m.problem, "output").size_bytes, 16);
  EXPECT_EQ(buffer_named(m.problem, "output").kind, BufferKind::kOutput);
  EXPECT_FALSE(m.as_built);
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_EQ(m.warnings[0].code, "mlf-as-built");
}

}  // namespace
}  // namespace usmpx
