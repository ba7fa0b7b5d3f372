/* Element-wise add and multiply, int8 and int16, as TFLite's reference kernels compute them:
 * add rescales both inputs (offset, left shift, requantisation) to a common scale, sums, then
 * requantises to the output; multiply requantises the product of the offset inputs. */
#include "usmpx_nn_internal.h"

static int32_t add_one(int32_t a, int32_t b, const int32_t* p) {
  /* p: in1 offset, mult, shift, in2 offset, mult, shift, left shift, out offset, mult, shift, min, max */
  const int32_t a_scaled = arm_nn_requantize((int32_t)((uint32_t)(a + p[0]) << p[6]), p[1], p[2]);
  const int32_t b_scaled = arm_nn_requantize((int32_t)((uint32_t)(b + p[3]) << p[6]), p[4], p[5]);
  const int32_t sum = arm_nn_requantize(a_scaled + b_scaled, p[8], p[9]) + p[7];
  return usmpx_nn_clamp(sum, p[10], p[11]);
}

arm_cmsis_nn_status arm_elementwise_add_s8(
    const int8_t* input_1_vect, const int8_t* input_2_vect, const int32_t input_1_offset, const int32_t input_1_mult,
    const int32_t input_1_shift, const int32_t input_2_offset, const int32_t input_2_mult, const int32_t input_2_shift,
    const int32_t left_shift, int8_t* output, const int32_t out_offset, const int32_t out_mult, const int32_t out_shift,
    const int32_t out_activation_min, const int32_t out_activation_max, const int32_t block_size) {
  const int32_t p[12] = {input_1_offset, input_1_mult,  input_1_shift,      input_2_offset,
                         input_2_mult,   input_2_shift, left_shift,         out_offset,
                         out_mult,       out_shift,     out_activation_min, out_activation_max};
  for (int32_t i = 0; i < block_size; ++i)
    output[i] = (int8_t)add_one(input_1_vect[i], input_2_vect[i], p);
  return ARM_CMSIS_NN_SUCCESS;
}

arm_cmsis_nn_status arm_elementwise_add_s16(const int16_t* input_1_vect, const int16_t* input_2_vect,
                                            const int32_t input_1_offset, const int32_t input_1_mult,
                                            const int32_t input_1_shift, const int32_t input_2_offset,
                                            const int32_t input_2_mult, const int32_t input_2_shift,
                                            const int32_t left_shift, int16_t* output, const int32_t out_offset,
                                            const int32_t out_mult, const int32_t out_shift,
                                            const int32_t out_activation_min, const int32_t out_activation_max,
                                            const int32_t block_size) {
  const int32_t p[12] = {input_1_offset, input_1_mult,  input_1_shift,      input_2_offset,
                         input_2_mult,   input_2_shift, left_shift,         out_offset,
                         out_mult,       out_shift,     out_activation_min, out_activation_max};
  for (int32_t i = 0; i < block_size; ++i)
    output[i] = (int16_t)add_one(input_1_vect[i], input_2_vect[i], p);
  return ARM_CMSIS_NN_SUCCESS;
}

static int32_t mul_one(int32_t a, int32_t b, int32_t a_offset, int32_t b_offset, int32_t out_offset, int32_t out_mult,
                       int32_t out_shift, int32_t low, int32_t high) {
  const int32_t product = (a + a_offset) * (b + b_offset);
  return usmpx_nn_clamp(arm_nn_requantize(product, out_mult, out_shift) + out_offset, low, high);
}

arm_cmsis_nn_status arm_elementwise_mul_s8(const int8_t* input_1_vect, const int8_t* input_2_vect,
                                           const int32_t input_1_offset, const int32_t input_2_offset, int8_t* output,
                                           const int32_t out_offset, const int32_t out_mult, const int32_t out_shift,
                                           const int32_t out_activation_min, const int32_t out_activation_max,
                                           const int32_t block_size) {
  for (int32_t i = 0; i < block_size; ++i)
    output[i] = (int8_t)mul_one(input_1_vect[i], input_2_vect[i], input_1_offset, input_2_offset, out_offset, out_mult,
                                out_shift, out_activation_min, out_activation_max);
  return ARM_CMSIS_NN_SUCCESS;
}

arm_cmsis_nn_status arm_elementwise_mul_s16(const int16_t* input_1_vect, const int16_t* input_2_vect,
                                            const int32_t input_1_offset, const int32_t input_2_offset, int16_t* output,
                                            const int32_t out_offset, const int32_t out_mult, const int32_t out_shift,
                                            const int32_t out_activation_min, const int32_t out_activation_max,
                                            const int32_t block_size) {
  for (int32_t i = 0; i < block_size; ++i)
    output[i] = (int16_t)mul_one(input_1_vect[i], input_2_vect[i], input_1_offset, input_2_offset, out_offset, out_mult,
                                 out_shift, out_activation_min, out_activation_max);
  return ARM_CMSIS_NN_SUCCESS;
}
