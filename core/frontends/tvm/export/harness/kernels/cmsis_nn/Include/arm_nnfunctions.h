/* USMP Explorer's built-in CMSIS-NN-compatible kernels: the functions TVM's CMSIS-NN codegen
 * calls, declared from the CMSIS-NN API's documentation. The implementations follow TFLite's
 * int8 / int16 reference arithmetic; they exist to prove a re-plan (they read their inputs, write
 * every output byte and fill the whole context buffer) and are not a bit-exact CMSIS-NN. */
#ifndef USMPX_ARM_NNFUNCTIONS_H
#define USMPX_ARM_NNFUNCTIONS_H

#include "arm_nn_math_types.h"
#include "arm_nn_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Convolution, NHWC input, OHWI filter (filter_dims: n output channels, h, w, c input channels
 * per group); per-channel requantisation. */
arm_cmsis_nn_status arm_convolve_wrapper_s8(const cmsis_nn_context* ctx, const cmsis_nn_conv_params* conv_params,
                                            const cmsis_nn_per_channel_quant_params* quant_params,
                                            const cmsis_nn_dims* input_dims, const int8_t* input_data,
                                            const cmsis_nn_dims* filter_dims, const int8_t* filter_data,
                                            const cmsis_nn_dims* bias_dims, const int32_t* bias_data,
                                            const cmsis_nn_dims* output_dims, int8_t* output_data);
int32_t arm_convolve_wrapper_s8_get_buffer_size(const cmsis_nn_conv_params* conv_params,
                                                const cmsis_nn_dims* input_dims, const cmsis_nn_dims* filter_dims,
                                                const cmsis_nn_dims* output_dims);
arm_cmsis_nn_status arm_convolve_wrapper_s16(const cmsis_nn_context* ctx, const cmsis_nn_conv_params* conv_params,
                                             const cmsis_nn_per_channel_quant_params* quant_params,
                                             const cmsis_nn_dims* input_dims, const int16_t* input_data,
                                             const cmsis_nn_dims* filter_dims, const int8_t* filter_data,
                                             const cmsis_nn_dims* bias_dims, const int64_t* bias_data,
                                             const cmsis_nn_dims* output_dims, int16_t* output_data);
int32_t arm_convolve_wrapper_s16_get_buffer_size(const cmsis_nn_conv_params* conv_params,
                                                 const cmsis_nn_dims* input_dims, const cmsis_nn_dims* filter_dims,
                                                 const cmsis_nn_dims* output_dims);

/* Depthwise convolution: filter_dims {1, h, w, output channels}, output channel = input channel *
 * ch_mult + m. */
arm_cmsis_nn_status arm_depthwise_conv_wrapper_s8(const cmsis_nn_context* ctx,
                                                  const cmsis_nn_dw_conv_params* dw_conv_params,
                                                  const cmsis_nn_per_channel_quant_params* quant_params,
                                                  const cmsis_nn_dims* input_dims, const int8_t* input_data,
                                                  const cmsis_nn_dims* filter_dims, const int8_t* filter_data,
                                                  const cmsis_nn_dims* bias_dims, const int32_t* bias_data,
                                                  const cmsis_nn_dims* output_dims, int8_t* output_data);
int32_t arm_depthwise_conv_wrapper_s8_get_buffer_size(const cmsis_nn_dw_conv_params* dw_conv_params,
                                                      const cmsis_nn_dims* input_dims, const cmsis_nn_dims* filter_dims,
                                                      const cmsis_nn_dims* output_dims);
arm_cmsis_nn_status arm_depthwise_conv_wrapper_s16(const cmsis_nn_context* ctx,
                                                   const cmsis_nn_dw_conv_params* dw_conv_params,
                                                   const cmsis_nn_per_channel_quant_params* quant_params,
                                                   const cmsis_nn_dims* input_dims, const int16_t* input_data,
                                                   const cmsis_nn_dims* filter_dims, const int8_t* filter_data,
                                                   const cmsis_nn_dims* bias_dims, const int64_t* bias_data,
                                                   const cmsis_nn_dims* output_dims, int16_t* output_data);
int32_t arm_depthwise_conv_wrapper_s16_get_buffer_size(const cmsis_nn_dw_conv_params* dw_conv_params,
                                                       const cmsis_nn_dims* input_dims,
                                                       const cmsis_nn_dims* filter_dims,
                                                       const cmsis_nn_dims* output_dims);

/* Fully connected: filter_dims->n is the accumulation depth, output_dims->c the output count; the
 * filter holds one row of accumulation depth per output. */
arm_cmsis_nn_status arm_fully_connected_s8(const cmsis_nn_context* ctx, const cmsis_nn_fc_params* fc_params,
                                           const cmsis_nn_per_tensor_quant_params* quant_params,
                                           const cmsis_nn_dims* input_dims, const int8_t* input_data,
                                           const cmsis_nn_dims* filter_dims, const int8_t* filter_data,
                                           const cmsis_nn_dims* bias_dims, const int32_t* bias_data,
                                           const cmsis_nn_dims* output_dims, int8_t* output_data);
