// How the C export prints expressions and statements, and the constructs it refuses.
#include <gtest/gtest.h>

#include "codegen_test_helpers.h"

namespace usmpx {
namespace {

using testing::analyze_text;
using testing::emit_greedy;
using testing::expect_compiles;
using testing::export_error;

TEST(CPrinter, OperatorsInTvmsCSpelling) {
  const TirProblem tir = testing::analyze_tir_file(testing::source_path("resources/examples/kws_dscnn.tvmscript.py"));
  const std::string s = emit_greedy(tir).source;
  // q_multiply_shift lowered as TVM prints it (compare letscope's lib1.c), then min/max through
  // temporaries.
  EXPECT_LINE(
      s,
      "        int32_t v_ = (int32_t)(((((0 != 0) ? (((int64_t)(((int32_t*)Conv2dOutput_let)[ax3] + "
      "((int32_t*)fused_constant_2_let)[ax3])) << ((int64_t)0)) : ((int64_t)(((int32_t*)Conv2dOutput_let)[ax3] + "
      "((int32_t*)fused_constant_2_let)[ax3]))) * (int64_t)1593811345) + ((int64_t)1 << ((int64_t)((8 + 31) - "
      "1)))) >> ((int64_t)(8 + 31)));");
  EXPECT_LINE(s, "        int32_t v__1 = (v_) < (127) ? (v_) : (127);");
  EXPECT_LINE(s,
              "        T_cast_1[(((ax1 * 320) + (ax2 * 64)) + ax3)] = ((int8_t)((v__1) > (-128) ? (v__1) : (-128)));");
  // Padding through a conditional: the load stays inside the branch.
  EXPECT_LINE(s,
              "      ((int8_t*)PaddedInput_let)[((i1 * 13) + i2)] = (((((4 <= i1) && (i1 < 53)) && (1 <= i2)) && (i2 < "
              "11)) ? p0_1[(((i1 * 10) + i2) - 41)] : (int8_t)0);");
  // floordiv of a sum that may be negative (TVMScript's //) is corrected toward minus infinity.
  EXPECT_LINE(s, "    int32_t v__1 = ((v_ % 125) < 0) ? ((v_ / 125) - 1) : (v_ / 125);");
  // Floats: 6 digits when exact, more when not (FLT_MAX), intrinsics with the f suffix.
  EXPECT_LINE(s, "  ((float*)T_softmax_maxelem_let)[0] = -3.40282347e+38f;");
  EXPECT_NE(s.find("expf(((((float)p0_1[i1]) * 6.250000e-02f) - ((float*)T_softmax_maxelem_let)[0]))"),
            std::string::npos);
  EXPECT_NE(s.find("roundf("), std::string::npos);
}

TEST(CPrinter, ExpressionForms) {
  const TirProblem tir = analyze_text(R"(@I.ir_module
class Module:
    @T.prim_func
    def __tvm_main__(a: T.handle, f: T.handle, n: T.int32):
        A = T.match_buffer(a, (2, 3), "int32", strides=(4, 1), elem_offset=1)
        F = T.match_buffer(f, (2,), "float32")
        A[1, 2] = T.Select(n > 0, n, -n) % 7
        A[0, 0] = T.shift_left(n, 2) + T.bitwise_and(n, 12) + (n ^ 5) + T.bitwise_not(n)
        A[0, 1] = T.Cast("int32", T.int64(5000000000) // T.int64(3)) + T.abs(n)
        A[0, 2] = T.if_then_else(not (n == 1) or n < 2, 1, 2)
        F[0] = T.floormod(F[1], T.float32(2)) + T.truncmod(F[1], T.float32(3))
        F[1] = T.sqrt(T.float32(16)) + T.float32(-2147483648) * T.float32(0)
        x: T.int32 = n // -2
        A[1, 0] = x
)");
  const std::string s = emit_greedy(tir).source;
  // Strides and element offset flatten the index; TVMScript's % is floormod, corrected for a
  // negative dividend; the select operand is bound to a temporary.
  EXPECT_LINE(s, "  int32_t v_ = (n > 0) ? n : (0 - n);");
  EXPECT_LINE(s, "  A[(1 + ((1 * 4) + (2 * 1)))] = (((v_ % 7) < 0) ? ((v_ % 7) + 7) : (v_ % 7));");
  EXPECT_LINE(s, "  A[(1 + ((0 * 4) + (0 * 1)))] = ((((n << 2) + (n & 12)) + (n ^ 5)) + (~n));");
  // Non-negative operands divide plainly; an int64 beyond int32 gets LL; abs of an integer.
  EXPECT_LINE(s,
              "  A[(1 + ((0 * 4) + (1 * 1)))] = (((int32_t)((int64_t)5000000000LL / (int64_t)3)) + "
              "((n) < 0 ? (-(n)) : (n)));");
  EXPECT_LINE(s, "  A[(1 + ((0 * 4) + (2 * 1)))] = (((!(n == 1)) || (n < 2)) ? 1 : 2);");
  // Float floormod through floorf, truncmod through fmodf; -2^31 needs 9 digits to stay exact.
  EXPECT_LINE(s, "  float v__1 = F[1];");
  EXPECT_LINE(s, "  F[0] = ((v__1 - (floorf((v__1 / 2.000000e+00f)) * 2.000000e+00f)) + fmodf(F[1], 3.000000e+00f));");
  EXPECT_LINE(s, "  F[1] = (sqrtf(1.600000e+01f) + (-2.14748365e+09f * 0.000000e+00f));");
  // floordiv by a negative divisor: corrected when the remainder's sign differs from the divisor's.
  EXPECT_LINE(s, "  int32_t x = ((((n % -2) != 0) && (((n % -2) < 0) != (-2 < 0))) ? ((n / -2) - 1) : (n / -2));");
  EXPECT_LINE(s, "  A[(1 + ((1 * 4) + (0 * 1)))] = x;");
  expect_compiles(s);
}

TEST(CPrinter, StatementForms) {
  const TirProblem tir = analyze_text(R"(@I.ir_module
class Module:
    @T.prim_func
    def __tvm_main__(a: T.handle, n: T.int32):
        A = T.match_buffer(a, (8,), "int8")
        T.evaluate(T.assume(n > 0))
        p: T.handle("int32") = T.address_of(A[4])
        P = T.Buffer((1,), "int32", data=p)
        P[0] = n
        q: T.handle("int8") = T.address_of(A[0])
        Q = T.Buffer((1,), "int8", data=q)
        Q[0] = T.int8(1)
        for i in T.serial(2, 5):
            A[i] = T.int8(0)
        for i in T.unroll(n):
            A[i] = T.int8(1)
        T.evaluate(0)
        return 1
)");
  const std::string s = emit_greedy(tir).source;
  EXPECT_NE(s.find("TVM_DLL int32_t tvmgen_default___tvm_main__(int8_t* A, int32_t n) {\n"
                   "  int32_t* p = ((int32_t*)(&(A[4])));\n"  // another element type: cast
                   "  p[0] = n;\n"
                   "  int8_t* q = (&(A[0]));\n"
                   "  q[0] = (int8_t)1;\n"
                   "  for (int32_t i = 2; i < 5; ++i) {\n"
                   "    A[i] = (int8_t)0;\n"
                   "  }\n"
                   "  for (int32_t i_1 = 0; i_1 < n; ++i_1) {\n"
                   "    A[i_1] = (int8_t)1;\n"
                   "  }\n"
                   "  return 1;\n"
                   "  return 0;\n"
                   "}\n"),
            std::string::npos)
      << s;
  expect_compiles(s);
}

TEST(CPrinter, UnsupportedConstructsNameTheirLocation) {
  const std::string head = R"(@I.ir_module
class Module:
    @T.prim_func
    def __tvm_main__(a: T.handle):
        A = T.match_buffer(a, (8,), "int8")
)";
  EXPECT_EQ(export_error(analyze_text(head + "        A[0] = T.Broadcast(T.int8(1), 4)\n")),
            "m.py:6:16: a vector expression (int8x4) is not supported by the C export");
  EXPECT_EQ(export_error(analyze_text(head + "        for i in T.thread_binding(8, thread=\"threadIdx.x\"):\n"
                                             "            A[i] = T.int8(0)\n")),
            "m.py:6:9: a thread-bound loop is not supported by the C export");
  EXPECT_EQ(
      export_error(analyze_text(head + "        T.evaluate(T.tvm_call_cpacked(\"ext\", A.data, dtype=\"int32\"))\n")),
      "m.py:6:20: the packed call of 'ext', which is not a function of the module, is not supported by the C "
      "export");
  EXPECT_EQ(export_error(analyze_text(head + "        A[0] = T.popcount(A[1])\n")),
            "m.py:6:16: the intrinsic 'popcount' is not supported by the C export");
  EXPECT_EQ(export_error(analyze_text(head + "        A[0] = T.Cast(\"float16\", A[1])\n")),
            "m.py:6:16: the type float16 is not supported by the C export");
}

TEST(CPrinter, CallsThatCannotBeEmitted) {
  // The analysis refuses this call too, so the module goes to the export directly, unplanned.
  const tir::Module arity = read_tvmscript(R"(@I.ir_module
class Module:
    @T.prim_func
    def op(a: T.handle, b: T.handle):
        A = T.match_buffer(a, (4,), "int8")
        B = T.match_buffer(b, (4,), "int8")
        B[0] = A[0]

    @T.prim_func
    def __tvm_main__():
        x = T.allocate([4], "int8", "global")
        T.evaluate(T.call_extern("op", x, dtype="int32"))
)",
                                           "m.py");
  TirCodegenInput input;
  input.module = &arity;
  input.main = arity.find("__tvm_main__");
  try {
    emit_tir_host_module(input);
    ADD_FAILURE() << "no error";
  } catch (const ExportError& e) {
    EXPECT_STREQ(e.what(), "m.py:12:20: the call of 'tvmgen_default_op' passes 1 arguments to its 2 parameters");
  }

  // helper is not reached from main, so it has no pool parameters to hand to op, which is.
  const TirProblem unreached = analyze_text(R"(@I.ir_module
class Module:
    @T.prim_func
    def op(a: T.handle):
        A = T.match_buffer(a, (4,), "int8")
        A[0] = T.int8(1)

    @T.prim_func
    def helper(a: T.handle):
        A = T.match_buffer(a, (4,), "int8")
        T.evaluate(T.call_extern("op", A.data, dtype="int32"))

    @T.prim_func
    def __tvm_main__():
        x = T.allocate([4], "int8", "global")
        T.evaluate(T.call_extern("op", x, dtype="int32"))
)");
  EXPECT_EQ(export_error(unreached),
            "m.py:11:20: 'tvmgen_default_helper' calls 'tvmgen_default_op' but is not called from main, so it has no "
            "pools to pass on");
}

}  // namespace
}  // namespace usmpx
