// The structure of the C export: signatures, pool parameters, lets, constants, unplanned
// allocations, notes and placement errors.
#include "frontends/tvm/export/codegen/tir_c_codegen.h"

#include <gtest/gtest.h>

#include "codegen_test_helpers.h"

namespace usmpx {
namespace {

using testing::analyze_text;
using testing::emit;
using testing::emit_greedy;
using testing::expect_compiles;
using testing::export_error;

// The plan that puts buffer `name` at `offset` of `pool`, all others as in `plan`.
Plan moved(const TirProblem& tir, Plan plan, const std::string& name, const std::string& pool, int64_t offset) {
  plan.allocations.at(static_cast<size_t>(*tir.problem.find_buffer(name))) = {*tir.problem.find_pool(pool), offset};
  compute_pool_sizes(tir.problem, plan);
  return plan;
}

TEST(TirCodegen, MergeAllocationsWholeSource) {
  const TirProblem tir = testing::analyze_tir_file(testing::fixture_path("tir/merge_allocations.py"));
  const TirCodegenResult r = emit_greedy(tir);
  // TVM's TestMergeAllocations: C first at 0 ("C" > "B"), B at 256.
  EXPECT_EQ(r.source,
            "// tvm target: c -keys=cpu \n"
            "#define TVM_EXPORTS\n"
            "#include \"tvm/runtime/c_runtime_api.h\"\n"
            "#include \"tvm/runtime/c_backend_api.h\"\n"
            "#include <math.h>\n"
            "#include <stdbool.h>\n"
            "#ifdef __cplusplus\nextern \"C\"\n#endif\n"
            "TVM_DLL int32_t tvmgen_default___tvm_main__(uint8_t* global_workspace_0_var);\n"
            "#ifdef __cplusplus\nextern \"C\"\n#endif\n"
            "TVM_DLL int32_t tvmgen_default___tvm_main__(uint8_t* global_workspace_0_var) {\n"
            "  void* B_let = (&(global_workspace_0_var[256]));\n"
            "  void* C_let = (&(global_workspace_0_var[0]));\n"
            "  for (int32_t i = 0; i < 256; ++i) {\n"
            "    ((int8_t*)B_let)[i] = (int8_t)1;\n"
            "    ((int8_t*)C_let)[i] = ((int8_t*)B_let)[i];\n"
            "  }\n"
            "  return 0;\n"
            "}\n\n");
  EXPECT_EQ(r.main_symbol, "tvmgen_default___tvm_main__");
  EXPECT_EQ(r.main_params, std::vector<std::string>{"uint8_t* global_workspace_0_var"});
  EXPECT_TRUE(r.pool_constants.empty());
  EXPECT_TRUE(r.notes.empty());
}

TEST(TirCodegen, TargetLineAndModuleNameAreTheCallers) {
  const TirProblem tir = testing::analyze_tir_file(testing::fixture_path("tir/merge_allocations.py"));
  const TirCodegenResult r =
      emit_tir_host_module(tir_codegen_input(tir, testing::plan_with("greedy_by_size", tir.problem), "kws", "c"));
  EXPECT_TRUE(r.source.starts_with("// tvm target: c\n#define TVM_EXPORTS\n"));
  EXPECT_EQ(r.main_symbol, "tvmgen_kws___tvm_main__");
}

// main calls b then a; b calls c; d is never called.
const char* kCallGraph = R"(@I.ir_module
class Module:
    @T.prim_func
    def a(x: T.handle):
        X = T.match_buffer(x, (4,), "int8")
        t = T.decl_buffer((4,), "int8")
        for i in range(4):
            t[i] = X[i]
            X[i] = t[i]

    @T.prim_func
    def b(x: T.handle):
        X = T.match_buffer(x, (4,), "int8")
        T.evaluate(T.call_extern("c", X.data, dtype="int32"))