int32_t arm_fully_connected_s8_get_buffer_size(const cmsis_nn_dims* filter_dims);
arm_cmsis_nn_status arm_fully_connected_s16(const cmsis_nn_context* ctx, const cmsis_nn_fc_params* fc_params,
                                            const cmsis_nn_per_tensor_quant_params* quant_params,
                                            const cmsis_nn_dims* input_dims, const int16_t* input_data,
                                            const cmsis_nn_dims* filter_dims, const int8_t* filter_data,
                                            const cmsis_nn_dims* bias_dims, const int64_t* bias_data,
                                            const cmsis_nn_dims* output_dims, int16_t* output_data);
int32_t arm_fully_connected_s16_get_buffer_size(const cmsis_nn_dims* filter_dims);

/* Pooling: filter_dims->h and ->w are the window; padded positions are left out of the window. */
arm_cmsis_nn_status arm_avgpool_s8(const cmsis_nn_context* ctx, const cmsis_nn_pool_params* pool_params,
                                   const cmsis_nn_dims* input_dims, const int8_t* input_data,
                                   const cmsis_nn_dims* filter_dims, const cmsis_nn_dims* output_dims,
                                   int8_t* output_data);
int32_t arm_avgpool_s8_get_buffer_size(const int dim_dst_width, const int ch_src);
arm_cmsis_nn_status arm_avgpool_s16(const cmsis_nn_context* ctx, const cmsis_nn_pool_params* pool_params,
                                    const cmsis_nn_dims* input_dims, const int16_t* input_data,
                                    const cmsis_nn_dims* filter_dims, const cmsis_nn_dims* output_dims,
                                    int16_t* output_data);
int32_t arm_avgpool_s16_get_buffer_size(const int dim_dst_width, const int ch_src);
arm_cmsis_nn_status arm_max_pool_s8(const cmsis_nn_context* ctx, const cmsis_nn_pool_params* pool_params,
                                    const cmsis_nn_dims* input_dims, const int8_t* input_data,
                                    const cmsis_nn_dims* filter_dims, const cmsis_nn_dims* output_dims,
                                    int8_t* output_data);
arm_cmsis_nn_status arm_max_pool_s16(const cmsis_nn_context* ctx, const cmsis_nn_pool_params* pool_params,
                                     const cmsis_nn_dims* input_dims, const int16_t* input_data,
                                     const cmsis_nn_dims* filter_dims, const cmsis_nn_dims* output_dims,
                                     int16_t* output_data);

/* Softmax over each of num_rows rows of row_size values. */
void arm_softmax_s8(const int8_t* input, const int32_t num_rows, const int32_t row_size, const int32_t mult,
                    const int32_t shift, const int32_t diff_min, int8_t* output);
arm_cmsis_nn_status arm_softmax_s16(const int16_t* input, const int32_t num_rows, const int32_t row_size,
                                    const int32_t mult, const int32_t shift,
                                    const cmsis_nn_softmax_lut_s16* softmax_params, int16_t* output);

/* Element-wise operations on block_size values. */
arm_cmsis_nn_status arm_elementwise_add_s8(
    const int8_t* input_1_vect, const int8_t* input_2_vect, const int32_t input_1_offset, const int32_t input_1_mult,
    const int32_t input_1_shift, const int32_t input_2_offset, const int32_t input_2_mult, const int32_t input_2_shift,
    const int32_t left_shift, int8_t* output, const int32_t out_offset, const int32_t out_mult, const int32_t out_shift,
    const int32_t out_activation_min, const int32_t out_activation_max, const int32_t block_size);
arm_cmsis_nn_status arm_elementwise_add_s16(const int16_t* input_1_vect, const int16_t* input_2_vect,
                                            const int32_t input_1_offset, const int32_t input_1_mult,
                                            const int32_t input_1_shift, const int32_t input_2_offset,
                                            const int32_t input_2_mult, const int32_t input_2_shift,
                                            const int32_t left_shift, int16_t* output, const int32_t out_offset,
                                            const int32_t out_mult, const int32_t out_shift,
                                            const int32_t out_activation_min, const int32_t out_activation_max,
                                            const int32_t block_size);
arm_cmsis_nn_status arm_elementwise_mul_s8(const int8_t* input_1_vect, const int8_t* input_2_vect,
                                           const int32_t input_1_offset, const int32_t input_2_offset, int8_t* output,
                                           const int32_t out_offset, const int32_t out_mult, const int32_t out_shift,
                                           const int32_t out_activation_min, const int32_t out_activation_max,
                                           const int32_t block_size);
arm_cmsis_nn_status arm_elementwise_mul_s16(const int16_t* input_1_vect, const int16_t* input_2_vect,
                                            const int32_t input_1_offset, const int32_t input_2_offset, int16_t* output,
                                            const int32_t out_offset, const int32_t out_mult, const int32_t out_shift,
                                            const int32_t out_activation_min, const int32_t out_activation_max,
                                            const int32_t block_size);

#ifdef __cplusplus
}
#endif

#endif
