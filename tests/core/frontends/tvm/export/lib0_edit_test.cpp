// The export edits TVM's lib0.c and header instead of writing them anew: a TVM 0.17 constant
// pool packed to 4 bytes keeps its attributes through a re-plan (padding members keep planned
// offsets), a user's edits survive, and the layout check refuses a struct whose members are not
// where the plan puts them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <sstream>

#include "base/archive_reader.h"
#include "base/text_file.h"
#include "export/export_error.h"
#include "frontends/tvm/export/emit/layout_check.h"
#include "frontends/tvm/export/harness/tvm_selftest.h"
#include "frontends/tvm/export/mlf_export.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;
using testing::fixture_path;

std::string read_text(const fs::path& p) {
  return read_text_file(p.string());
}

void write_text(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

// A copy of the usmp_default_pools fixture whose lib0.c is changed by `edit`.
fs::path fixture_copy(const std::string& name, const std::function<std::string(std::string)>& edit) {
  const fs::path dir = fs::temp_directory_path() / ("usmpx-lib0-edit-" + name);
  fs::remove_all(dir);
  fs::copy(fixture_path("mlf/usmp_default_pools"), dir, fs::copy_options::recursive);
  const fs::path lib0 = dir / "codegen/host/src/default_lib0.c";
  write_text(lib0, edit(read_text(lib0)));
  return dir;
}

// TVM 0.17's style: a const struct with members packed and aligned to 4 bytes (the fixture
// already casts the pools as TVM 0.15+ does).
std::string tvm017_lib0(std::string text) {
  text = replace_all(text, "static struct global_const_workspace", "static const struct global_const_workspace");
  text = replace_all(text, "__attribute__((aligned(16))); //", "__attribute__((aligned(4))); //");
  return replace_all(text, "__attribute__((packed, aligned(16))); //", "__attribute__((packed, aligned(4))); //");
}

Plan as_built(const MlfModel& m) {
  Plan plan = *m.as_built;
  finish_plan(m.problem, plan);
  return plan;
}

// The as-built plan with the three constants in the given order (16-byte offsets, as USMP aligns).
Plan constants_reordered(const MlfModel& m, const std::vector<std::string>& order) {
  Plan plan = as_built(m);
  int64_t offset = 0;
  for (const std::string& name : order) {
    const auto b = m.problem.find_buffer(name);
    EXPECT_TRUE(b.has_value()) << name;
    plan.allocations[static_cast<size_t>(*b)].offset = offset;
    offset = (offset + m.problem.buffers[static_cast<size_t>(*b)].size_bytes + 15) / 16 * 16;
  }
  compute_pool_sizes(m.problem, plan);
  finish_plan(m.problem, plan);
  return plan;
}

int aligned16_count(const std::string& text) {
  int n = 0;
  for (size_t at = text.find("aligned(16)"); at != std::string::npos; at = text.find("aligned(16)", at + 1))
    ++n;
  return n;
}

std::vector<std::string> lines_with(const std::string& text, const std::string& what) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    if (l.find(what) != std::string::npos) out.push_back(l);
  }
  return out;
}

TEST(Lib0Edit, Tvm017ConstantPoolAlignedTo4IsReproducedByteForByteAsBuilt) {
  const fs::path dir = fixture_copy("v017-as-built", tvm017_lib0);
  const MlfModel m = load_mlf_model(dir.string());
  ASSERT_TRUE(m.as_built.has_value());
  const ExportBundle bundle = export_mlf(m, m.problem, as_built(m));
  for (const ArchiveFile& f : read_folder(dir.string(), [](std::string_view) { return true; }).files) {
    ASSERT_NE(bundle.find(f.path), nullptr) << f.path;
    EXPECT_EQ(bundle.find(f.path)->data, f.data) << f.path;
  }
  EXPECT_EQ(bundle.changed, (std::vector<std::string>{"codegen/host/usmpx_plan.json", "codegen/host/usmpx_pools.ld"}));
  fs::remove_all(dir);
}

