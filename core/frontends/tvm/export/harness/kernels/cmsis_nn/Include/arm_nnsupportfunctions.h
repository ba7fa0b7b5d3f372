/* USMP Explorer's built-in CMSIS-NN-compatible kernels: the support helpers generated code may
 * use from CMSIS-NN's support header (min / max / clamp, the word readers and read_and_pad that
 * TVM's Arm DSP schedules call, and TFLite's requantisation), written from their documented
 * semantics in portable C. */
#ifndef USMPX_ARM_NNSUPPORTFUNCTIONS_H
#define USMPX_ARM_NNSUPPORTFUNCTIONS_H

#include "arm_nn_math_types.h"
#include "arm_nn_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef MAX
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#endif
#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif
#ifndef CLAMP
#define CLAMP(x, high, low) MAX(MIN((x), (high)), (low))
#endif

/* The word readers and writers: four int8 (two int16) values as one 32-bit word, in memory order
 * (little-endian), through memcpy so that no alignment is assumed; the _ia forms advance the
 * pointer past what they read or wrote. */
__STATIC_FORCEINLINE int32_t arm_nn_read_s8x4(const int8_t* in) {
  int32_t word;
  memcpy(&word, in, 4);
  return word;
}
__STATIC_FORCEINLINE int32_t arm_nn_read_s16x2(const int16_t* in) {
  int32_t word;
  memcpy(&word, in, 4);
  return word;
}
__STATIC_FORCEINLINE int32_t arm_nn_read_s8x4_ia(const int8_t** in) {
  const int32_t word = arm_nn_read_s8x4(*in);
  *in += 4;
  return word;
}
__STATIC_FORCEINLINE int32_t arm_nn_read_s16x2_ia(const int16_t** in) {
  const int32_t word = arm_nn_read_s16x2(*in);
  *in += 2;
  return word;
}
__STATIC_FORCEINLINE void arm_nn_write_s8x4_ia(int8_t** out, int32_t word) {
  memcpy(*out, &word, 4);
  *out += 4;
}
/* The same under their older q7/q15 names. */
__STATIC_FORCEINLINE int32_t arm_nn_read_q7x4(const q7_t* in) {
  return arm_nn_read_s8x4(in);
}
__STATIC_FORCEINLINE int32_t arm_nn_read_q15x2(const q15_t* in) {
  return arm_nn_read_s16x2(in);
}
__STATIC_FORCEINLINE int32_t arm_nn_read_q7x4_ia(const q7_t** in) {
  return arm_nn_read_s8x4_ia(in);
}
__STATIC_FORCEINLINE int32_t arm_nn_read_q15x2_ia(const q15_t** in) {
  return arm_nn_read_s16x2_ia(in);
}
__STATIC_FORCEINLINE void arm_nn_write_q7x4_ia(q7_t** out, int32_t word) {
  arm_nn_write_s8x4_ia(out, word);
}

/* Two int16 values in one word: `low` in bits 0..15, `high` in bits 16..31. */
__STATIC_FORCEINLINE int32_t usmpx_nn_pack16(int32_t low, int32_t high) {
  return (int32_t)(((uint32_t)(uint16_t)low) | ((uint32_t)(uint16_t)high << 16));
}

/* Reads four int8 values s0..s3 and widens them to int16 pairs for the dual multiply-accumulate
 * (SMLAD) of a dot product: *out1 = (s0, s1), *out2 = (s2, s3), low half first. Returns the
 * source advanced by four. */
__STATIC_FORCEINLINE const int8_t* read_and_pad(const int8_t* source, int32_t* out1, int32_t* out2) {
  *out1 = usmpx_nn_pack16(source[0], source[1]);
  *out2 = usmpx_nn_pack16(source[2], source[3]);
  return source + 4;
}

/* The same without restoring the order (what SXTB16 gives directly): *out1 = (s0, s2),
 * *out2 = (s1, s3); used when the other operand was reordered the same way. */
__STATIC_FORCEINLINE const int8_t* read_and_pad_reordered(const int8_t* source, int32_t* out1, int32_t* out2) {
  *out1 = usmpx_nn_pack16(source[0], source[2]);
  *out2 = usmpx_nn_pack16(source[1], source[3]);
  return source + 4;
}

/* round(value * multiplier * 2^(shift - 31)) as TFLite's MultiplyByQuantizedMultiplier. */
int32_t arm_nn_requantize(const int32_t value, const int32_t multiplier, const int32_t shift);
/* The same for a 64-bit accumulator (TFLite's int16 kernels). */
int32_t arm_nn_requantize_s64(const int64_t value, const int32_t multiplier, const int32_t shift);

#ifdef __cplusplus
}
#endif

/* CMSIS-Core's names of the DSP instructions, on the ACLE intrinsics (the toolchain's arm_acle.h on
 * Cortex-M, the harness's C stand-in on the host). */
#if !defined(USMPX_NN_NO_INTRINSICS) && defined(__has_include)
#if __has_include(<arm_acle.h>)
#include <arm_acle.h>
#define __SMLAD(x, y, acc) __smlad((x), (y), (acc))
#define __SMLADX(x, y, acc) __smladx((x), (y), (acc))
#define __SMUAD(x, y) __smuad((x), (y))
#define __SMUSD(x, y) __smusd((x), (y))
#define __SXTB16(x) __sxtb16((x))
#define __UXTB16(x) __uxtb16((x))
#define __SXTAB16(x, y) __sxtab16((x), (y))
#define __QADD(x, y) __qadd((x), (y))
#define __QSUB(x, y) __qsub((x), (y))
#define __QADD16(x, y) __qadd16((x), (y))
#define __QSUB16(x, y) __qsub16((x), (y))
#define __SADD16(x, y) __sadd16((x), (y))
#define __SSUB16(x, y) __ssub16((x), (y))
#define __SMLABB(x, y, acc) __smlabb((x), (y), (acc))
#define __SMULBB(x, y) __smulbb((x), (y))
#define __ROR(x, n) __ror((x), (n))
#define __PKHBT(a, b, s) __pkhbt((a), (b), (s))
#define __PKHTB(a, b, s) __pkhtb((a), (b), (s))
#endif
#endif

#endif