    @T.prim_func
    def c(x: T.handle):
        X = T.match_buffer(x, (4,), "int8")
        for i in range(4):
            X[i] = X[i] + T.int8(1)

    @T.prim_func
    def d(x: T.handle):
        X = T.match_buffer(x, (4,), "int8")
        X[0] = T.int8(0)

    @T.prim_func
    def __tvm_main__():
        s = T.allocate([4], "int8", "global")
        T.evaluate(T.call_extern("b", s, dtype="int32"))
        T.tvm_check_return(0, -1, T.call_extern("int32", "a", s))
)";

TEST(TirCodegen, PoolParametersFollowTheFirstCallDepthFirst) {
  PoolOptions pools;
  pools.workspace_pools = {"sram", "dtcm"};
  pools.workspace_size_hints = {{"sram", 4}};
  const TirProblem tir = analyze_text(kCallGraph, pools);
  const TirCodegenResult r = emit_greedy(tir);
  // sram, preferred but 4 bytes, takes t (placed first: "t" > "s"); s goes to dtcm. The pool
  // parameters still follow the names: dtcm, then sram.
  EXPECT_LINE(r.source, "TVM_DLL int32_t tvmgen_default___tvm_main__(uint8_t* dtcm_0_var, uint8_t* sram_1_var);");
  EXPECT_LINE(r.source, "TVM_DLL int32_t tvmgen_default_b(int8_t* X, uint8_t* dtcm_2_var, uint8_t* sram_3_var);");
  EXPECT_LINE(r.source, "TVM_DLL int32_t tvmgen_default_c(int8_t* X, uint8_t* dtcm_4_var, uint8_t* sram_5_var);");
  EXPECT_LINE(r.source, "TVM_DLL int32_t tvmgen_default_a(int8_t* X, uint8_t* dtcm_6_var, uint8_t* sram_7_var);");
  EXPECT_LINE(r.source, "TVM_DLL int32_t tvmgen_default_d(int8_t* X);");
  EXPECT_LINE(r.source, "  tvmgen_default_b(s_let, dtcm_0_var, sram_1_var);");
  EXPECT_LINE(r.source, "  if (tvmgen_default_a(s_let, dtcm_0_var, sram_1_var) != 0 ) return -1;");
  EXPECT_LINE(r.source, "  tvmgen_default_c(X, dtcm_2_var, sram_3_var);");
  EXPECT_LINE(r.source, "  void* s_let = (&(dtcm_0_var[0]));");
  EXPECT_LINE(r.source, "  void* t_let = (&(sram_7_var[0]));");
  // Declarations, then definitions, each sorted by name with main last.
  const size_t a = r.source.find("TVM_DLL int32_t tvmgen_default_a(");
  const size_t d = r.source.find("TVM_DLL int32_t tvmgen_default_d(");
  const size_t main = r.source.find("TVM_DLL int32_t tvmgen_default___tvm_main__(");
  const size_t a_definition = r.source.find("TVM_DLL int32_t tvmgen_default_a(", main);
  EXPECT_LT(a, d);
  EXPECT_LT(d, main);
  EXPECT_NE(a_definition, std::string::npos);
  EXPECT_TRUE(r.source.ends_with("  return 0;\n}\n\n"));
  EXPECT_EQ(r.main_params, (std::vector<std::string>{"uint8_t* dtcm_0_var", "uint8_t* sram_1_var"}));
  expect_compiles(r.source);
}

TEST(TirCodegen, PoolsGoBeforeATrailingResourceHandle) {
  const TirProblem tir = analyze_text(R"(@I.ir_module
class Module:
    @T.prim_func
    def op(a: T.handle, h: T.handle):
        A = T.match_buffer(a, (4,), "int8")
        t = T.decl_buffer((4,), "int8")
        t[0] = A[0]
        A[1] = t[0]

    @T.prim_func
    def __tvm_main__(h: T.handle):
        x = T.allocate([4], "int8", "global")
        T.evaluate(T.call_extern("op", x, h, dtype="int32"))
)");
  const TirCodegenResult r = emit_greedy(tir);
  EXPECT_LINE(r.source, "TVM_DLL int32_t tvmgen_default_op(int8_t* A, uint8_t* global_workspace_1_var, void* h);");
  EXPECT_LINE(r.source, "  tvmgen_default_op(x_let, global_workspace_0_var, h);");
  EXPECT_EQ(r.main_params, (std::vector<std::string>{"uint8_t* global_workspace_0_var", "void* h"}));
  expect_compiles(r.source);
}

TEST(TirCodegen, PostUsmpDumpIsRepointedAndItsOldPoolsDropped) {
  const TirProblem tir = testing::analyze_tir_file(testing::fixture_path("tir/post_usmp.legacy.txt"));
  ASSERT_TRUE(tir.as_built);
  const TirCodegenResult as_built = emit(tir, *tir.as_built);
  EXPECT_LINE(as_built.source, "  void* acc_let = (&(dtcm_2_var[64]));");
  EXPECT_LINE(as_built.source, "  void* sid_3_let = (&(sram_1_var[64]));");
  EXPECT_LINE(as_built.source, "  tvmgen_default_fused_add(sid_1_let, sid_2_let, dtcm_0_var, sram_1_var);");

  // Everything into sram: dtcm has no placement, so no parameter, and the dump's dtcm
  // arguments disappear from the calls.
  Plan plan = *tir.as_built;
  const std::vector<std::pair<std::string, int64_t>> offsets = {
      {"acc", 0}, {"sid_1", 32}, {"sid_2", 96}, {"sid_3", 160}};
  for (const auto& [name, offset] : offsets)
    plan = moved(tir, plan, name, "sram", offset);
  const TirCodegenResult r = emit(tir, plan);
  EXPECT_LINE(r.source,
              "TVM_DLL int32_t tvmgen_default_fused_add(int8_t* placeholder, int8_t* T_add, uint8_t* sram_1_var);");
  EXPECT_LINE(r.source, "  void* acc_let = (&(sram_1_var[0]));");
  EXPECT_LINE(r.source, "  void* sid_2_let = (&(sram_0_var[96]));");
  EXPECT_LINE(r.source, "  tvmgen_default_fused_add(sid_3_let, output_buffer_var, sram_0_var);");
  EXPECT_EQ(r.main_params,
            (std::vector<std::string>{"int8_t* input_buffer_var", "int8_t* output_buffer_var", "uint8_t* sram_0_var"}));
  EXPECT_EQ(r.source.find("dtcm"), std::string::npos);
  expect_compiles(r.source);
}

TEST(TirCodegen, PostUsmpLetsOutsideTheProblemAreDroppedOrRefused) {
  // b_let has no buffer viewing it, so the problem leaves it out: unused, it is dropped.
  const std::string head = R"(@T.prim_func
def __tvm_main__(sram_0_var: T.handle("uint8")):
    sram_0_buffer_var = T.match_buffer(sram_0_var, (64,), "uint8")
    a_let: T.handle("int8") = T.address_of(sram_0_buffer_var[16])
    A = T.Buffer((16,), "int8", data=a_let)
    b_let: T.handle("int8") = T.address_of(sram_0_buffer_var[32])
    A[0] = T.int8(1)
)";
  const TirProblem unused = analyze_text(head);
  const TirCodegenResult r = emit(unused, testing::distinct_plan(unused.problem));
  EXPECT_LINE(r.source, "  void* a_let = (&(sram_0_var[0]));");
  EXPECT_EQ(r.source.find("b_let"), std::string::npos);
  // Used (as a call argument), it cannot be moved with the others.
  const TirProblem used = analyze_text(head + "    T.evaluate(T.call_extern(\"f\", b_let, dtype=\"int32\"))\n");
  EXPECT_EQ(export_error(used), "m.py:6:5: 'b_let' points into a pool but has no placement, so it cannot be moved");
}