TEST(Lib0Edit, Tvm017ConstantPoolKeepsAligned4AndGetsPaddingForPlannedOffsets) {
  const fs::path dir = fixture_copy("v017-replan", tvm017_lib0);
  const MlfModel m = load_mlf_model(dir.string());
  // 24 bytes at 0, 32 at 32, 256 at 64: aligned(4) would put the second member at 24.
  const Plan plan = constants_reordered(m, {"fused_constant_1", "fused_constant", "fused_constant_2"});
  ASSERT_FALSE(plan.has_errors());
  const ExportBundle bundle = export_mlf(m, m.problem, plan);
  const std::string& lib0 = bundle.find("codegen/host/src/default_lib0.c")->data;
  EXPECT_EQ(lines_with(lib0, "_let["),
            (std::vector<std::string>{
                "  float fused_constant_1_let[6] __attribute__((packed, aligned(4))); // 24 bytes, aligned offset: 0",
                "  float fused_constant_let[8] __attribute__((packed, aligned(4))); // 32 bytes, aligned offset: 32",
                "  float fused_constant_2_let[64] __attribute__((aligned(4))); // 256 bytes, aligned offset: 64"}));
  EXPECT_EQ(
      lines_with(lib0, "usmpx_padding"),
      (std::vector<std::string>{"  uint8_t usmpx_padding_0[8]; // keeps the planned offset of fused_constant_let"}));
  EXPECT_EQ(lines_with(lib0, "  .fused_constant"),
            (std::vector<std::string>{"  .fused_constant_1_let = {", "  .fused_constant_let = {",
                                      "  .fused_constant_2_let = {"}));
  EXPECT_NE(lib0.find("static const struct global_const_workspace {"), std::string::npos);
  EXPECT_NE(lib0.find("};// of total size 320 bytes\n"), std::string::npos);
  // The data travels with its member: fused_constant_1 begins 0.25, 0.5.
  EXPECT_NE(lib0.find("  .fused_constant_1_let = {\n    0x1p-2   , 0x1p-1   ,"), std::string::npos);
  EXPECT_NE(lib0.find("((uint8_t*)&global_const_workspace),((uint8_t*)&global_workspace)"), std::string::npos);
  EXPECT_EQ(aligned16_count(lib0), 1);  // only the workspace pool's own attribute
  fs::remove_all(dir);
}

TEST(Lib0Edit, Tvm017ReplanComputesTheSameOnThisMachine) {
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  const fs::path dir = fixture_copy("v017-selftest", tvm017_lib0);
  const MlfModel m = load_mlf_model(dir.string());
  const Plan plan = constants_reordered(m, {"fused_constant_1", "fused_constant", "fused_constant_2"});
  ExportOptions options;
  options.harness = true;
  const fs::path work = fs::temp_directory_path() / "usmpx-lib0-edit-v017-run";
  fs::remove_all(work);
  const auto results =
      run_selftest(mlf_original_bundle(m, options), export_mlf(m, m.problem, plan, options), {"host"}, work.string());
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].same) << results[0].verdict << results[0].original.log << results[0].replanned.log;
  fs::remove_all(work);
  fs::remove_all(dir);
}

TEST(Lib0Edit, UserEditsOfLib0SurviveAReplan) {
  const fs::path dir = fixture_copy("user", [](std::string text) {
    text =
        replace_all(text, "__attribute__((section(\".bss.noinit.tvm\"), aligned(16)))",
                    "/* board.c maps this pool to DTCM */\n__attribute__((section(\".bss.noinit.tvm\"), aligned(32)))");
    return replace_all(text, "#include <tvmgen_default.h>\n",
                       "#include <tvmgen_default.h>\nint board_model_calls;\nvoid board_count_call(void) { "
                       "++board_model_calls; }\n");
  });
  const MlfModel m = load_mlf_model(dir.string());
  const Plan plan = testing::plan_with("hill_climb", m.problem);
  const ExportBundle bundle = export_mlf(m, m.problem, plan);
  const std::string& lib0 = bundle.find("codegen/host/src/default_lib0.c")->data;
  EXPECT_NE(lib0.find("/* board.c maps this pool to DTCM */\n__attribute__((section(\".bss.noinit.tvm\"), "
                      "aligned(32)))\nstatic uint8_t global_workspace[128];\n#include <tvmgen_default.h>\nint "
                      "board_model_calls;\nvoid board_count_call(void) { ++board_model_calls; }\n"),
            std::string::npos)
      << lib0;
  fs::remove_all(dir);
}

TEST(Lib0Edit, APoolTheUsersCodeProvidesIsLeftToItWithAWarning) {
  // The board places the workspace in external RAM: lib0.c only declares it.
  const fs::path dir = fixture_copy("user-pool", [](std::string text) {
    return replace_all(
        text, "__attribute__((section(\".bss.noinit.tvm\"), aligned(16)))\nstatic uint8_t global_workspace[208];",
        "/* global_workspace lives in external RAM (board.c) */\nextern uint8_t global_workspace[];");
  });
  const MlfModel m = load_mlf_model(dir.string());
  const ExportBundle bundle = export_mlf(m, m.problem, testing::plan_with("hill_climb", m.problem));
  EXPECT_EQ(bundle.find("codegen/host/src/default_lib0.c")->data, read_text(dir / "codegen/host/src/default_lib0.c"));
  ASSERT_EQ(bundle.notes.size(), 1u);
  EXPECT_EQ(bundle.notes[0].message,
            "pool 'global_workspace' is provided by your code: it must now hold 128 bytes, aligned to 16");
  EXPECT_EQ(lines_with(bundle.find("codegen/host/include/tvmgen_default.h")->data, "WORKSPACE_SIZE"),
            (std::vector<std::string>{"#define TVMGEN_DEFAULT_WORKSPACE_SIZE 128"}));
  fs::remove_all(dir);
}

