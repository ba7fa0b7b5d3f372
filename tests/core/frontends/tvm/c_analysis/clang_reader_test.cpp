#include "frontends/tvm/c_analysis/clang_reader.h"

#include <gtest/gtest.h>

#include "frontends/tvm/c_analysis/standin_headers.h"
#include "frontends/tvm/c_analysis/tvm_code.h"
#include "test_support.h"

namespace usmpx {
namespace {

std::string_view text_of(const CProgram& p, const CRange& r) {
  return p.files[static_cast<size_t>(r.file)].text.substr(r.begin, r.end - r.begin);
}

CProgram parse_one(const std::string& text, const std::string& path = "codegen/host/src/default_lib1.c") {
  CParseInput input;
  input.display_root = "m.tar";
  input.sources.push_back({path, text});
  return parse_c_program(input);
}

TEST(ClangReader, FunctionsStatementsAndExactRanges) {
  const std::string src =
      "#include \"tvm/runtime/c_runtime_api.h\"\n"
      "#include \"tvm/runtime/c_backend_api.h\"\n"
      "#include <math.h>\n"
      "TVM_DLL int32_t op(float* p0, float* T_add, uint8_t* global_workspace_3_var) {\n"
      "  void* PaddedInput_let = (&(global_workspace_3_var[9696]));\n"
      "  for (int32_t ax1 = 0; ax1 < 8; ++ax1) {\n"
      "    T_add[ax1] = (p0[(ax1 - 1)] + ((float*)PaddedInput_let)[ax1]) * expf(1.0f);\n"
      "  }\n"
      "  return 0;\n"
      "}\n";
  const CProgram p = parse_one(src);
  EXPECT_TRUE(p.diagnostics.empty()) << p.diagnostics.front().message;
  const CFunction* f = p.find_function("op");
  ASSERT_TRUE(f);
  EXPECT_TRUE(f->is_definition);
  EXPECT_FALSE(f->is_static);
  ASSERT_EQ(f->params.size(), 3u);
  EXPECT_EQ(f->variables[0].name, "p0");
  EXPECT_EQ(f->variables[0].element_bytes, 4);
  EXPECT_EQ(f->variables[2].element_bytes, 1);
  ASSERT_EQ(f->body.body.size(), 3u);

  const CStmt& let = f->body.body[0];
  EXPECT_EQ(let.kind, CStmtKind::kDecl);
  EXPECT_EQ(text_of(p, let.range), "void* PaddedInput_let = (&(global_workspace_3_var[9696]));");
  EXPECT_EQ(let.range.line, 5);
  EXPECT_EQ(let.range.column, 3);
  const CVariable& var = f->variables[static_cast<size_t>(let.decls[0])];
  EXPECT_EQ(var.name, "PaddedInput_let");
  EXPECT_EQ(text_of(p, var.init_range), "(&(global_workspace_3_var[9696]))");
  ASSERT_TRUE(var.init);
  const CExpr& addr = strip_casts(*var.init);
  EXPECT_EQ(addr.kind, CExprKind::kUnary);
  EXPECT_EQ(addr.text, "&");
  EXPECT_EQ(addr.args[0].kind, CExprKind::kSubscript);
  EXPECT_EQ(addr.args[0].args[1].value, 9696);
  EXPECT_EQ(text_of(p, addr.args[0].args[1].range), "9696");

  const CStmt& loop = f->body.body[1];
  ASSERT_EQ(loop.kind, CStmtKind::kFor);
  EXPECT_EQ(loop.body[0].kind, CStmtKind::kDecl);
  EXPECT_EQ(loop.exprs[0].text, "<");
  EXPECT_EQ(loop.exprs[1].text, "++");
  EXPECT_FALSE(loop.exprs[1].postfix);
  const CExpr& store = loop.body[1].body[0].exprs[0];
  EXPECT_EQ(store.kind, CExprKind::kBinary);
  EXPECT_EQ(store.text, "=");
  EXPECT_EQ(store.args[0].kind, CExprKind::kSubscript);
  EXPECT_EQ(store.args[0].type_bytes, 4);
  EXPECT_EQ(store.args[1].text, "*");
  EXPECT_EQ(store.args[1].args[0].text, "+");
  EXPECT_EQ(store.args[1].args[0].args[0].args[1].text, "-");
  EXPECT_EQ(store.args[1].args[1].kind, CExprKind::kCall);
  EXPECT_EQ(store.args[1].args[1].text, "expf");
  EXPECT_EQ(loop.body[1].body[0].range.line, 7);
  EXPECT_EQ(f->body.body[2].kind, CStmtKind::kReturn);
}

TEST(ClangReader, ForLoopsWithMissingParts) {
  const CProgram p = parse_one(
      "void f(int* a) {\n  int i = 0;\n  for (; i < 4;) { a[i] = 0; i++; }\n  for (int j = 0;; j += 2) { break; "
      "}\n}\n");
  const CFunction* f = p.find_function("f");
  ASSERT_TRUE(f);
  const CStmt& first = f->body.body[1];
  EXPECT_EQ(first.body[0].kind, CStmtKind::kNull);
  EXPECT_EQ(first.exprs[0].text, "<");
  EXPECT_EQ(first.exprs[1].kind, CExprKind::kOther);
  EXPECT_EQ(first.body[1].kind, CStmtKind::kCompound);
  EXPECT_EQ(first.body[1].body[1].exprs[0].text, "++");
  EXPECT_TRUE(first.body[1].body[1].exprs[0].postfix);
  const CStmt& second = f->body.body[2];
  EXPECT_EQ(second.body[0].kind, CStmtKind::kDecl);
  EXPECT_EQ(second.exprs[0].kind, CExprKind::kOther);
  EXPECT_EQ(second.exprs[1].text, "+=");
}

TEST(ClangReader, GlobalsStructsAndAttributes) {
  const std::string src =
      "#include <stdint.h>\n"
      "static const int8_t __attribute__((section(\".rodata.tvm\"), aligned(16))) fused_constant[2560] = {1, 2};\n"
      "__attribute__((section(\".rodata.tvm\"), ))\n"
      "static const struct global_const_workspace {\n"
      "  float a_let[1] __attribute__((aligned(16)));\n"
      "  float b_let[3] __attribute__((packed, aligned(16)));\n"
      "} global_const_workspace = {.a_let = {1.0f}, .b_let = {2.0f, 3.0f, 4.0f}};\n"
      "__attribute__((section(\".bss.noinit.tvm\"), aligned(16)))\n"
      "static uint8_t global_workspace[36];\n";
  const CProgram p = parse_one(src, "codegen/host/src/default_lib0.c");
  EXPECT_TRUE(p.diagnostics.empty()) << p.diagnostics.front().message;
  const CGlobal* c = p.find_global("fused_constant");
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->is_const);
  EXPECT_TRUE(c->is_static);
  EXPECT_EQ(c->array_elements, 2560);
  EXPECT_EQ(c->type_bytes, 2560);
  EXPECT_EQ(c->section, ".rodata.tvm");
  EXPECT_EQ(c->alignment, 16);
  const CGlobal* pool = p.find_global("global_workspace");
  ASSERT_TRUE(pool);
  EXPECT_EQ(pool->array_elements, 36);
  EXPECT_EQ(pool->element_bytes, 1);
  EXPECT_EQ(pool->section, ".bss.noinit.tvm");
  const CGlobal* cw = p.find_global("global_const_workspace");
  ASSERT_TRUE(cw);
  ASSERT_TRUE(cw->is_struct);
  ASSERT_EQ(cw->fields.size(), 2u);
  EXPECT_EQ(cw->fields[1].name, "b_let");
  EXPECT_EQ(cw->fields[1].offset_bytes, 16);
  EXPECT_EQ(cw->fields[1].size_bytes, 12);
  EXPECT_EQ(cw->fields[1].alignment, 16);
  EXPECT_EQ(cw->fields[1].array_elements, 3);
}

TEST(ClangReader, HeaderMacrosAndStructs) {
  CParseInput input;
  input.display_root = "m.tar";
  const std::string header =
      "#ifndef TVMGEN_DEFAULT_H_\n#define TVMGEN_DEFAULT_H_\n#include <stdint.h>\n"
      "#define TVMGEN_DEFAULT_INPUT_1_SIZE 36864\n"
      "struct tvmgen_default_inputs {\n  void* input_1;\n};\n"
      "#define TVMGEN_DEFAULT_WORKSPACE_SIZE 225840\n#endif\n";
  input.macro_headers.push_back({"codegen/host/include/tvmgen_default.h", header});
  const CProgram p = parse_c_program(input);
  ASSERT_TRUE(p.find_macro("TVMGEN_DEFAULT_INPUT_1_SIZE"));
  EXPECT_EQ(p.find_macro("TVMGEN_DEFAULT_INPUT_1_SIZE")->value, "36864");
  EXPECT_EQ(p.find_macro("TVMGEN_DEFAULT_WORKSPACE_SIZE")->value, "225840");
  EXPECT_FALSE(p.find_macro("INT8_MAX")) << "only the header's own macros";
  ASSERT_TRUE(p.find_record("tvmgen_default_inputs"));
  EXPECT_EQ(p.find_record("tvmgen_default_inputs")->fields[0].name, "input_1");
}

TEST(ClangReader, ParseErrorsBecomeWarningsWithPositions) {
  const CProgram p = parse_one(
      "#include \"tvm/runtime/c_runtime_api.h\"\n"
      "#include <tvm/runtime/no_such_header.h>\n"
      "int32_t f(int8_t* a) {\n"
      "  a[0] = ;\n"
      "  return 0;\n"
      "}\n"
      "int32_t g(void) { return 1; }\n");
  // A header the input lacks is supplied empty (one note); the file is parsed again without it.
  ASSERT_EQ(p.diagnostics.size(), 2u);
  EXPECT_EQ(p.diagnostics[0].severity, Severity::kNote);
  EXPECT_EQ(testing::located(p.diagnostics[0]),
            "m.tar/codegen/host/src/default_lib1.c: 'tvm/runtime/no_such_header.h' is not in the input; parsed without "
            "it (calls into it count as external operators)");
  EXPECT_EQ(p.diagnostics[1].severity, Severity::kWarning);
  EXPECT_EQ(testing::located(p.diagnostics[1]),
            "m.tar/codegen/host/src/default_lib1.c:4:10: C parse error: expected expression");
  EXPECT_TRUE(p.find_function("g")) << "parsing goes on after errors";
}

TEST(ClangReader, ArchiveHeadersAreIncludedFromMemory) {
  CParseInput input;
  input.display_root = "m.tar";
  const std::string header = "#define N_ELEMS 12\ntypedef float real;\n";
  const std::string src = "#include <tvmgen_default.h>\nreal data[N_ELEMS];\n";
  input.sources.push_back({"codegen/host/src/default_lib0.c", src});
  input.include_files.push_back({"codegen/host/include/tvmgen_default.h", header});
  input.include_dirs = {"codegen/host/include"};
  const CProgram p = parse_c_program(input);
  EXPECT_TRUE(p.diagnostics.empty()) << p.diagnostics.front().message;
  ASSERT_TRUE(p.find_global("data"));
  EXPECT_EQ(p.find_global("data")->type_bytes, 48);
}

// TVM 0.8's C runtime lib0.c as firmware keeps it: runtime headers by a relative path the input
// lacks reach the stand-ins; the entry's declaration without types is a note, not an error.
TEST(ClangReader, RelativeRuntimeIncludesAndAnUntypedDeclaration) {
  const CProgram p = parse_one(
      "#include \"../../src/standalone_crt/include/tvm/runtime/crt/internal/aot_executor/aot_executor.h\"\n"
      "#include \"../../src/standalone_crt/include/tvm/runtime/c_runtime_api.h\"\n"
      "TVM_DLL int32_t tvmgen_default_run_model(arg0,arg1);\n"
      "static int32_t __tvm_main__(void* args, void* type_code, int num_args, void* out_value, void* "
      "out_type_code, void* resource_handle) {\n"
      "return tvmgen_default_run_model(((DLTensor*)(((TVMValue*)args)[0].v_handle))[0].data, 0);\n}\n"
      "const tvm_model_t tvmgen_default_network = {.run_func = &__tvm_main__, .num_input_tensors = 1};\n",
      "codegen/host/src/default_lib0.c");
  ASSERT_EQ(p.diagnostics.size(), 1u) << p.diagnostics.back().message;
  EXPECT_EQ(p.diagnostics[0].severity, Severity::kNote);
  EXPECT_EQ(testing::located(p.diagnostics[0]),
            "m.tar/codegen/host/src/default_lib0.c:3:42: a declaration with parameter names but no types (TVM 0.8 "
            "writes its entry's so; GCC accepts it with a warning): read as declaring no prototype");
  EXPECT_TRUE(p.error_positions.empty());
  const CFunction* declaration = p.find_function("tvmgen_default_run_model");
  ASSERT_TRUE(declaration);
  EXPECT_TRUE(declaration->params.empty());
  ASSERT_TRUE(p.find_global("tvmgen_default_network"));
  EXPECT_EQ(p.find_global("tvmgen_default_network")->type, "const tvm_model_t");
  EXPECT_EQ(p.find_global("tvmgen_default_network")->type_bytes, 24);
}

TEST(StandinHeaders, RelativeIncludesNameTheStandInAfterAnIncludeFolder) {
  EXPECT_EQ(standin_for_relative_include("../../src/standalone_crt/include/tvm/runtime/c_runtime_api.h"),
            "tvm/runtime/c_runtime_api.h");
  EXPECT_EQ(standin_for_relative_include("../include/tvm/runtime/crt/internal/aot_executor/aot_executor.h"),
            "tvm/runtime/crt/internal/aot_executor/aot_executor.h");
  EXPECT_EQ(standin_for_relative_include("../tvm/runtime/c_backend_api.h"), "tvm/runtime/c_backend_api.h");
  EXPECT_EQ(standin_for_relative_include("tvm/runtime/c_runtime_api.h"), "");              // not relative
  EXPECT_EQ(standin_for_relative_include("../../src/mytvm/runtime/c_runtime_api.h"), "");  // no include/ folder
  EXPECT_EQ(standin_for_relative_include("../../include/tvm/runtime/my_api.h"), "");       // no stand-in
  EXPECT_EQ(quoted_includes("#include <a.h>\n  #  include \"b/c.h\" // x\n#define X\n#include\"d.h\"\n"),
            (std::vector<std::string>{"b/c.h", "d.h"}));
}

}  // namespace
}  // namespace usmpx
