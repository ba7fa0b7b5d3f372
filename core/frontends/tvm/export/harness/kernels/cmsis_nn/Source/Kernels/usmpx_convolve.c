/* Convolution and depthwise convolution, int8 and int16, as TFLite's reference kernels compute
 * them: positions in the padding contribute nothing, the input offset is added to every input
 * value, the bias to the accumulator, then per-channel requantisation, output offset, clamp. */
#include "usmpx_nn_internal.h"

/* A tensor of int8 or int16 values. */
typedef struct {
  const void* data;
  int wide; /* int16 when set */
} usmpx_values;

static inline int32_t value_at(usmpx_values v, int32_t index) {
  return v.wide ? ((const int16_t*)v.data)[index] : ((const int8_t*)v.data)[index];
}

/* The arguments both convolution forms share. */
typedef struct {
  int32_t input_offset, output_offset, ch_mult;
  cmsis_nn_tile stride, padding, dilation;
  cmsis_nn_activation activation;
} usmpx_conv_shape;

static int32_t requantize_accumulator(int64_t acc, int wide, int32_t multiplier, int32_t shift) {
  return wide ? arm_nn_requantize_s64(acc, multiplier, shift) : arm_nn_requantize((int32_t)acc, multiplier, shift);
}

static void store_output(void* output, int wide, int32_t index, int32_t value) {
  if (wide) {
    ((int16_t*)output)[index] = (int16_t)value;
  } else {
    ((int8_t*)output)[index] = (int8_t)value;
  }
}

static int64_t bias_of(const void* bias, int wide, int32_t channel) {
  if (bias == NULL) return 0;
  return wide ? ((const int64_t*)bias)[channel] : ((const int32_t*)bias)[channel];
}

static arm_cmsis_nn_status convolve(const usmpx_conv_shape* s, const cmsis_nn_per_channel_quant_params* q,
                                    const cmsis_nn_dims* in_dims, usmpx_values input, const cmsis_nn_dims* f_dims,
                                    const int8_t* filter, const void* bias, const cmsis_nn_dims* out_dims,
                                    void* output) {
  const int32_t in_c = in_dims->c, f_c = f_dims->c, out_c = out_dims->c;
  if (f_c <= 0 || in_c % f_c != 0 || out_c % (in_c / f_c) != 0) return ARM_CMSIS_NN_ARG_ERROR;
  const int32_t groups = in_c / f_c, per_group = out_c / groups;
  for (int32_t b = 0; b < out_dims->n; ++b) {
    for (int32_t oy = 0; oy < out_dims->h; ++oy) {
      for (int32_t ox = 0; ox < out_dims->w; ++ox) {
        for (int32_t oc = 0; oc < out_c; ++oc) {
          const int32_t first_in_c = (oc / per_group) * f_c;
          int64_t acc = 0;
          for (int32_t ky = 0; ky < f_dims->h; ++ky) {
            const int32_t iy = oy * s->stride.h - s->padding.h + ky * s->dilation.h;
            if (iy < 0 || iy >= in_dims->h) continue;
            for (int32_t kx = 0; kx < f_dims->w; ++kx) {
              const int32_t ix = ox * s->stride.w - s->padding.w + kx * s->dilation.w;
              if (ix < 0 || ix >= in_dims->w) continue;
              const int32_t in_base = ((b * in_dims->h + iy) * in_dims->w + ix) * in_c + first_in_c;
              const int32_t f_base = ((oc * f_dims->h + ky) * f_dims->w + kx) * f_c;
              for (int32_t ic = 0; ic < f_c; ++ic)
                acc += (int64_t)(value_at(input, in_base + ic) + s->input_offset) * filter[f_base + ic];
            }
          }
          acc += bias_of(bias, input.wide, oc);
          const int32_t out = requantize_accumulator(acc, input.wide, q->multiplier[oc], q->shift[oc]);
          const int32_t index = ((b * out_dims->h + oy) * out_dims->w + ox) * out_c + oc;
          store_output(output, input.wide, index,
                       usmpx_nn_clamp(out + s->output_offset, s->activation.min, s->activation.max));
        }
      }
    }
  }
  return ARM_CMSIS_NN_SUCCESS;
}

