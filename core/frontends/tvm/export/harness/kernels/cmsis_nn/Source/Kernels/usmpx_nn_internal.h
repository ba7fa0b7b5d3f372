/* Helpers shared by USMP Explorer's built-in CMSIS-NN-compatible kernels. */
#ifndef USMPX_NN_INTERNAL_H
#define USMPX_NN_INTERNAL_H

/* The kernels are portable C: they use none of the Arm intrinsics the support header maps. */
#define USMPX_NN_NO_INTRINSICS
#include "arm_nnfunctions.h"
#include "arm_nnsupportfunctions.h"

/* Writes a position-dependent pattern over the whole context buffer before a kernel runs: a
 * re-plan that lets the buffer overlap a live tensor changes that tensor, and so the outputs. */
void usmpx_nn_fill_context(const cmsis_nn_context* ctx);

static inline int32_t usmpx_nn_clamp(int32_t value, int32_t low, int32_t high) {
  return value < low ? low : value > high ? high : value;
}

#endif
