// The project's own CMSIS-NN-compatible kernels (core/export/harness/kernels/cmsis_nn), built with
// this machine's compiler, against values computed by hand from TFLite's reference arithmetic.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "arm_nnfunctions.h"
#include "arm_nnsupportfunctions.h"
#include "frontends/tvm/export/harness/builtin_kernels.h"

namespace usmpx {
namespace {

constexpr int32_t kHalf = 1 << 30;  // multiplier 0.5

TEST(BuiltinKernels, RequantisationRoundsHalfAwayFromZeroWithANegativeShift) {
  // 1004 * 0.5 = 502, / 4 = 125.5 -> 126; -1004 -> -125.5 -> -126.
  EXPECT_EQ(arm_nn_requantize(1004, kHalf, -2), 126);
  EXPECT_EQ(arm_nn_requantize(-1004, kHalf, -2), -126);
  // 1002 * 0.5 = 501, / 4 = 125.25 -> 125; -1002 -> -125.25 -> -125.
  EXPECT_EQ(arm_nn_requantize(1002, kHalf, -2), 125);
  EXPECT_EQ(arm_nn_requantize(-1002, kHalf, -2), -125);
  // A positive shift scales up first: 3 * 4 * 0.5 = 6.
  EXPECT_EQ(arm_nn_requantize(3, kHalf, 2), 6);
  // The real model's first add: 100 * 1623821475 / 2^31 = 75.62 -> 76, / 4 = 19.
  EXPECT_EQ(arm_nn_requantize(100, 1623821475, -2), 19);
  // The 64-bit form: 6005 * 0.5 = 3002.5 -> 3003.
  EXPECT_EQ(arm_nn_requantize_s64(6005, kHalf, 0), 3003);
}

TEST(BuiltinKernels, TwoByTwoConvolutionWithOffsetsBiasAndClampAndTheWholeContextFilled) {
  const std::array<int8_t, 9> input = {1, 2, 3, 4, 5, 6, 7, 8, 9};  // 1x3x3x1
  const std::array<int8_t, 4> filter = {1, 2, 3, 4};                // 1x2x2x1
  const std::array<int32_t, 1> bias = {3};
  int32_t multiplier = kHalf, shift = 0;
  std::array<uint8_t, 20> scratch{};
  const cmsis_nn_context ctx = {scratch.data(), 16};
  const cmsis_nn_conv_params params = {1, -10, {1, 1}, {0, 0}, {1, 1}, {-128, 32}};
  const cmsis_nn_per_channel_quant_params quant = {&multiplier, &shift};
  const cmsis_nn_dims in_dims = {1, 3, 3, 1}, f_dims = {1, 2, 2, 1}, b_dims = {1, 1, 1, 1}, out_dims = {1, 2, 2, 1};
  std::array<int8_t, 4> output{};
  ASSERT_EQ(arm_convolve_wrapper_s8(&ctx, &params, &quant, &in_dims, input.data(), &f_dims, filter.data(), &b_dims,
                                    bias.data(), &out_dims, output.data()),
            ARM_CMSIS_NN_SUCCESS);
  // Window sums 37, 47, 67, 77, plus offset 1 x (1+2+3+4) and bias 3: 50, 60, 80, 90; x 0.5: 25, 30,
  // 40, 45; output offset -10: 15, 20, 30, 35; clamped to 32.
  EXPECT_EQ(output, (std::array<int8_t, 4>{15, 20, 30, 32}));
  // Every byte of the context is written, and none after it.
  EXPECT_EQ(scratch[0], 0xA5);
  EXPECT_EQ(scratch[1], 0xA5 ^ 29);
  EXPECT_EQ(scratch[15], (0xA5 ^ (15 * 29)) & 0xFF);
  EXPECT_EQ(scratch[16], 0);
}

TEST(BuiltinKernels, ConvolutionPaddingContributesNothing) {
  const std::array<int8_t, 4> input = {1, 2, 3, 4};  // 1x2x2x1
  const std::array<int8_t, 9> filter = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  int32_t multiplier = kHalf, shift = 1;  // x 1
  const cmsis_nn_context ctx = {nullptr, 0};
  // The input offset applies to real positions only: 4 x (v + 5) over the whole input.
  const cmsis_nn_conv_params params = {5, 0, {1, 1}, {1, 1}, {1, 1}, {-128, 127}};
  const cmsis_nn_per_channel_quant_params quant = {&multiplier, &shift};
  const cmsis_nn_dims in_dims = {1, 2, 2, 1}, f_dims = {1, 3, 3, 1}, b_dims = {1, 1, 1, 1}, out_dims = {1, 2, 2, 1};
  std::array<int8_t, 4> output{};
  ASSERT_EQ(arm_convolve_wrapper_s8(&ctx, &params, &quant, &in_dims, input.data(), &f_dims, filter.data(), &b_dims,
                                    nullptr, &out_dims, output.data()),
            ARM_CMSIS_NN_SUCCESS);
  EXPECT_EQ(output, (std::array<int8_t, 4>{30, 30, 30, 30}));  // (1+2+3+4) + 4 x 5
}

TEST(BuiltinKernels, Int16ConvolutionAccumulatesIn64Bits) {
  const std::array<int16_t, 4> input = {1000, -2000, 3000, 4000};
  const std::array<int8_t, 4> filter = {1, 1, 1, 1};
  const std::array<int64_t, 1> bias = {5};
  int32_t multiplier = kHalf, shift = 0;
  const cmsis_nn_context ctx = {nullptr, 0};
  const cmsis_nn_conv_params params = {0, 0, {1, 1}, {0, 0}, {1, 1}, {-32768, 32767}};
  const cmsis_nn_per_channel_quant_params quant = {&multiplier, &shift};
  const cmsis_nn_dims in_dims = {1, 2, 2, 1}, f_dims = {1, 2, 2, 1}, b_dims = {1, 1, 1, 1}, out_dims = {1, 1, 1, 1};
  int16_t output = 0;
  ASSERT_EQ(arm_convolve_wrapper_s16(&ctx, &params, &quant, &in_dims, input.data(), &f_dims, filter.data(), &b_dims,
                                     bias.data(), &out_dims, &output),
            ARM_CMSIS_NN_SUCCESS);
  EXPECT_EQ(output, 3003);  // (6000 + 5) x 0.5 = 3002.5
}

TEST(BuiltinKernels, DepthwiseConvolutionKeepsChannelsApart) {
  const std::array<int8_t, 4> input = {1, 2, 3, 4};   // 1x1x2x2: positions (0,0) and (0,1), channels 0 and 1
  const std::array<int8_t, 4> filter = {1, 1, 2, 2};  // 1x1x2x2
  const std::array<int32_t, 2> multipliers = {kHalf, kHalf}, shifts = {1, 1};
  const cmsis_nn_context ctx = {nullptr, 0};
  const cmsis_nn_dw_conv_params params = {0, 0, 1, {1, 1}, {0, 0}, {1, 1}, {-128, 127}};
  const cmsis_nn_per_channel_quant_params quant = {const_cast<int32_t*>(multipliers.data()),
                                                   const_cast<int32_t*>(shifts.data())};
  const cmsis_nn_dims in_dims = {1, 1, 2, 2}, f_dims = {1, 1, 2, 2}, b_dims = {1, 1, 1, 2}, out_dims = {1, 1, 1, 2};
  std::array<int8_t, 2> output{};
  ASSERT_EQ(arm_depthwise_conv_wrapper_s8(&ctx, &params, &quant, &in_dims, input.data(), &f_dims, filter.data(),
                                          &b_dims, nullptr, &out_dims, output.data()),
            ARM_CMSIS_NN_SUCCESS);
  EXPECT_EQ(output, (std::array<int8_t, 2>{7, 10}));  // 1x1 + 3x2, 2x1 + 4x2
}

TEST(BuiltinKernels, FullyConnectedRowsPerOutput) {
  const std::array<int8_t, 3> input = {1, 2, 3};
  const std::array<int8_t, 6> filter = {1, 1, 1, 1, -1, 2};
  const std::array<int32_t, 2> bias = {0, 10};
  const cmsis_nn_context ctx = {nullptr, 0};
  const cmsis_nn_fc_params params = {1, 0, -3, {-128, 127}};
  const cmsis_nn_per_tensor_quant_params quant = {kHalf, 1};
  const cmsis_nn_dims in_dims = {1, 1, 1, 3}, f_dims = {3, 1, 1, 2}, b_dims = {1, 1, 1, 2}, out_dims = {1, 1, 1, 2};
  std::array<int8_t, 2> output{};
  ASSERT_EQ(arm_fully_connected_s8(&ctx, &params, &quant, &in_dims, input.data(), &f_dims, filter.data(), &b_dims,
                                   bias.data(), &out_dims, output.data()),
            ARM_CMSIS_NN_SUCCESS);
  EXPECT_EQ(output, (std::array<int8_t, 2>{6, 14}));  // 2+3+4 = 9, 2-3+8+10 = 17; offset -3
}

class PoolingWithPadding : public ::testing::Test {
 protected:
  // 2x2 window, stride 1, padding 1 over a 2x2 input: a 3x3 output whose border windows hold 1 or
  // 2 real positions.
  const cmsis_nn_pool_params params = {{1, 1}, {1, 1}, {-128, 127}};
  const cmsis_nn_dims in_dims = {1, 2, 2, 1}, f_dims = {1, 2, 2, 1}, out_dims = {1, 3, 3, 1};
};

TEST_F(PoolingWithPadding, AverageCountsOnlyRealPositionsAndRoundsHalfAwayFromZero) {
  std::array<uint8_t, 8> scratch{};
  const cmsis_nn_context ctx = {scratch.data(), 4};
  const std::array<int8_t, 4> positive = {1, 2, 3, 4}, negative = {-1, -2, -3, -4};
  std::array<int8_t, 9> output{};
  ASSERT_EQ(arm_avgpool_s8(&ctx, &params, &in_dims, positive.data(), &f_dims, &out_dims, output.data()),
            ARM_CMSIS_NN_SUCCESS);
  EXPECT_EQ(output, (std::array<int8_t, 9>{1, 2, 2, 2, 3, 3, 3, 4, 4}));  // 1.5 -> 2, 2.5 -> 3, 3.5 -> 4
  EXPECT_EQ(scratch[3], (0xA5 ^ 3 * 29) & 0xFF);
  EXPECT_EQ(scratch[4], 0);
  ASSERT_EQ(arm_avgpool_s8(&ctx, &params, &in_dims, negative.data(), &f_dims, &out_dims, output.data()),
            ARM_CMSIS_NN_SUCCESS);
  EXPECT_EQ(output, (std::array<int8_t, 9>{-1, -2, -2, -2, -3, -3, -3, -4, -4}));
  const std::array<int16_t, 4> wide = {1000, 2000, 3000, 4001};
  std::array<int16_t, 9> wide_output{};
  const cmsis_nn_pool_params wide_params = {{1, 1}, {1, 1}, {-32768, 32767}};
  ASSERT_EQ(arm_avgpool_s16(&ctx, &wide_params, &in_dims, wide.data(), &f_dims, &out_dims, wide_output.data()),
            ARM_CMSIS_NN_SUCCESS);
  EXPECT_EQ(wide_output[4], 2500);  // 10001 / 4 = 2500.25
}

TEST_F(PoolingWithPadding, MaxIgnoresThePaddingAndClamps) {
  const cmsis_nn_context ctx = {nullptr, 0};
  const std::array<int8_t, 4> input = {-5, -6, -7, -8};
  std::array<int8_t, 9> output{};
  ASSERT_EQ(arm_max_pool_s8(&ctx, &params, &in_dims, input.data(), &f_dims, &out_dims, output.data()),
            ARM_CMSIS_NN_SUCCESS);
  EXPECT_EQ(output, (std::array<int8_t, 9>{-5, -5, -6, -5, -5, -6, -7, -7, -8}));
  const cmsis_nn_pool_params clamped = {{1, 1}, {1, 1}, {-6, 127}};
  ASSERT_EQ(arm_max_pool_s8(&ctx, &clamped, &in_dims, input.data(), &f_dims, &out_dims, output.data()),
            ARM_CMSIS_NN_SUCCESS);
  EXPECT_EQ(output, (std::array<int8_t, 9>{-5, -5, -6, -5, -5, -6, -6, -6, -6}));
}

TEST(BuiltinKernels, SoftmaxRowsSumToOne) {
  // Equal values: a quarter each, 64 / 256 -> -64.
  const std::array<int8_t, 4> equal = {7, 7, 7, 7};
  std::array<int8_t, 4> out{};
  arm_softmax_s8(equal.data(), 1, 4, 1476210432, 24, -124, out.data());
  EXPECT_EQ(out, (std::array<int8_t, 4>{-64, -64, -64, -64}));
  // The real model's parameters: a difference d to the maximum weighs e^(d x 0.17183) (its
  // multiplier 1476210432 / 2^31 x 2^24 / 2^26); below diff_min a value weighs nothing.
  const std::array<int8_t, 8> rows = {10, 0, -5, -128, 3, 3, 3, 3};
  std::array<int8_t, 8> outs{};
  arm_softmax_s8(rows.data(), 2, 4, 1476210432, 24, -124, outs.data());
  const double beta = 1476210432.0 / 2147483648.0 * 0.25;
  const double sum = 1.0 + std::exp(-10 * beta) + std::exp(-15 * beta);
  EXPECT_EQ(outs[0], static_cast<int>(std::lround(256.0 / sum)) - 128);
  EXPECT_EQ(outs[1], static_cast<int>(std::lround(256.0 * std::exp(-10 * beta) / sum)) - 128);
  EXPECT_EQ(outs[2], static_cast<int>(std::lround(256.0 * std::exp(-15 * beta) / sum)) - 128);
  EXPECT_EQ(outs[3], -128);
  int total = 0;
  for (int i = 0; i < 4; ++i)
    total += outs[static_cast<size_t>(i)] + 128;
  EXPECT_NEAR(total, 256, 1);
  EXPECT_EQ(outs[4] + outs[5] + outs[6] + outs[7], 4 * -64);
}

TEST(BuiltinKernels, Int16SoftmaxInterpolatesTheCallersTable) {
  // A table falling linearly from 32767 (difference 0, index 511.99) to 0: every entry counts.
  std::vector<int16_t> exp_lut(513);
  for (size_t i = 0; i < exp_lut.size(); ++i)
    exp_lut[i] = static_cast<int16_t>(std::min<size_t>(32767, i * 64));
  const cmsis_nn_softmax_lut_s16 luts = {exp_lut.data(), exp_lut.data()};
  const std::array<int16_t, 2> input = {0, 0};
  std::array<int16_t, 2> output{};
  ASSERT_EQ(arm_softmax_s16(input.data(), 1, 2, kHalf, 1, &luts, output.data()), ARM_CMSIS_NN_SUCCESS);
  EXPECT_EQ(output, (std::array<int16_t, 2>{16384, 16384}));  // 32767 / 2, rounded
  EXPECT_EQ(arm_softmax_s16(input.data(), 1, 2, kHalf, 1, nullptr, output.data()), ARM_CMSIS_NN_ARG_ERROR);
}

TEST(BuiltinKernels, ElementwiseAddRescalesBothInputsAndMulScalesTheProduct) {
  const std::array<int8_t, 1> a = {10}, b = {20};
  std::array<int8_t, 1> out{};
  // (10 << 1) x 0.5 = 10, (20 << 1) x 0.5 = 20; 30 x 0.5 x 2 = 30; offset 5.
  ASSERT_EQ(
      arm_elementwise_add_s8(a.data(), b.data(), 0, kHalf, 0, 0, kHalf, 0, 1, out.data(), 5, kHalf, 1, -128, 127, 1),
      ARM_CMSIS_NN_SUCCESS);
  EXPECT_EQ(out[0], 35);
  const std::array<int8_t, 1> c = {3}, d = {5};
  // (3 + 1) x (5 - 2) = 12, x 0.5 = 6, offset 1.
  ASSERT_EQ(arm_elementwise_mul_s8(c.data(), d.data(), 1, -2, out.data(), 1, kHalf, 0, -128, 127, 1),
            ARM_CMSIS_NN_SUCCESS);
  EXPECT_EQ(out[0], 7);
  const std::array<int16_t, 1> e = {300}, f = {-100};
  std::array<int16_t, 1> wide{};
  ASSERT_EQ(arm_elementwise_mul_s16(e.data(), f.data(), 0, 0, wide.data(), 0, kHalf, 0, -32768, 32767, 1),
            ARM_CMSIS_NN_SUCCESS);
  EXPECT_EQ(wide[0], -15000);
}

TEST(BuiltinKernels, BufferSizesAreWhatTvmReserves) {
  // The real CMSIS-NN model (TVM 0.10): a 3x3 convolution over 3 channels gets 108 bytes, over 16
  // channels 576, a 1x1 over 16 channels 64; its 8x8 average pool over 64 channels 256.
  const cmsis_nn_conv_params conv = {0, 0, {1, 1}, {1, 1}, {1, 1}, {-128, 127}};
  const cmsis_nn_dims rgb = {1, 32, 32, 3}, wide = {1, 32, 32, 16}, k3 = {16, 3, 3, 3}, k1 = {32, 1, 1, 16};
  EXPECT_EQ(arm_convolve_wrapper_s8_get_buffer_size(&conv, &rgb, &k3, &wide), 108);
  EXPECT_EQ(arm_convolve_wrapper_s8_get_buffer_size(&conv, &wide, &k3, &wide), 576);
  EXPECT_EQ(arm_convolve_wrapper_s8_get_buffer_size(&conv, &wide, &k1, &wide), 64);
  EXPECT_EQ(arm_avgpool_s8_get_buffer_size(1, 64), 256);
  EXPECT_EQ(arm_fully_connected_s8_get_buffer_size(&k1), 0);
}

TEST(BuiltinKernels, TheBinaryCarriesEveryKernelFile) {
  std::vector<std::string> paths;
  for (const EmbeddedFile& f : builtin_cmsis_nn_files()) {
    paths.emplace_back(f.path);
    EXPECT_FALSE(f.text.empty()) << f.path;
  }
  for (const char* expected :
       {"Include/arm_nnfunctions.h", "Include/arm_nn_types.h", "Include/arm_nn_math_types.h",
        "Include/arm_nnsupportfunctions.h", "Source/Kernels/usmpx_convolve.c", "Source/Kernels/usmpx_softmax.c"})
    EXPECT_NE(std::find(paths.begin(), paths.end(), expected), paths.end()) << expected;
}

}  // namespace
}  // namespace usmpx