static arm_cmsis_nn_status depthwise(const usmpx_conv_shape* s, const cmsis_nn_per_channel_quant_params* q,
                                     const cmsis_nn_dims* in_dims, usmpx_values input, const cmsis_nn_dims* f_dims,
                                     const int8_t* filter, const void* bias, const cmsis_nn_dims* out_dims,
                                     void* output) {
  const int32_t in_c = in_dims->c, out_c = out_dims->c, mult = s->ch_mult > 0 ? s->ch_mult : 1;
  if (out_c != in_c * mult) return ARM_CMSIS_NN_ARG_ERROR;
  for (int32_t b = 0; b < out_dims->n; ++b) {
    for (int32_t oy = 0; oy < out_dims->h; ++oy) {
      for (int32_t ox = 0; ox < out_dims->w; ++ox) {
        for (int32_t oc = 0; oc < out_c; ++oc) {
          const int32_t ic = oc / mult;
          int64_t acc = 0;
          for (int32_t ky = 0; ky < f_dims->h; ++ky) {
            const int32_t iy = oy * s->stride.h - s->padding.h + ky * s->dilation.h;
            if (iy < 0 || iy >= in_dims->h) continue;
            for (int32_t kx = 0; kx < f_dims->w; ++kx) {
              const int32_t ix = ox * s->stride.w - s->padding.w + kx * s->dilation.w;
              if (ix < 0 || ix >= in_dims->w) continue;
              const int32_t in_index = ((b * in_dims->h + iy) * in_dims->w + ix) * in_c + ic;
              const int32_t f_index = (ky * f_dims->w + kx) * out_c + oc;
              acc += (int64_t)(value_at(input, in_index) + s->input_offset) * filter[f_index];
            }
          }
          acc += bias_of(bias, input.wide, oc);
          const int32_t out = requantize_accumulator(acc, input.wide, q->multiplier[oc], q->shift[oc]);
          const int32_t index = ((b * out_dims->h + oy) * out_dims->w + ox) * out_c + oc;
          store_output(output, input.wide, index,
                       usmpx_nn_clamp(out + s->output_offset, s->activation.min, s->activation.max));
        }
      }
    }
  }
  return ARM_CMSIS_NN_SUCCESS;
}

static usmpx_conv_shape conv_shape(const cmsis_nn_conv_params* p) {
  usmpx_conv_shape s = {p->input_offset, p->output_offset, 1, p->stride, p->padding, p->dilation, p->activation};
  return s;
}

static usmpx_conv_shape dw_shape(const cmsis_nn_dw_conv_params* p) {
  usmpx_conv_shape s = {p->input_offset, p->output_offset, p->ch_mult,   p->stride,
                        p->padding,      p->dilation,      p->activation};
  return s;
}

arm_cmsis_nn_status arm_convolve_wrapper_s8(const cmsis_nn_context* ctx, const cmsis_nn_conv_params* conv_params,
                                            const cmsis_nn_per_channel_quant_params* quant_params,
                                            const cmsis_nn_dims* input_dims, const int8_t* input_data,
                                            const cmsis_nn_dims* filter_dims, const int8_t* filter_data,
                                            const cmsis_nn_dims* bias_dims, const int32_t* bias_data,
                                            const cmsis_nn_dims* output_dims, int8_t* output_data) {
  (void)bias_dims;
  usmpx_nn_fill_context(ctx);
  const usmpx_conv_shape s = conv_shape(conv_params);
  const usmpx_values in = {input_data, 0};
  return convolve(&s, quant_params, input_dims, in, filter_dims, filter_data, bias_data, output_dims, output_data);
}

arm_cmsis_nn_status arm_convolve_wrapper_s16(const cmsis_nn_context* ctx, const cmsis_nn_conv_params* conv_params,
                                             const cmsis_nn_per_channel_quant_params* quant_params,
                                             const cmsis_nn_dims* input_dims, const int16_t* input_data,
                                             const cmsis_nn_dims* filter_dims, const int8_t* filter_data,
                                             const cmsis_nn_dims* bias_dims, const int64_t* bias_data,
                                             const cmsis_nn_dims* output_dims, int16_t* output_data) {
  (void)bias_dims;
  usmpx_nn_fill_context(ctx);
  const usmpx_conv_shape s = conv_shape(conv_params);
  const usmpx_values in = {input_data, 1};
  return convolve(&s, quant_params, input_dims, in, filter_dims, filter_data, bias_data, output_dims, output_data);
}

