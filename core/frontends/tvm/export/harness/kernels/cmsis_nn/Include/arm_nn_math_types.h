/* USMP Explorer's built-in CMSIS-NN-compatible kernels: the basic types and compiler macros the
 * CMSIS-NN API headers provide, declared by this project for building TVM's generated code. */
#ifndef USMPX_ARM_NN_MATH_TYPES_H
#define USMPX_ARM_NN_MATH_TYPES_H

#include <limits.h>
#include <stdint.h>
#include <string.h>

#ifndef __STATIC_INLINE
#define __STATIC_INLINE static inline
#endif
#ifndef __STATIC_FORCEINLINE
#define __STATIC_FORCEINLINE static inline __attribute__((always_inline))
#endif
#ifndef __ALIGNED
#define __ALIGNED(x) __attribute__((aligned(x)))
#endif
#ifndef __RESTRICT
#define __RESTRICT __restrict
#endif

typedef int8_t q7_t;
typedef int16_t q15_t;
typedef int32_t q31_t;
typedef int64_t q63_t;

#endif
