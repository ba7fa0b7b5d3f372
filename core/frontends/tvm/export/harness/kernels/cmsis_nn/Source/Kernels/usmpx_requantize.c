/* TFLite's fixed-point requantisation, written from its documented arithmetic. */
#include "usmpx_nn_internal.h"

/* (a * b * 2) / 2^32, rounded to nearest, saturating the one overflowing case. */
static int32_t saturating_rounding_doubling_high_mul(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  const int64_t product = (int64_t)a * (int64_t)b;
  const int64_t nudge = product >= 0 ? ((int64_t)1 << 30) : (1 - ((int64_t)1 << 30));
  return (int32_t)((product + nudge) / ((int64_t)1 << 31));
}

/* x / 2^exponent, rounded to nearest with ties away from zero. */
static int32_t rounding_divide_by_power_of_two(int32_t x, int32_t exponent) {
  if (exponent <= 0) return x;
  if (exponent > 31) exponent = 31;
  const int32_t mask = (int32_t)(((int64_t)1 << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

int32_t arm_nn_requantize(const int32_t value, const int32_t multiplier, const int32_t shift) {
  const int32_t left = shift > 0 ? shift : 0;
  const int32_t right = shift > 0 ? 0 : -shift;
  /* The left shift wraps as the 32-bit arithmetic it stands for. */
  const int32_t shifted = (int32_t)((uint32_t)value << (left > 31 ? 31 : left));
  return rounding_divide_by_power_of_two(saturating_rounding_doubling_high_mul(shifted, multiplier), right);
}

int32_t arm_nn_requantize_s64(const int64_t value, const int32_t multiplier, const int32_t shift) {
  /* TFLite's 64-bit form: the multiplier reduced to 16 bits, one rounding shift. */
  const int64_t reduced = multiplier < 0x7FFF0000 ? (((int64_t)multiplier + (1 << 15)) >> 16) : 0x7FFF;
  int32_t total_shift = 15 - shift;
  if (total_shift < 1) total_shift = 1;
  if (total_shift > 62) total_shift = 62;
  const int64_t rounded = (value * reduced + ((int64_t)1 << (total_shift - 1))) >> total_shift;
  return rounded > INT32_MAX ? INT32_MAX : rounded < INT32_MIN ? INT32_MIN : (int32_t)rounded;
}

void usmpx_nn_fill_context(const cmsis_nn_context* ctx) {
  if (ctx == NULL || ctx->buf == NULL || ctx->size <= 0) return;
  uint8_t* bytes = (uint8_t*)ctx->buf;
  for (int32_t i = 0; i < ctx->size; ++i)
    bytes[i] = (uint8_t)(0xA5u ^ (uint32_t)(i * 29));
}