TEST(TirCodegen, ConstantsInAPoolAreReturnedForLib0) {
  const TirProblem tir = testing::analyze_tir_file(testing::fixture_path("tir/constants.py"));
  const Plan plan = testing::plan_with("greedy_by_size", tir.problem);
  const TirCodegenResult r = emit(tir, plan);
  ASSERT_EQ(r.pool_constants.size(), 2u);
  // Declared in the order the functions are emitted: op, then main.
  const TirConstant& w = r.pool_constants[0];
  EXPECT_EQ(w.name, "w_let");
  EXPECT_EQ(w.c_type, "int8_t");
  EXPECT_EQ(w.elements, 8);
  EXPECT_EQ(w.pool, "global_const_workspace");
  EXPECT_EQ(w.offset, testing::offset_of(tir.problem, plan, "w"));
  EXPECT_EQ(w.data_text, "    +0x01, +0x02, +0x03, +0x04, +0x05, +0x06, +0x07, +0x08\n");
  EXPECT_FALSE(w.truncated);
  const TirConstant& c = r.pool_constants[1];
  EXPECT_EQ(c.name, "c_let");
  EXPECT_EQ(c.c_type, "int32_t");
  EXPECT_EQ(c.data_text, "    +0x00000007, +0x00000007, +0x00000007, +0x00000007\n");
  EXPECT_LINE(r.source, "  void* c_let = (&(global_const_workspace_0_var[" + std::to_string(c.offset) + "]));");
  EXPECT_LINE(r.source, "  ((int8_t*)x_let)[0] = ((int8_t)((int32_t*)c_let)[0]);");
}

