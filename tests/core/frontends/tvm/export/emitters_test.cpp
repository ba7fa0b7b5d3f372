// The interface header and lib0.c in TVM's text conventions, for what the fixtures do not cover:
// workspace I/O (map functions), mixed internal and external pools, padding in constant pools.
#include <gtest/gtest.h>

#include "base/archive_reader.h"
#include "base/text_file.h"
#include "frontends/tvm/export/emit/interface_header.h"
#include "frontends/tvm/export/emit/lib0_source.h"
#include "frontends/tvm/export/emit/linker_fragment.h"
#include "frontends/tvm/export/emit/metadata_update.h"
#include "test_support.h"

namespace usmpx {
namespace {

ExportPool pool(const std::string& name, PoolKind kind, bool internal, int64_t size, int index = 0) {
  ExportPool p;
  p.index = index;
  p.name = name;
  p.kind = kind;
  p.internal = internal;
  p.size_bytes = size;
  return p;
}

TEST(InterfaceHeader, WorkspaceIoDeclaresMapFunctionsAndARunWithoutIo) {
  InterfaceHeaderSpec s;
  s.module = "m";
  s.inputs = {"x"};
  s.outputs = {"y"};
  s.input_sizes = {{"x", 4}};
  s.output_sizes = {{"y", 2}};
  s.external_pools = {pool("sram", PoolKind::kWorkspace, false, 96)};
  s.external_constant_data = {""};
  s.use_workspace_io = true;
  s.workspace_size_bytes = 96;
  const std::string expected =
      "#ifndef TVMGEN_M_H_\n#define TVMGEN_M_H_\n#include <stdint.h>\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
      "/*!\n * \\brief Input tensor x size (in bytes) for TVM module \"m\" \n */\n#define TVMGEN_M_X_SIZE 4\n"
      "/*!\n * \\brief Output tensor y size (in bytes) for TVM module \"m\" \n */\n#define TVMGEN_M_Y_SIZE 2\n"
      "/*!\n * \\brief Input tensor pointers for TVM module \"m\" \n */\nstruct tvmgen_m_inputs {\n  void* x;\n};\n\n"
      "/*!\n * \\brief Output tensor pointers for TVM module \"m\" \n */\nstruct tvmgen_m_outputs {\n  void* y;\n};\n\n"
      "/*!\n * \\brief Workspace pool pointers for TVM module \"m\" \n */\nstruct tvmgen_m_workspace_pools {\n  void* "
      "sram;\n};\n\n"
      "/*!\n * \\brief Maps I/O inside the workspace pools for TVM module \"m\"\n"
      " * \\param workspace_pools Workspace memory pool struct for the module \n"
      " * \\return I/O tensor struct for the module \n */\n"
      "struct tvmgen_m_inputs tvmgen_m_map_inputs(\n  struct tvmgen_m_workspace_pools* workspace_pools\n);\n\n"
      "/*!\n * \\brief Maps I/O inside the workspace pools for TVM module \"m\"\n"
      " * \\param workspace_pools Workspace memory pool struct for the module \n"
      " * \\return I/O tensor struct for the module \n */\n"
      "struct tvmgen_m_outputs tvmgen_m_map_outputs(\n  struct tvmgen_m_workspace_pools* workspace_pools\n);\n\n"
      "/*!\n * \\brief entrypoint function for TVM module \"m\"\n"
      " * \\param workspace_pools Workspace memory pool pointers for the module \n */\n"
      "int32_t tvmgen_m_run(\n  struct tvmgen_m_workspace_pools* workspace_pools\n);\n"
      "/*!\n * \\brief Workspace size for TVM module \"m\" \n */\n#define TVMGEN_M_WORKSPACE_SIZE 96\n"
      "/*!\n * \\brief sram size for TVM module \"m\" \n */\n#define TVMGEN_M_SRAM_WORKSPACE_POOL_SIZE 96\n"
      "\n#ifdef __cplusplus\n}\n#endif\n\n#endif // TVMGEN_M_H_\n";
  EXPECT_EQ(emit_interface_header(s), expected);
}

TEST(Lib0Source, MapFunctionsAndMixedPools) {
  Lib0Spec s;
  s.module = "m";
  s.entry = "tvmgen_m___tvm_main__";
  s.inputs = {"x"};
  s.outputs = {"y"};
  s.pools = {pool("dtcm", PoolKind::kWorkspace, true, 32), pool("sram", PoolKind::kWorkspace, false, 64)};
  s.pool_constants = {{}, {}};
  s.use_workspace_io = true;
  s.input_map = {{"x", "sram", 0}};
  s.output_map = {{"y", "sram", 16}};
  const std::string expected =
      "#include \"tvm/runtime/c_runtime_api.h\"\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n"
      "__attribute__((section(\".bss.noinit.tvm\"), aligned(16)))\nstatic uint8_t dtcm[32];\n"
      "#include <tvmgen_m.h>\n"
      "struct tvmgen_m_inputs tvmgen_m_map_inputs(\n  struct tvmgen_m_workspace_pools* workspace_pools\n\n){\n"
      "struct tvmgen_m_inputs ret = {\n\t.x = &((uint8_t*)workspace_pools->sram)[0],\n};\nreturn ret;\n}\n\n"
      "struct tvmgen_m_outputs tvmgen_m_map_outputs(\n  struct tvmgen_m_workspace_pools* workspace_pools\n\n){\n"
      "struct tvmgen_m_outputs ret = {\n\t.y = &((uint8_t*)workspace_pools->sram)[16],\n};\nreturn ret;\n}\n\n"
      "TVM_DLL int32_t tvmgen_m___tvm_main__(uint8_t* dtcm_0_var,uint8_t* sram_1_var);\n"
      "int32_t tvmgen_m_run(struct tvmgen_m_workspace_pools* workspace_pools) {return "
      "tvmgen_m___tvm_main__(((uint8_t*)&dtcm),((uint8_t*)workspace_pools->sram));\n}\n"
      "#ifdef __cplusplus\n}\n#endif\n;";
  EXPECT_EQ(emit_lib0_source(s), expected);
}

TEST(Lib0Source, ConstantsPlannedApartGetPaddingSoTheStructMatchesThePlan) {
  Lib0Spec s;
  s.module = "m";
  s.entry = "tvmgen_m___tvm_main__";
  s.input_params = {"void* x"};
  s.inputs = {"x"};
  s.outputs = {"y"};
  s.pools = {pool("global_const_workspace", PoolKind::kConstant, true, 100)};
  s.pool_constants = {{{"b_let", "int8_t", 4, 1, 96, "    +0x01, +0x02, +0x03, +0x04\n"},
                       {"a_let", "int8_t", 2, 1, 0, "    -0x01, +0x7f\n"}}};
  const std::string text = emit_lib0_source(s);
  EXPECT_NE(text.find("static const struct global_const_workspace {\n"
                      "  int8_t a_let[2] __attribute__((aligned(16))); // 2 bytes, aligned offset: 0\n"
                      "  uint8_t usmpx_padding_0[94];\n"
                      "  int8_t b_let[4] __attribute__((packed, aligned(16))); // 4 bytes, aligned offset: 96\n"
                      "} global_const_workspace = {\n  .a_let = {\n    -0x01, +0x7f\n  },\n"
                      "  .b_let = {\n    +0x01, +0x02, +0x03, +0x04\n  },\n};// of total size 100 bytes\n"),
            std::string::npos)
      << text;
  s.style.const_struct = false;
  s.style.pool_casts = false;
  const std::string old = emit_lib0_source(s);
  EXPECT_NE(old.find("static struct global_const_workspace {"), std::string::npos);
  EXPECT_NE(old.find("return tvmgen_m___tvm_main__(inputs->x,outputs->y,&global_const_workspace);"), std::string::npos);
}

TEST(LinkerFragment, PlacesEverySectionAndChecksUserSections) {
  std::vector<ExportPool> pools = {pool("dtcm", PoolKind::kWorkspace, false, 100, 0),
                                   pool("global_workspace", PoolKind::kWorkspace, true, 64, 1)};
  pools[0].section = ".dtcm_bss";
  const std::string ld = emit_linker_fragment("m", pools, {128, -1});
  EXPECT_NE(ld.find(".dtcm_bss (NOLOAD) : ALIGN(16)\n{\n  KEEP(*(.dtcm_bss))\n  /* dtcm: 100 bytes, defined by the "
                    "application */\n} > USMPX_DTCM_BSS\n"),
            std::string::npos)
      << ld;
  EXPECT_NE(ld.find(".bss.noinit.tvm (NOLOAD) : ALIGN(16)\n{\n  KEEP(*(.bss.noinit.tvm))\n  /* global_workspace: 64 "
                    "bytes */\n} > USMPX_BSS_NOINIT_TVM\n"),
            std::string::npos);
  EXPECT_NE(ld.find("ASSERT(SIZEOF(.dtcm_bss) <= 128, \".dtcm_bss exceeds its pools' size hints\")"),
            std::string::npos);
  EXPECT_EQ(linker_region_name(".rodata.tvm"), "USMPX_RODATA_TVM");
}

TEST(MetadataUpdate, RewritingTheRealFilesWithTheirOwnFiguresChangesNothing) {
  struct Real {
    const char* tar;
    const char* module;
    int64_t workspace;
    int64_t constants;
  };
  for (const Real& r :
       {Real{"mlf/letscope_v7.tar", "default", 3088, 0}, Real{"mlf/sine_aot_v5.tar", "default", 1184, 1284}}) {
    const std::string path = testing::shared_path(r.tar);
    if (path.empty()) GTEST_SKIP() << "shared data not found: " << r.tar;
    const ArchiveContents c = read_archive_file(path, [](std::string_view p) { return p == "metadata.json"; });
    const std::string& meta = c.find("metadata.json")->data;
    MetadataMemory m;
    m.workspace_size_bytes = r.workspace;
    m.constants_size_bytes = r.constants;
    EXPECT_EQ(update_metadata_json(meta, r.module, m), meta) << r.tar;  // TVM's json.dump(indent=2, sort_keys=True)
  }
}

TEST(MetadataUpdate, OnlyTheFiguresChange) {
  const std::string meta = read_text_file(testing::fixture_path("mlf/usmp_default_pools/metadata.json"));
  MetadataMemory m;
  m.workspace_size_bytes = 208;
  m.constants_size_bytes = 312;
  EXPECT_EQ(update_metadata_json(meta, "default", m), meta);
  m.workspace_size_bytes = 128;
  const std::string changed = update_metadata_json(meta, "default", m);
  EXPECT_NE(changed.find("\"workspace_size_bytes\": 128"), std::string::npos);
  EXPECT_EQ(changed.size(), meta.size());
}

}  // namespace
}  // namespace usmpx