arm_cmsis_nn_status arm_depthwise_conv_wrapper_s8(const cmsis_nn_context* ctx,
                                                  const cmsis_nn_dw_conv_params* dw_conv_params,
                                                  const cmsis_nn_per_channel_quant_params* quant_params,
                                                  const cmsis_nn_dims* input_dims, const int8_t* input_data,
                                                  const cmsis_nn_dims* filter_dims, const int8_t* filter_data,
                                                  const cmsis_nn_dims* bias_dims, const int32_t* bias_data,
                                                  const cmsis_nn_dims* output_dims, int8_t* output_data) {
  (void)bias_dims;
  usmpx_nn_fill_context(ctx);
  const usmpx_conv_shape s = dw_shape(dw_conv_params);
  const usmpx_values in = {input_data, 0};
  return depthwise(&s, quant_params, input_dims, in, filter_dims, filter_data, bias_data, output_dims, output_data);
}

arm_cmsis_nn_status arm_depthwise_conv_wrapper_s16(const cmsis_nn_context* ctx,
                                                   const cmsis_nn_dw_conv_params* dw_conv_params,
                                                   const cmsis_nn_per_channel_quant_params* quant_params,
                                                   const cmsis_nn_dims* input_dims, const int16_t* input_data,
                                                   const cmsis_nn_dims* filter_dims, const int8_t* filter_data,
                                                   const cmsis_nn_dims* bias_dims, const int64_t* bias_data,
                                                   const cmsis_nn_dims* output_dims, int16_t* output_data) {
  (void)bias_dims;
  usmpx_nn_fill_context(ctx);
  const usmpx_conv_shape s = dw_shape(dw_conv_params);
  const usmpx_values in = {input_data, 1};
  return depthwise(&s, quant_params, input_dims, in, filter_dims, filter_data, bias_data, output_dims, output_data);
}

/* The scratch sizes the DSP paths of CMSIS-NN ask for (two im2col columns of int16 for a
 * convolution, one for a depthwise one), which is what TVM's codegen reserves; these kernels use
 * the buffer only to fill it. */
int32_t arm_convolve_wrapper_s8_get_buffer_size(const cmsis_nn_conv_params* conv_params,
                                                const cmsis_nn_dims* input_dims, const cmsis_nn_dims* filter_dims,
                                                const cmsis_nn_dims* output_dims) {
  (void)conv_params;
  (void)output_dims;
  return 2 * input_dims->c * filter_dims->w * filter_dims->h * (int32_t)sizeof(int16_t);
}

int32_t arm_convolve_wrapper_s16_get_buffer_size(const cmsis_nn_conv_params* conv_params,
                                                 const cmsis_nn_dims* input_dims, const cmsis_nn_dims* filter_dims,
                                                 const cmsis_nn_dims* output_dims) {
  return arm_convolve_wrapper_s8_get_buffer_size(conv_params, input_dims, filter_dims, output_dims);
}

int32_t arm_depthwise_conv_wrapper_s8_get_buffer_size(const cmsis_nn_dw_conv_params* dw_conv_params,
                                                      const cmsis_nn_dims* input_dims, const cmsis_nn_dims* filter_dims,
                                                      const cmsis_nn_dims* output_dims) {
  (void)output_dims;
  if (dw_conv_params->ch_mult != 1) return 0;
  return input_dims->c * filter_dims->w * filter_dims->h * (int32_t)sizeof(int16_t);
}

int32_t arm_depthwise_conv_wrapper_s16_get_buffer_size(const cmsis_nn_dw_conv_params* dw_conv_params,
                                                       const cmsis_nn_dims* input_dims,
                                                       const cmsis_nn_dims* filter_dims,
                                                       const cmsis_nn_dims* output_dims) {
  return arm_depthwise_conv_wrapper_s8_get_buffer_size(dw_conv_params, input_dims, filter_dims, output_dims);
}