TEST(TirCodegen, ConstantsWithoutAPoolBecomeStaticArrays) {
  PoolOptions pools;
  pools.workspace_pools = {"sram"};  // user pools and no constant pool: constants are not planned
  const TirProblem tir = testing::analyze_tir_file(testing::fixture_path("tir/constants.py"), pools);
  const TirCodegenResult r = emit_greedy(tir);
  EXPECT_TRUE(r.pool_constants.empty());
  EXPECT_NE(r.source.find("#include <stdbool.h>\n"
                          "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n"
                          "static const int8_t __attribute__((section(\".rodata.tvm\"), aligned(16))) w[8] = {\n"
                          "    +0x01, +0x02, +0x03, +0x04, +0x05, +0x06, +0x07, +0x08\n"
                          "};\n"
                          "#ifdef __cplusplus\n}  // extern \"C\"\n#endif\n"
                          "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n"
                          "static const int32_t __attribute__((section(\".rodata.tvm\"), aligned(16))) c[4] = {\n"
                          "    +0x00000007, +0x00000007, +0x00000007, +0x00000007\n"
                          "};\n"
                          "#ifdef __cplusplus\n}  // extern \"C\"\n#endif\n"
                          "#ifdef __cplusplus\nextern \"C\"\n#endif\n"),
            std::string::npos)
      << r.source;
  EXPECT_LINE(r.source, "    ((int32_t*)acc_let)[i] = (((int32_t)A[i]) * ((int32_t)((int8_t*)w)[i]));");
  expect_compiles(r.source);
}

