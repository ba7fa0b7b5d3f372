#include "frontends/tvm/tir_readers/tvmscript_reader.h"

#include <gtest/gtest.h>

#include "frontends/tvm/tir/printer.h"

namespace usmpx {
namespace {

std::string print(const std::string& source) {
  return tir::print_module(read_tvmscript(source, "t.py"));
}

TEST(TvmScriptReader, FramesEncloseTheRestOfTheirBlock) {
  // T.attr, T.allocate and let-assignments enclose everything after them; the rest is a SeqStmt.
  const std::string out = print(R"(@T.prim_func
def f(n: T.int32):
    T.attr("default", "device_id", 0)
    x = T.allocate([4], "int8", "global")
    X = T.Buffer((4,), "int8", data=x)
    X[0] = T.int8(1)
    k: T.int32 = n + 1
    X[1] = T.Cast("int8", k)
    T.evaluate(0)
)");
  EXPECT_EQ(out,
            "func f(n: int32) -> void\n"
            "  attr \"default\" \"device_id\" = 0\n"
            "    allocate x: handle(int8, global) = int8[4] scope=global\n"
            "      seq\n"
            "        X[0] = 1:int8\n"
            "        let k: int32 = (n + 1)\n"
            "          seq\n"
            "            X[1] = cast(int8, k)\n"
            "            evaluate 0\n");
}

TEST(TvmScriptReader, DeclBufferForms) {
  const std::string out = print(R"(@T.prim_func
def f(a: T.handle):
    A = T.match_buffer(a, (8,), "float32")
    t = T.decl_buffer((4,), "float32")
    with T.decl_buffer([1], "float32") as m:
        m[0] = t[0]
    v = T.decl_buffer((8,), "float32", data=A.data)
    v[0] = t[1]
)");
  EXPECT_EQ(out,
            "func f(a: handle) -> void\n"
            "  bind a -> A: float32[8] data=A: handle(float32, global)\n"
            "  allocate t: handle(float32, global) = float32[4] scope=global\n"
            "    decl_buffer t: float32[4] data=t: handle(float32, global)\n"
            "      seq\n"
            "        allocate m: handle(float32, global) = float32[1] scope=global\n"
            "          decl_buffer m: float32[1] data=m: handle(float32, global)\n"
            "            m[0] = t[0]\n"
            "        decl_buffer v: float32[8] data=A: handle(float32, global)\n"
            "          v[0] = t[1]\n");
}

TEST(TvmScriptReader, LoopKinds) {
  const std::string out = print(R"(@T.prim_func
def f(a: T.handle):
    A = T.match_buffer(a, (64,), "int8")
    for i in T.serial(2, 10):
        A[i] = T.int8(0)
    for i, j in T.grid(4, 8):
        A[i * 8 + j] = T.int8(1)
    for k in range(3):
        for p in T.parallel(2):
            for v in T.vectorized(4):
                for u in T.unroll(0, 2, annotations={"pragma_unroll_explicit": 1}):
                    A[k + p + v + u] = T.int8(2)
)");
  EXPECT_EQ(out,
            "func f(a: handle) -> void\n"
            "  bind a -> A: int8[64] data=A: handle(int8, global)\n"
            "  seq\n"
            "    for i: int32 in serial(2, 8)\n"
            "      A[i] = 0:int8\n"
            "    for i: int32 in serial(0, 4)\n"
            "      for j: int32 in serial(0, 8)\n"
            "        A[((i * 8) + j)] = 1:int8\n"
            "    for k: int32 in serial(0, 3)\n"
            "      for p: int32 in parallel(0, 2)\n"
            "        for v: int32 in vectorized(0, 4)\n"
            "          for u: int32 in unroll(0, 2) annotations={\"pragma_unroll_explicit\": 1}\n"
            "            A[(((k + p) + v) + u)] = 2:int8\n");
}

TEST(TvmScriptReader, CallsKeepTheirOperatorDtypeAndArguments) {
  // call_extern takes its dtype first (printer) or as a keyword (hand-written); unknown calls stay.
  const std::string out = print(R"(@T.prim_func
def f(a: T.handle):
    A = T.match_buffer(a, (4,), "int8")
    T.evaluate(T.call_extern("int32", "op", A.data, 1))
    T.evaluate(T.call_extern("op", A.data, 1, dtype="int32"))
    T.tvm_check_return(0, -1, T.tvm_call_cpacked("op2", A.data, T.lookup_param("p0", dtype="handle"), dtype="int32"))
    p: T.handle("int8") = T.address_of(A[2])
    T.evaluate(T.my_intrinsic(p, 3, dtype="float16"))
)");
  EXPECT_EQ(
      out,
      "func f(a: handle) -> void\n"
      "  bind a -> A: int8[4] data=A: handle(int8, global)\n"
      "  seq\n"
      "    evaluate call_extern(\"op\", A, 1):int32\n"
      "    evaluate call_extern(\"op\", A, 1):int32\n"
      "    evaluate tvm_check_return(0, -1, tvm_call_cpacked(\"op2\", A, lookup_param(\"p0\"):handle):int32):int32\n"
      "    let p: handle(int8) = address_of(A[2]):handle\n"
      "      evaluate my_intrinsic(p, 3):float16\n");
}

TEST(TvmScriptReader, ExpressionsFollowPythonPrecedenceAndTvmTypes) {
  const std::string out = print(R"(@T.prim_func
def f(a: T.handle, n: T.int64):
    A = T.match_buffer(a, (16,), "float32")
    A[0] = T.float32(1.5) + A[1] * T.float32(2) - -A[2]
    A[1] = T.if_then_else(not 1 < n <= 8 or n == 3, T.exp(A[3]), T.float32(0))
    A[2] = T.Cast("float32", n // 4 % 3 + T.min(n, T.int64(7)))
    A[3] += T.float32(1)
)");
  EXPECT_EQ(out,
            "func f(a: handle, n: int64) -> void\n"
            "  bind a -> A: float32[16] data=A: handle(float32, global)\n"
            "  seq\n"
            "    A[0] = ((1.5:float32 + (A[1] * 2:float32)) - (0:float32 - A[2]))\n"
            "    A[1] = if_then_else((!((1 < n) && (n <= 8)) || (n == 3)), exp(A[3]):float32, 0:float32):float32\n"
            "    A[2] = cast(float32, (floormod(floordiv(n, 4), 3) + min(n, 7:int64)))\n"
            "    A[3] = (A[3] + 1:float32)\n");
}

TEST(TvmScriptReader, BufferParametersAndMatchBuffersInParameterOrder) {
  const tir::Module m = read_tvmscript(R"(# comment
@T.prim_func(private=True)
def f(a: T.handle, B: T.Buffer((2, 3), "int16"), c: T.handle("uint8", "global")) -> T.int32:
    C = T.match_buffer(c, [6], dtype="uint8", strides=[1], elem_offset=0, align=16)
    A = T.match_buffer(a, (1,), "int32")
    A[0] = T.Cast("int32", B[1, 2]) + T.Cast("int32", C[5])
)",
                                       "t.py");
  ASSERT_EQ(m.functions.size(), 1u);
  const tir::PrimFunc& f = m.functions[0];
  EXPECT_EQ(f.ret_type, tir::DataType::int_(32));
  ASSERT_EQ(f.params.size(), 3u);
  ASSERT_EQ(f.buffer_map.size(), 3u);
  EXPECT_EQ(f.buffer_map[0].buffer->name, "A");
  EXPECT_EQ(f.buffer_map[1].buffer->name, "B");
  EXPECT_EQ(f.buffer_map[2].buffer->name, "C");
  EXPECT_EQ(f.buffer_map[1].buffer->static_size_bytes(), 12);
  EXPECT_EQ(f.buffer_map[2].buffer->data_alignment, 16);
  EXPECT_EQ(f.params[2]->pointee, tir::DataType::uint(8));
  EXPECT_EQ(f.params[2]->storage_scope, "global");
  EXPECT_EQ(f.buffer_of(f.params[1].get())->data->name, "B");
}

TEST(TvmScriptReader, AllocateAnnotationsConstantsAndAttributes) {
  const tir::Module m = read_tvmscript(R"(@I.ir_module
class Module:
    I.module_attrs({"executor": {"workspace-byte-alignment": 8}})
    @T.prim_func
    def f():
        T.func_attr({"global_symbol": "tvmgen_f", "target": T.target({"kind": "c", "keys": ["cpu"]}), "tir.noalias": T.bool(True)})
        x = T.allocate([4, 4], "int16x2", "global.workspace", annotations={"input_tensor": "in0", "ro": 1})
        w = T.allocate_const([1, -2, 3], "int8", [3, 1])
        T.evaluate(0)
)",
                                       "t.py");
  const tir::PrimFunc& f = m.functions.at(0);
  EXPECT_EQ(f.global_symbol(), "tvmgen_f");
  EXPECT_EQ(f.target(), "c");
  ASSERT_EQ(m.attrs.size(), 1u);
  EXPECT_EQ(m.attrs[0].second.find("workspace-byte-alignment")->as_int(), 8);
  const auto* alloc = f.body->as<tir::Allocate>();
  ASSERT_NE(alloc, nullptr);
  EXPECT_EQ(alloc->static_size_bytes(), 64);  // 16 elements of 2 lanes of 2 bytes
  EXPECT_EQ(alloc->scope, "global.workspace");
  EXPECT_EQ(tir::find_attr(alloc->annotations, "input_tensor")->as_string(), "in0");
  EXPECT_EQ(tir::find_attr(alloc->annotations, "ro")->as_int(), 1);
  EXPECT_EQ(alloc->location, (SourceLocation{"t.py", 7, 9}));
  const auto* constant = alloc->body->as<tir::AllocateConst>();
  ASSERT_NE(constant, nullptr);
  EXPECT_EQ(constant->static_size_bytes(), 3);
  ASSERT_EQ(constant->data.size(), 3u);
  EXPECT_EQ(tir::constant_int(constant->data[1].get()), -2);
}

TEST(TvmScriptReader, DetectsTheFormat) {
  EXPECT_TRUE(looks_like_tvmscript("@I.ir_module\nclass M:"));
  EXPECT_TRUE(looks_like_tvmscript("x\n@tvm.script.ir_module\n"));
  EXPECT_TRUE(looks_like_tvmscript("@T.prim_func\ndef f():"));
  EXPECT_FALSE(looks_like_tvmscript("primfn(a: handle) -> ()"));
}

}  // namespace
}  // namespace usmpx
