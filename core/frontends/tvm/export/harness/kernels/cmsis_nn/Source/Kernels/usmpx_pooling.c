/* Average and max pooling, int8 and int16, as TFLite's reference kernels compute them: the window
 * covers only positions inside the input; the average rounds half away from zero; then clamp. */
#include "usmpx_nn_internal.h"

typedef enum { USMPX_POOL_AVERAGE, USMPX_POOL_MAX } usmpx_pool_kind;

static arm_cmsis_nn_status pool(usmpx_pool_kind kind, int wide, const cmsis_nn_pool_params* p,
                                const cmsis_nn_dims* in_dims, const void* input, const cmsis_nn_dims* f_dims,
                                const cmsis_nn_dims* out_dims, void* output) {
  const int32_t channels = in_dims->c;
  if (out_dims->c != channels) return ARM_CMSIS_NN_ARG_ERROR;
  for (int32_t b = 0; b < in_dims->n; ++b) {
    for (int32_t oy = 0; oy < out_dims->h; ++oy) {
      for (int32_t ox = 0; ox < out_dims->w; ++ox) {
        for (int32_t c = 0; c < channels; ++c) {
          int32_t sum = 0, count = 0, max = wide ? INT16_MIN : INT8_MIN;
          for (int32_t ky = 0; ky < f_dims->h; ++ky) {
            const int32_t iy = oy * p->stride.h - p->padding.h + ky;
            if (iy < 0 || iy >= in_dims->h) continue;
            for (int32_t kx = 0; kx < f_dims->w; ++kx) {
              const int32_t ix = ox * p->stride.w - p->padding.w + kx;
              if (ix < 0 || ix >= in_dims->w) continue;
              const int32_t index = ((b * in_dims->h + iy) * in_dims->w + ix) * channels + c;
              const int32_t v = wide ? ((const int16_t*)input)[index] : ((const int8_t*)input)[index];
              sum += v;
              max = v > max ? v : max;
              ++count;
            }
          }
          int32_t out = max;
          if (kind == USMPX_POOL_AVERAGE) {
            if (count == 0) return ARM_CMSIS_NN_ARG_ERROR;
            out = (sum + (sum > 0 ? count / 2 : -(count / 2))) / count;
          }
          out = usmpx_nn_clamp(out, p->activation.min, p->activation.max);
          const int32_t index = ((b * out_dims->h + oy) * out_dims->w + ox) * channels + c;
          if (wide) {
            ((int16_t*)output)[index] = (int16_t)out;
          } else {
            ((int8_t*)output)[index] = (int8_t)out;
          }
        }
      }
    }
  }
  return ARM_CMSIS_NN_SUCCESS;
}

arm_cmsis_nn_status arm_avgpool_s8(const cmsis_nn_context* ctx, const cmsis_nn_pool_params* pool_params,
                                   const cmsis_nn_dims* input_dims, const int8_t* input_data,
                                   const cmsis_nn_dims* filter_dims, const cmsis_nn_dims* output_dims,
                                   int8_t* output_data) {
  usmpx_nn_fill_context(ctx);
  return pool(USMPX_POOL_AVERAGE, 0, pool_params, input_dims, input_data, filter_dims, output_dims, output_data);
}

arm_cmsis_nn_status arm_avgpool_s16(const cmsis_nn_context* ctx, const cmsis_nn_pool_params* pool_params,
                                    const cmsis_nn_dims* input_dims, const int16_t* input_data,
                                    const cmsis_nn_dims* filter_dims, const cmsis_nn_dims* output_dims,
                                    int16_t* output_data) {
  usmpx_nn_fill_context(ctx);
  return pool(USMPX_POOL_AVERAGE, 1, pool_params, input_dims, input_data, filter_dims, output_dims, output_data);
}

arm_cmsis_nn_status arm_max_pool_s8(const cmsis_nn_context* ctx, const cmsis_nn_pool_params* pool_params,
                                    const cmsis_nn_dims* input_dims, const int8_t* input_data,
                                    const cmsis_nn_dims* filter_dims, const cmsis_nn_dims* output_dims,
                                    int8_t* output_data) {
  usmpx_nn_fill_context(ctx);
  return pool(USMPX_POOL_MAX, 0, pool_params, input_dims, input_data, filter_dims, output_dims, output_data);
}

arm_cmsis_nn_status arm_max_pool_s16(const cmsis_nn_context* ctx, const cmsis_nn_pool_params* pool_params,
                                     const cmsis_nn_dims* input_dims, const int16_t* input_data,
                                     const cmsis_nn_dims* filter_dims, const cmsis_nn_dims* output_dims,
                                     int16_t* output_data) {
  usmpx_nn_fill_context(ctx);
  return pool(USMPX_POOL_MAX, 1, pool_params, input_dims, input_data, filter_dims, output_dims, output_data);
}

/* One int32 sum per channel, as CMSIS-NN's DSP path asks (what TVM's codegen reserves). */
int32_t arm_avgpool_s8_get_buffer_size(const int dim_dst_width, const int ch_src) {
  (void)dim_dst_width;
  return ch_src * (int32_t)sizeof(int32_t);
}

int32_t arm_avgpool_s16_get_buffer_size(const int dim_dst_width, const int ch_src) {
  return arm_avgpool_s8_get_buffer_size(dim_dst_width, ch_src);
}