TEST(TirCodegen, PostUsmpConstantsAreReportedWithoutData) {
  // After USMP the constant's values live in lib0.c's pool, not in the dump: its type and length
  // come from the buffer viewing it, its data is zero and reported.
  const TirProblem tir = analyze_text(R"(@I.ir_module
class Module:
    @T.prim_func
    def __tvm_main__(out: T.handle, global_const_workspace_0_var: T.handle("uint8"), global_workspace_1_var: T.handle("uint8")):
        Out = T.match_buffer(out, (4,), "int32")
        global_const_workspace_0_buffer_var = T.match_buffer(global_const_workspace_0_var, (16,), "uint8", strides=(1,), align=16)
        global_workspace_1_buffer_var = T.match_buffer(global_workspace_1_var, (16,), "uint8", strides=(1,), align=16)
        w_let: T.handle("int32") = T.address_of(global_const_workspace_0_buffer_var[0])
        W = T.Buffer((4,), "int32", data=w_let)
        t_let: T.handle("int32") = T.address_of(global_workspace_1_buffer_var[0])
        Tb = T.Buffer((4,), "int32", data=t_let)
        for i in range(4):
            Tb[i] = W[i] + 1
            Out[i] = Tb[i]
)");
  ASSERT_TRUE(tir.as_built);
  const TirCodegenResult r = emit(tir, *tir.as_built);
  ASSERT_EQ(r.pool_constants.size(), 1u);
  const TirConstant& w = r.pool_constants.front();
  EXPECT_EQ(w.name, "w_let");
  EXPECT_EQ(w.c_type, "int32_t");
  EXPECT_EQ(w.elements, 4);
  EXPECT_EQ(w.pool, "global_const_workspace");
  EXPECT_EQ(w.offset, 0);
  EXPECT_TRUE(w.truncated);
  EXPECT_EQ(w.data_text, "    +0x00000000, +0x00000000, +0x00000000, +0x00000000\n");
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(r.notes.front().message, "constant w_let: the dump printed 0 of 4 values; the rest are zero");
  EXPECT_EQ(r.main_params, (std::vector<std::string>{"int32_t* Out", "uint8_t* global_const_workspace_0_var",
                                                     "uint8_t* global_workspace_1_var"}));
  EXPECT_LINE(r.source, "  void* w_let = (&(global_const_workspace_0_var[0]));");
  EXPECT_LINE(r.source, "    ((int32_t*)t_let)[i] = (((int32_t*)w_let)[i] + 1);");
  expect_compiles(r.source);
}

TEST(TirCodegen, TruncatedConstantsAreCompletedWithZerosAndReported) {
  const TirProblem tir = testing::analyze_tir_file(testing::source_path("resources/examples/kws_dscnn.tvmscript.py"));
  const TirCodegenResult r = emit_greedy(tir);
  ASSERT_FALSE(r.pool_constants.empty());
  const TirConstant& first = r.pool_constants.front();  // the first operator's 10x4x1x64 weights
  EXPECT_EQ(first.name, "fused_constant_let");
  EXPECT_EQ(first.elements, 2560);
  EXPECT_TRUE(first.truncated);
  EXPECT_TRUE(
      first.data_text.starts_with("    -0x03, +0x07, +0x0c, -0x19, +0x04, +0x00, +0x09, -0x0e, \n"
                                  "    +0x1f, -0x02, +0x06, +0x12, -0x07, +0x01, +0x16, -0x09, \n"
                                  "    +0x00, +0x00, "));
  ASSERT_FALSE(r.notes.empty());
  EXPECT_EQ(r.notes.front().message,
            "constant fused_constant_let: the dump printed 16 of 2560 values; the rest are zero");
  EXPECT_EQ(r.notes.front().location.line, 20);
  // Every operator has its own "fused_constant": the names are made unique across the module.
  std::set<std::string> names;
  for (const TirConstant& c : r.pool_constants)
    EXPECT_TRUE(names.insert(c.name).second) << c.name;
  EXPECT_TRUE(names.count("fused_constant_1_let"));

  // The legacy printer prints no constant data at all.
  const TirProblem legacy =
      testing::analyze_tir_file(testing::source_path("resources/examples/vww_mobilenet.legacy.txt"));
  const TirCodegenResult l = emit_greedy(legacy);
  ASSERT_FALSE(l.notes.empty());
  EXPECT_EQ(l.notes.front().message, "constant fused_constant_let: the dump printed 0 of 72 values; the rest are zero");
}

