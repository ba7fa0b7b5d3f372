/* Fully connected, int8 and int16, as TFLite's reference kernels compute it: offsets added to
 * input and filter values, bias added, per-tensor requantisation, output offset, clamp. */
#include "usmpx_nn_internal.h"

arm_cmsis_nn_status arm_fully_connected_s8(const cmsis_nn_context* ctx, const cmsis_nn_fc_params* fc_params,
                                           const cmsis_nn_per_tensor_quant_params* quant_params,
                                           const cmsis_nn_dims* input_dims, const int8_t* input_data,
                                           const cmsis_nn_dims* filter_dims, const int8_t* filter_data,
                                           const cmsis_nn_dims* bias_dims, const int32_t* bias_data,
                                           const cmsis_nn_dims* output_dims, int8_t* output_data) {
  (void)bias_dims;
  usmpx_nn_fill_context(ctx);
  const int32_t depth = filter_dims->n, outputs = output_dims->c;
  for (int32_t b = 0; b < input_dims->n; ++b) {
    for (int32_t o = 0; o < outputs; ++o) {
      int32_t acc = bias_data ? bias_data[o] : 0;
      for (int32_t k = 0; k < depth; ++k)
        acc += (input_data[b * depth + k] + fc_params->input_offset) *
               (filter_data[o * depth + k] + fc_params->filter_offset);
      const int32_t out = arm_nn_requantize(acc, quant_params->multiplier, quant_params->shift);
      output_data[b * outputs + o] =
          (int8_t)usmpx_nn_clamp(out + fc_params->output_offset, fc_params->activation.min, fc_params->activation.max);
    }
  }
  return ARM_CMSIS_NN_SUCCESS;
}

arm_cmsis_nn_status arm_fully_connected_s16(const cmsis_nn_context* ctx, const cmsis_nn_fc_params* fc_params,
                                            const cmsis_nn_per_tensor_quant_params* quant_params,
                                            const cmsis_nn_dims* input_dims, const int16_t* input_data,
                                            const cmsis_nn_dims* filter_dims, const int8_t* filter_data,
                                            const cmsis_nn_dims* bias_dims, const int64_t* bias_data,
                                            const cmsis_nn_dims* output_dims, int16_t* output_data) {
  (void)bias_dims;
  usmpx_nn_fill_context(ctx);
  const int32_t depth = filter_dims->n, outputs = output_dims->c;
  for (int32_t b = 0; b < input_dims->n; ++b) {
    for (int32_t o = 0; o < outputs; ++o) {
      int64_t acc = bias_data ? bias_data[o] : 0;
      for (int32_t k = 0; k < depth; ++k)
        acc += (int64_t)(input_data[b * depth + k] + fc_params->input_offset) *
               (filter_data[o * depth + k] + fc_params->filter_offset);
      const int32_t out = arm_nn_requantize_s64(acc, quant_params->multiplier, quant_params->shift);
      output_data[b * outputs + o] =
          (int16_t)usmpx_nn_clamp(out + fc_params->output_offset, fc_params->activation.min, fc_params->activation.max);
    }
  }
  return ARM_CMSIS_NN_SUCCESS;
}

/* These kernels need no scratch: the filter is used as given. */
int32_t arm_fully_connected_s8_get_buffer_size(const cmsis_nn_dims* filter_dims) {
  (void)filter_dims;
  return 0;
}

int32_t arm_fully_connected_s16_get_buffer_size(const cmsis_nn_dims* filter_dims) {
  (void)filter_dims;
  return 0;
}
