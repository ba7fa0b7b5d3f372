#include <gtest/gtest.h>

#include "base/text_file.h"
#include "frontends/tvm/tir/printer.h"
#include "frontends/tvm/tir_readers/legacy_tir_reader.h"
#include "frontends/tvm/tir_readers/tvmscript_reader.h"
#include "test_support.h"

namespace usmpx {
namespace {

tir::Module read(const std::string& name) {
  const std::string path = testing::fixture_path("tir/" + name);
  const std::string text = read_text_file(path);
  return name.ends_with(".py") ? read_tvmscript(text, path) : read_legacy_tir(text, path);
}

TEST(TirFormats, TheSameProgramGivesTheSameTreeInBothFormats) {
  const tir::Module script = read("same_program.py");
  const tir::Module legacy = read("same_program.legacy.txt");
  EXPECT_TRUE(tir::structurally_equal(script, legacy));
  const std::string canonical = tir::print_module(script, {true});
  EXPECT_EQ(canonical, tir::print_module(legacy, {true}));
  EXPECT_EQ(canonical,
            "func op(v0: handle, v1: handle) -> void\n"
            "  attr \"global_symbol\" = \"op\"\n"
            "  attr \"tir.noalias\" = True\n"
            "  bind v0 -> b0: int8[2, 8] data=v2: handle(int8, global)\n"
            "  bind v1 -> b1: int16[16] data=v3: handle(int16, global)\n"
            "  allocate v4: handle(int8, global) = int8[20] scope=global\n"
            "    seq\n"
            "      for v5: int32 in parallel(0, 20)\n"
            "        b2[v5] = if_then_else(((2 <= v5) && (v5 < 18)), b3[(v5 - 2)], 0:int8):int8\n"
            "      for v6: int32 in serial(0, 16)\n"
            "        let v7: int32 = ((cast(int32, b2[v6]) * 3) + floordiv(cast(int32, b2[(v6 + 4)]), 2))\n"
            "          if (floormod(v7, 2) == 0)\n"
            "            b1[v6] = cast(int16, max(min(v7, 32767), -32768))\n"
            "          else\n"
            "            b1[v6] = -1:int16\n"
            "func __tvm_main__(v0: handle, v1: handle) -> void\n"
            "  attr \"global_symbol\" = \"__tvm_main__\"\n"
            "  attr \"runner_function\" = True\n"
            "  bind v0 -> b0: int8[2, 8] data=v2: handle(int8, global)\n"
            "  bind v1 -> b1: int16[16] data=v3: handle(int16, global)\n"
            "  attr \"default\" \"device_id\" = 0\n"
            "    allocate v4: handle(int8, global.workspace) = int8[32] scope=global.workspace\n"
            "      seq\n"
            "        evaluate call_extern(\"op\", v2, v3):int32\n"
            "        evaluate call_extern(\"op\", v2, v4):int32\n");
}

TEST(TirFormats, StructuralEqualityNoticesADifference) {
  const tir::Module a = read_tvmscript(
      "@T.prim_func\ndef f(a: T.handle):\n    A = T.match_buffer(a, (4,), \"int8\")\n    A[0] = T.int8(1)\n", "a.py");
  const tir::Module b = read_legacy_tir(
      "@f = primfn(a: handle) -> ()\n  buffers = {A: Buffer(A_1: Pointer(global int8), int8, [4], [])}\n  buffer_map = "
      "{a: A} {\n  A[0] = 1i8\n}\n",
      "b.txt");
  const tir::Module c = read_legacy_tir(
      "@f = primfn(a: handle) -> ()\n  buffers = {A: Buffer(A_1: Pointer(global int8), int8, [4], [])}\n  buffer_map = "
      "{a: A} {\n  A[0] = 2i8\n}\n",
      "c.txt");
  EXPECT_TRUE(tir::structurally_equal(a, b));
  EXPECT_FALSE(tir::structurally_equal(a, c));
}

}  // namespace
}  // namespace usmpx