TEST(TirCodegen, UnplannedAllocationsStayOnTheStackOrInTheWorkspace) {
  const TirProblem parallel = testing::analyze_tir_file(testing::fixture_path("tir/parallel_loops.py"));
  const TirCodegenResult p = emit_greedy(parallel);
  EXPECT_LINE(p.source, "  for (int32_t i = 0; i < 4; ++i) {");
  EXPECT_LINE(p.source, "    int8_t p[8];");  // directly in the parallel loop: not planned
  EXPECT_LINE(p.source, "    (void)p;");      // written, never read
  EXPECT_LINE(p.source, "      void* s_let = (&(global_workspace_0_var[0]));");

  const TirProblem sizes = testing::analyze_tir_file(testing::fixture_path("tir/static_sizes.py"));
  const TirCodegenResult s = emit_greedy(sizes);
  EXPECT_LINE(s.source, "  void* d = TVMBackendAllocWorkspace(1, 0, ((uint64_t)(1 * n)), 0, 8);");
  EXPECT_LINE(s.source, "  if (d == NULL) {");
  EXPECT_LINE(s.source, "  int8_t l[8];");       // local scope
  EXPECT_LINE(s.source, "  (void)unused_let;");  // planned, never accessed
  EXPECT_TRUE(
      s.source.ends_with("  if (TVMBackendFreeWorkspace(1, 0, d) != 0) {\n    return -1;\n  }\n  return 0;\n}\n\n"));
  EXPECT_EQ(s.main_params, (std::vector<std::string>{"uint8_t* global_workspace_0_var", "int32_t n"}));
  // (static_sizes.py reads l before writing it, so C compilers rightly warn about that module.)
  expect_compiles(p.source);
}

TEST(TirCodegen, WorkspaceIoLeavesMainWithoutIoParameters) {
  PoolOptions io;
  io.use_workspace_io = true;
  const TirProblem tir = testing::analyze_tir_file(testing::fixture_path("tir/same_program.py"), io);
  const Plan plan = testing::plan_with("greedy_by_size", tir.problem);
  const TirCodegenResult r = emit(tir, plan);
  EXPECT_EQ(r.main_params, std::vector<std::string>{"uint8_t* global_workspace_0_var"});
  EXPECT_LINE(r.source, "  void* inp_buf_let = (&(global_workspace_0_var[" +
                            std::to_string(testing::offset_of(tir.problem, plan, "inp")) + "]));");
  EXPECT_LINE(r.source, "  op(inp_buf_let, out_buf_let, global_workspace_0_var);");
}

TEST(TirCodegen, PlacementsMustFitTheModule) {
  const TirProblem tir = testing::analyze_tir_file(testing::fixture_path("tir/merge_allocations.py"));
  TirCodegenInput input = tir_codegen_input(tir, testing::plan_with("greedy_by_size", tir.problem));
  TirCodegenInput wrong_pool = input;
  wrong_pool.pools = {"sram"};
  try {
    emit_tir_host_module(wrong_pool);
    ADD_FAILURE() << "no error";
  } catch (const ExportError& e) {
    EXPECT_TRUE(std::string(e.what()).ends_with(
        ": the placement names pool 'global_workspace', which is not in the list of pools"))
        << e.what();
    EXPECT_TRUE(e.location().file.ends_with("merge_allocations.py"));
  }
  // A placement of a statement from another module.
  const TirProblem other = testing::analyze_tir_file(testing::fixture_path("tir/ticks_callee_inline.py"));
  TirCodegenInput foreign = input;
  foreign.placements[other.statements.front()] = {"global_workspace", 512};
  EXPECT_THROW(
      {
        try {
          emit_tir_host_module(foreign);
        } catch (const ExportError& e) {
          EXPECT_STREQ(e.what(), "1 placement(s) refer to statements that are not in the module");
          throw;
        }
      },
      ExportError);
}

