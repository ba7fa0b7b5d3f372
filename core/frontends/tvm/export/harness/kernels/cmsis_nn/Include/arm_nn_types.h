/* USMP Explorer's built-in CMSIS-NN-compatible kernels: the parameter structures of the CMSIS-NN
 * API, with the field names and order the API documents (TVM's generated code initialises them
 * positionally). */
#ifndef USMPX_ARM_NN_TYPES_H
#define USMPX_ARM_NN_TYPES_H

#include <stdint.h>

typedef enum {
  ARM_CMSIS_NN_SUCCESS = 0,
  ARM_CMSIS_NN_ARG_ERROR = -1,
  ARM_CMSIS_NN_NO_IMPL_ERROR = -2,
  ARM_CMSIS_NN_FAILURE = -3,
} arm_cmsis_nn_status;

/* The status type of CMSIS-NN releases before 4.0, which TVM 0.8 and 0.9 code still names. */
typedef enum {
  ARM_MATH_SUCCESS = 0,
  ARM_MATH_ARGUMENT_ERROR = -1,
  ARM_MATH_LENGTH_ERROR = -2,
  ARM_MATH_SIZE_MISMATCH = -3,
  ARM_MATH_NANINF = -4,
  ARM_MATH_SINGULAR = -5,
  ARM_MATH_TEST_FAILURE = -6,
} arm_status;

typedef struct {
  int32_t w;
  int32_t h;
} cmsis_nn_tile;

typedef struct {
  int32_t w;
  int32_t h;
  int32_t c;
} cmsis_nn_3d_tile;

typedef struct {
  void* buf;
  int32_t size;
} cmsis_nn_context;

/* n: batches (or, for a fully connected filter, the accumulation depth), h, w, c: channels. */
typedef struct {
  int32_t n;
  int32_t h;
  int32_t w;
  int32_t c;
} cmsis_nn_dims;

typedef struct {
  int32_t* multiplier;
  int32_t* shift;
} cmsis_nn_per_channel_quant_params;

typedef struct {
  int32_t multiplier;
  int32_t shift;
} cmsis_nn_per_tensor_quant_params;

typedef struct {
  int32_t min;
  int32_t max;
} cmsis_nn_activation;

typedef struct {
  int32_t input_offset;
  int32_t output_offset;
  cmsis_nn_tile stride;
  cmsis_nn_tile padding;
  cmsis_nn_tile dilation;
  cmsis_nn_activation activation;
} cmsis_nn_conv_params;

typedef struct {
  int32_t input_offset;
  int32_t output_offset;
  int32_t ch_mult;
  cmsis_nn_tile stride;
  cmsis_nn_tile padding;
  cmsis_nn_tile dilation;
  cmsis_nn_activation activation;
} cmsis_nn_dw_conv_params;

typedef struct {
  cmsis_nn_tile stride;
  cmsis_nn_tile padding;
  cmsis_nn_activation activation;
} cmsis_nn_pool_params;

typedef struct {
  int32_t input_offset;
  int32_t filter_offset;
  int32_t output_offset;
  cmsis_nn_activation activation;
} cmsis_nn_fc_params;

typedef struct {
  const int16_t* exp_lut;
  const int16_t* one_by_one_lut;
} cmsis_nn_softmax_lut_s16;

#endif
