/* USMP Explorer's built-in CMSIS-NN-compatible kernels: the support helpers generated code may
 * use from CMSIS-NN's support header (min / max / clamp and TFLite's requantisation). */
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
