#include "frontends/tvm/mlf/relay_signature.h"

#include <gtest/gtest.h>

namespace usmpx {
namespace {

TEST(RelaySignature, ReadsParamsWithColonsSpansAndAttributes) {
  const auto sig = read_relay_signature(
      "def @main(%serving_default_input_1:0: Tensor[(1, 5), int8] /* span=serving_default_input_1:0:0:0 */, "
      "%v_param_2: Tensor[(512), int32] /* span=x:0:0 */, output_tensor_names=[\"StatefulPartitionedCall_0\"]) {\n"
      "  %0 = reshape(%serving_default_input_1:0, newshape=[-1, 5]);\n}\n");
  ASSERT_TRUE(sig);
  ASSERT_EQ(sig->params.size(), 2u);
  EXPECT_EQ(sig->params[0].name, "serving_default_input_1:0");
  ASSERT_TRUE(sig->params[0].type);
  EXPECT_EQ(sig->params[0].type->shape, (std::vector<int64_t>{1, 5}));
  EXPECT_EQ(sig->params[0].type->dtype, "int8");
  EXPECT_EQ(sig->params[0].type->size_bytes(), 5);
  EXPECT_EQ(sig->params[1].type->size_bytes(), 2048);
  EXPECT_FALSE(sig->result);
  EXPECT_EQ(sig->find("v_param_2"), &sig->params[1]);
}

TEST(RelaySignature, ReadsResultTypesAndSkipsNonTensorTypes) {
  const auto sig = read_relay_signature(
      "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(1, 16), int8], %t: (Tensor[(1), int8], Tensor[(2), int8]), %s: "
      "Tensor[(), float32]) "
      "-> Tensor[(1, 4), float32] {\n  x\n}");
  ASSERT_TRUE(sig);
  ASSERT_EQ(sig->params.size(), 3u);
  EXPECT_FALSE(sig->params[1].type);
  EXPECT_EQ(sig->params[2].type->size_bytes(), 4);
  ASSERT_TRUE(sig->result);
  EXPECT_EQ(sig->result->size_bytes(), 16);
  EXPECT_FALSE(read_relay_signature("fn (%x) { %x }"));
  EXPECT_FALSE(read_relay_signature("def @main(%x: Tensor[(1, 5), int8]"));
}

TEST(RelaySignature, AllStatedTensorTypes) {
  const auto types = read_relay_tensor_types(
      "def @main(%x: Tensor[(1, 8), float32]) -> Tensor[(1, 4), float32] {\n"
      "  %0 = add(%x, 1f) /* ty=Tensor[(1, 8), float32] */;\n"
      "  nn.dense(%0, %w) /* ty=Tensor[(1, 4), int8] */\n}\n");
  std::vector<int64_t> sizes;
  for (const RelayTensorType& t : types)
    sizes.push_back(*t.size_bytes());
  EXPECT_EQ(sizes, (std::vector<int64_t>{32, 16, 32, 4}));
}

TEST(RelaySignature, DtypesAndNames) {
  EXPECT_EQ(dtype_bytes("int8"), 1);
  EXPECT_EQ(dtype_bytes("uint1"), 1);
  EXPECT_EQ(dtype_bytes("bool"), 1);
  EXPECT_EQ(dtype_bytes("int4"), 1);
  EXPECT_EQ(dtype_bytes("float16"), 2);
  EXPECT_EQ(dtype_bytes("float32x4"), 16);
  EXPECT_EQ(dtype_bytes("bfloat16"), 2);
  EXPECT_FALSE(dtype_bytes("handle"));
  EXPECT_FALSE(dtype_bytes("int"));
  EXPECT_EQ(sanitize_c_name("serving_default_input_1:0"), "serving_default_input_1_0");
}

}  // namespace
}  // namespace usmpx