TEST(TirCodegen, ParametersAndExternalFunctionsAreReported) {
  const TirProblem tir =
      testing::analyze_tir_file(testing::source_path("resources/examples/anomaly_autoencoder.legacy.txt"));
  const TirCodegenResult r = emit_greedy(tir);
  EXPECT_LINE(r.source, "extern const uint8_t __tvm_param__p0[];");
  EXPECT_NE(r.source.find("tvmgen_default_fused_nn_dense_add_clip_cast(input_buffer_var, ((void*)__tvm_param__p0), "
                          "((void*)__tvm_param__p1), sid_1_let, global_workspace_0_var)"),
            std::string::npos);
  ASSERT_EQ(r.notes.size(), 12u);
  EXPECT_EQ(r.notes.front().message,
            "parameter p0 (lookup_param) is referenced as __tvm_param__p0, which the application must define");

  const TirProblem quirks = testing::analyze_tir_file(testing::fixture_path("tir/legacy_quirks.txt"));
  const TirCodegenResult q = emit_greedy(quirks);
  ASSERT_EQ(q.notes.size(), 1u);
  EXPECT_EQ(q.notes.front().message,
            "the module calls the C function log_scale, which the application must declare and define");
  EXPECT_LINE(q.source, "  log_scale(0.000000e+00f, (uint8_t)1, (bool)1, -3.402820e+38f);");
}

TEST(TirCodegen, ThousandsOfNestedAllocationsInMain) {
  std::string source = "@I.ir_module\nclass Module:\n    @T.prim_func\n    def __tvm_main__():\n";
  for (int i = 0; i < 3000; ++i)
    source += "        x" + std::to_string(i) + " = T.allocate([16], \"int8\", \"global\")\n";
  for (int i = 0; i < 3000; ++i)
    source += "        X" + std::to_string(i) + " = T.Buffer((16,), \"int8\", data=x" + std::to_string(i) + ")\n";
  for (int i = 0; i < 2999; ++i)
    source += "        X" + std::to_string(i + 1) + "[0] = X" + std::to_string(i) + "[0]\n";
  const TirProblem tir = analyze_text(source);
  const Plan plan = testing::distinct_plan(tir.problem);
  const TirCodegenResult r = emit(tir, plan);
  EXPECT_LINE(r.source, "  void* x2999_let = (&(global_workspace_0_var[47984]));");
  EXPECT_LINE(r.source, "  ((int8_t*)x2999_let)[0] = ((int8_t*)x2998_let)[0];");
  expect_compiles(r.source);
}

// Every fixture and example: every placed buffer becomes exactly one let into its pool.
TEST(TirCodegen, EveryPlacementBecomesOneLet) {
  std::vector<std::string> files;
  for (const char* f :
       {"alias_never_cleared.py", "called_twice.py", "constants.py", "io_annotations.py", "legacy_quirks.txt",
        "loop_extension.py", "merge_allocations.py", "parallel_loops.py", "post_usmp.legacy.txt",
        "same_program.legacy.txt", "same_program.py", "static_sizes.py", "ticks_callee_inline.py", "unique_names.py"})
    files.push_back(testing::fixture_path(std::string("tir/") + f));
  for (const char* f : {"kws_dscnn.tvmscript.py", "kws_dscnn.planned.tvmscript.py", "vww_mobilenet.legacy.txt",
                        "anomaly_autoencoder.legacy.txt"})
    files.push_back(testing::source_path(std::string("resources/examples/") + f));
  files.push_back(testing::fixture_path("export/small_net.py"));
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    const TirProblem tir = testing::analyze_tir_file(file);
    const TirCodegenInput input = tir_codegen_input(tir, testing::plan_with("greedy_by_size", tir.problem));
    const TirCodegenResult r = emit_tir_host_module(input);
    size_t lets = 0;
    for (size_t at = r.source.find(" = (&("); at != std::string::npos; at = r.source.find(" = (&(", at + 1))
      ++lets;
    EXPECT_EQ(lets, input.placements.size());
    EXPECT_FALSE(r.main_symbol.empty());
  }
}

}  // namespace
}  // namespace usmpx