TEST(Lib0Edit, UserEditsSurviveConstantsMovingToAnApplicationPool) {
  const fs::path dir = fixture_copy("user-flash", [](std::string text) {
    return replace_all(text, "#include <tvmgen_default.h>\n",
                       "#include <tvmgen_default.h>\nint board_model_calls; /* counted by board.c */\n");
  });
  PoolOptions flash;
  flash.constant_pools = {"flash"};
  const MlfModel m = load_mlf_model(dir.string(), {flash, ""});
  const ExportBundle bundle = export_mlf(m, m.problem, testing::plan_with("greedy_by_size", m.problem));
  const std::string& lib0 = bundle.find("codegen/host/src/default_lib0.c")->data;
  // The internal constant pool leaves with its attribute line and "total size" comment; the
  // entry and the run wrapper pass the application's flash pool; the user's line stays.
  EXPECT_EQ(lib0.find("global_const_workspace"), std::string::npos);
  EXPECT_EQ(lib0.find(".rodata.tvm"), std::string::npos);
  EXPECT_NE(lib0.find("static uint8_t global_workspace[208];\n#include <tvmgen_default.h>\nint board_model_calls; "
                      "/* counted by board.c */\nTVM_DLL int32_t tvmgen_default___tvm_main__(void* input,void* "
                      "output0,uint8_t* flash_0_var,uint8_t* global_workspace_1_var);\nint32_t "
                      "tvmgen_default_run(struct tvmgen_default_inputs* inputs,struct tvmgen_default_outputs* "
                      "outputs,struct tvmgen_default_workspace_pools* workspace_pools) {return "
                      "tvmgen_default___tvm_main__(inputs->input,outputs->output,((uint8_t*)workspace_pools->flash),(("
                      "uint8_t*)&global_workspace));\n}"),
            std::string::npos)
      << lib0;
  fs::remove_all(dir);
}

TEST(Lib0Edit, LayoutCheckRefusesAMemberAwayFromItsPlannedOffset) {
  const std::string lib0 =
      "#include <stdint.h>\n"
      "__attribute__((section(\".rodata.tvm\"), ))\n"
      "static const struct pool {\n"
      "  int8_t a_let[6] __attribute__((aligned(4))); // 6 bytes, aligned offset: 0\n"
      "  int32_t b_let[2] __attribute__((packed, aligned(4))); // 8 bytes, aligned offset: 16\n"
      "} pool = {0};\n"
      "static uint8_t ws[64];\n";
  ExportPool constants;
  constants.name = "pool";
  constants.kind = PoolKind::kConstant;
  constants.internal = true;
  constants.size_bytes = 24;
  ExportPool ws;
  ws.name = "ws";
  ws.internal = true;
  ws.size_bytes = 64;
  const std::vector<std::vector<PoolConstant>> members = {
      {{"a_let", "int8_t", 6, 1, 0, ""}, {"b_let", "int32_t", 2, 4, 16, ""}}, {}};
  for (const std::string& triple : {"x86_64-unknown-linux-gnu", "thumbv7em-none-eabi"}) {
    try {
      check_lib0_layout("src/lib0.c", lib0, "", "", {constants, ws}, members, {triple});
      ADD_FAILURE() << "no error for " << triple;
    } catch (const ExportError& e) {
      // C packs b_let right after a_let, at 8 (6 rounded up to 4), not at the planned 16.
      EXPECT_EQ(std::string(e.what()), "layout check (" + triple +
                                           ") of src/lib0.c: member 'b_let' of 'pool' is at offset 8; the plan puts "
                                           "it at 16");
    }
  }
  ws.size_bytes = 80;
  std::vector<std::vector<PoolConstant>> right = members;
  right[0][1].offset = 8;
  constants.size_bytes = 16;
  try {
    check_lib0_layout("src/lib0.c", lib0, "", "", {constants, ws}, right, {"thumbv7em-none-eabi"});
    ADD_FAILURE() << "no error for the pool size";
  } catch (const ExportError& e) {
    EXPECT_EQ(std::string(e.what()),
              "layout check (thumbv7em-none-eabi) of src/lib0.c: pool 'ws' has 64 bytes; the plan needs 80");
  }
  ws.size_bytes = 64;
  EXPECT_NO_THROW(check_lib0_layout("src/lib0.c", lib0, "", "", {constants, ws}, right, {"thumbv7em-none-eabi"}));
}

TEST(Lib0Edit, LayoutTriplesFollowTheTvmTarget) {
  EXPECT_EQ(layout_triples({"c -keys=arm_cpu,cpu -mcpu=cortex-m4"}),
            (std::vector<std::string>{"x86_64-unknown-linux-gnu", "thumbv7em-none-eabi"}));
  EXPECT_EQ(layout_triples({"c -keys=cpu -mtriple=riscv32-unknown-elf"}),
            (std::vector<std::string>{"x86_64-unknown-linux-gnu", "riscv32-unknown-elf"}));
  // Unknown target: the harness's machine and 32-bit Arm, the usual firmware target.
  EXPECT_EQ(layout_triples({"c -keys=cpu "}),
            (std::vector<std::string>{"x86_64-unknown-linux-gnu", "thumbv7em-none-eabi"}));
  EXPECT_EQ(layout_triples({}), (std::vector<std::string>{"x86_64-unknown-linux-gnu", "thumbv7em-none-eabi"}));
}

}  // namespace
}  // namespace usmpx
