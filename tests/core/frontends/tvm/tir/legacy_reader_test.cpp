#include "frontends/tvm/tir_readers/legacy_tir_reader.h"

#include <gtest/gtest.h>

#include "base/text_file.h"
#include "frontends/tvm/tir/printer.h"
#include "test_support.h"

namespace usmpx {
namespace {

tir::Module read_fixture(const std::string& name) {
  const std::string path = testing::fixture_path("tir/" + name);
  return read_legacy_tir(read_text_file(path), path);
}

TEST(LegacyTirReader, ReadsThePrintersQuirks) {
  // Name from "global_symbol" (no @name prefix), a target's debug string, buffers declared in
  // full at their first use, dotted loop variables, the old attr-storage_scope + allocate form,
  // dtype-suffixed literals, `name: handle: buffer` in the buffer map and the extra ')' after
  // allocate annotations.
  const tir::Module m = read_fixture("legacy_quirks.txt");
  EXPECT_EQ(
      tir::print_module(m),
      "func tvmgen_default_fused_cast(placeholder_1: handle, T_cast_1: handle) -> void\n"
      "  attr \"global_symbol\" = \"tvmgen_default_fused_cast\"\n"
      "  attr \"tir.noalias\" = True\n"
      "  attr \"target\" = raw(\"Target(id=0x55d1a6b0,kind='c',keys={'arm_cpu','cpu'},attrs={'mcpu':'cortex-m55'},"
      "host=Target(id=0x55d1a6f0,kind='c'))\")\n"
      "  bind placeholder_1 -> placeholder: int8[1, 4, 4] data=placeholder_2: handle(int8)\n"
      "  bind T_cast_1 -> T_cast: int16[16] data=T_cast_2: handle(int16)\n"
      "  attr acc \"storage_scope\" = \"global\"\n"
      "    allocate acc: handle(int32) = int32[16] scope=global\n"
      "      for ax0.ax1.fused: int32 in serial(0, 16)\n"
      "        seq\n"
      "          acc[ax0.ax1.fused] = (cast(int32, placeholder_3[ax0.ax1.fused]) + 5:int64)\n"
      "          T_cast[ax0.ax1.fused] = cast(int16, select((acc[ax0.ax1.fused] > 0), acc[ax0.ax1.fused], 0))\n"
      "func __tvm_main__() -> void\n"
      "  attr \"global_symbol\" = \"__tvm_main__\"\n"
      "  attr \"runner_function\" = True\n"
      "  bind output -> output_buffer_var: int16[16] data=output_buffer_var_1: handle(int16, global)\n"
      "  bind input -> input_buffer_var: int8[16] data=input_buffer_var_1: handle(int8, global)\n"
      "  allocate output_buffer_var_1: handle(int16, global) = int16[16] scope=global annotations={\"output_tensor\": "
      "\"output\"}\n"
      "    allocate input_buffer_var_1: handle(int8, global) = int8[16] scope=global annotations={\"input_tensor\": "
      "\"input\"}\n"
      "      seq\n"
      "        evaluate call_extern(\"tvmgen_default_fused_cast\", input_buffer_var_1, output_buffer_var_1):int32\n"
      "        evaluate call_extern(\"log_scale\", 0:float32, 1:uint8, 1:bool, "
      "-3.4028200000000001e+38:float32):float32\n");
  EXPECT_EQ(m.functions[0].target(), "c");
  const auto* attr = m.functions[0].body->as<tir::AttrStmt>();
  ASSERT_NE(attr, nullptr);
  EXPECT_EQ(attr->location, (SourceLocation{testing::fixture_path("tir/legacy_quirks.txt"), 7, 3}));
}

TEST(LegacyTirReader, LetBodiesAndPoolParameters) {
  // After USMP: lets chained on their own lines, the last one's body a braced block on the next
  // line; pool buffers with strides and align.
  const tir::Module m = read_fixture("post_usmp.legacy.txt");
  const tir::PrimFunc* main = m.find("__tvm_main__");
  ASSERT_NE(main, nullptr);
  ASSERT_EQ(main->params.size(), 4u);
  EXPECT_EQ(main->buffer_map[2].buffer->name, "dtcm_0_buffer_var");
  EXPECT_EQ(main->buffer_map[2].buffer->data_alignment, 16);
  ASSERT_EQ(main->buffer_map[2].buffer->strides.size(), 1u);
  const auto* let1 = main->body->as<tir::LetStmt>();
  ASSERT_NE(let1, nullptr);
  EXPECT_EQ(tir::print_expr(*let1->value), "address_of(sram_1_buffer_var[0]):handle");
  const auto* let2 = let1->body->as<tir::LetStmt>();
  ASSERT_NE(let2, nullptr);
  const auto* let3 = let2->body->as<tir::LetStmt>();
  ASSERT_NE(let3, nullptr);
  const auto* seq = let3->body->as<tir::SeqStmt>();
  ASSERT_NE(seq, nullptr);
  EXPECT_EQ(seq->seq.size(), 4u);
}

TEST(LegacyTirReader, FunctionNamesAndOlderStores) {
  const tir::Module m = read_legacy_tir(R"(@first = primfn(x: handle) -> ()
  attr = {"global_symbol": "sym_first"} {
  allocate(p: Pointer(global float32), float32, [4]), storage_scope = global;
  p[1] = (p[0]*2f32)
}
second = primfn() -> ()
  attr = {} {
  @first(@tir.reinterpret(0u64, dtype=handle), dtype=int32)
}
)",
                                        "x.txt");
  ASSERT_EQ(m.functions.size(), 2u);
  EXPECT_EQ(m.functions[0].name, "first");
  EXPECT_EQ(m.functions[1].name, "second");
  EXPECT_EQ(tir::print_function(m.functions[0]),
            "func first(x: handle) -> void\n"
            "  attr \"global_symbol\" = \"sym_first\"\n"
            "  allocate p: handle(float32, global) = float32[4] scope=global\n"
            "    p[1] = (p[0] * 2:float32)\n");
  const auto* eval = m.functions[1].body->as<tir::Evaluate>();
  ASSERT_NE(eval, nullptr);
  const auto* call = eval->value->as<tir::Call>();
  ASSERT_NE(call, nullptr);
  EXPECT_TRUE(call->global);
  EXPECT_EQ(call->op, "first");
  EXPECT_EQ(tir::print_expr(*call), "@first(reinterpret(0:uint64):handle):int32");
}

TEST(LegacyTirReader, DetectsTheFormat) {
  EXPECT_TRUE(looks_like_legacy_tir("@main = primfn(a: handle) -> ()"));
  EXPECT_FALSE(looks_like_legacy_tir("@T.prim_func\ndef f():"));
}

}  // namespace
}  // namespace usmpx
