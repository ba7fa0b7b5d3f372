/* Softmax, int8 and int16. The int8 kernel follows TFLite's scheme (differences to the row's
 * maximum, rescaled to a fixed-point number with 5 integer bits, exponentials of those, divided
 * by their sum, output scale 1/256 with offset -128) with an exponential computed here in
 * integers, so that every target computes the same bits. */
#include "usmpx_nn_internal.h"

#define USMPX_LOG2_E_Q30 1549082005LL /* log2(e) * 2^30 */
#define USMPX_LN_2_Q30 744261118LL    /* ln(2) * 2^30 */

/* e^(x / 2^26) for x <= 0, as a fraction of 2^31 (so 1.0 is 2^31). */
static int64_t exp_q26_to_q31(int32_t x) {
  if (x > 0) x = 0;
  const int64_t t = ((int64_t)x * USMPX_LOG2_E_Q30) >> 30; /* x * log2(e), 26 fraction bits */
  const int64_t whole = t >> 26;                           /* floor: <= 0 */
  const int64_t fraction = t - whole * ((int64_t)1 << 26); /* [0, 2^26) */
  if (whole < -40) return 0;
  /* 2^fraction = e^(fraction * ln 2), a Taylor series in 30-bit fixed point, Horner's rule. */
  const int64_t one = (int64_t)1 << 30;
  const int64_t z = (fraction * USMPX_LN_2_Q30) >> 26;
  int64_t series = one;
  for (int64_t k = 12; k >= 1; --k)
    series = one + ((series * z) >> 30) / k;
  return (series << 1) >> (-whole);
}

void arm_softmax_s8(const int8_t* input, const int32_t num_rows, const int32_t row_size, const int32_t mult,
                    const int32_t shift, const int32_t diff_min, int8_t* output) {
  for (int32_t r = 0; r < num_rows; ++r) {
    const int8_t* in = input + r * row_size;
    int8_t* out = output + r * row_size;
    int32_t max = INT8_MIN;
    for (int32_t i = 0; i < row_size; ++i)
      max = in[i] > max ? in[i] : max;
    int64_t sum = 0;
    for (int32_t i = 0; i < row_size; ++i) {
      const int32_t diff = in[i] - max;
      if (diff >= diff_min) sum += exp_q26_to_q31(arm_nn_requantize(diff, mult, shift));
    }
    for (int32_t i = 0; i < row_size; ++i) {
      const int32_t diff = in[i] - max;
      int32_t value = -128;
      if (diff >= diff_min && sum > 0) {
        const int64_t e = exp_q26_to_q31(arm_nn_requantize(diff, mult, shift));
        value = (int32_t)((e * 256 + sum / 2) / sum) - 128;
      }
      out[i] = (int8_t)usmpx_nn_clamp(value, INT8_MIN, INT8_MAX);
    }
  }
}

/* A 513-entry table over the int16 range, linearly interpolated (TFLite's int16 lookup scheme). */
static int32_t lookup(const int16_t* lut, int32_t x) {
  const int32_t u = usmpx_nn_clamp(x, INT16_MIN, INT16_MAX) + 32768;
  const int32_t i = u >> 7, fraction = u & 127;
  const int32_t base = lut[i], next = lut[i + 1];
  return base + (((next - base) * fraction + 64) >> 7);
}

/* The int16 kernel takes exponentials from the caller's table and divides exactly (where TFLite
 * uses its 1/(1+x) table): output scale 1/32768, no offset. */
arm_cmsis_nn_status arm_softmax_s16(const int16_t* input, const int32_t num_rows, const int32_t row_size,
                                    const int32_t mult, const int32_t shift,
                                    const cmsis_nn_softmax_lut_s16* softmax_params, int16_t* output) {
  if (softmax_params == NULL || softmax_params->exp_lut == NULL) return ARM_CMSIS_NN_ARG_ERROR;
  for (int32_t r = 0; r < num_rows; ++r) {
    const int16_t* in = input + r * row_size;
    int16_t* out = output + r * row_size;
    int32_t max = INT16_MIN;
    for (int32_t i = 0; i < row_size; ++i)
      max = in[i] > max ? in[i] : max;
    int64_t sum = 0;
    for (int32_t i = 0; i < row_size; ++i)
      sum += lookup(softmax_params->exp_lut, arm_nn_requantize(in[i] - max, mult, shift) + 32767);
    for (int32_t i = 0; i < row_size; ++i) {
      const int64_t e = lookup(softmax_params->exp_lut, arm_nn_requantize(in[i] - max, mult, shift) + 32767);
      const int64_t value = sum > 0 ? (e * 32767 + sum / 2) / sum : 0;
      out[i] = (int16_t)usmpx_nn_clamp((int32_t)value, INT16_MIN, INT16_MAX);
    }
  }
  return ARM_CMSIS_NN_SUCCESS;
}
