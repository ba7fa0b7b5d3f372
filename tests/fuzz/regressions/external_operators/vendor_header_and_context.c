// tvm target: cmsis-nn 
#define TVM_EXPORTS
#include "tvm/runtime/c_runtime_api.h"
#include "tvm/runtime/c_backend_api.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <dlpack/dlpack.h>
#include <arm_nnfunctions.h>
#include <arm_nn_types.h>
#include <arm_nn_math_types.h>
#include <vendor/npu_kernels.h>
#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_default_cmsis_nn_main_0(int8_t* input_0_, int8_t* input_1_, int8_t* output_, uint8_t* global_const_workspace_2_var, uint8_t* global_workspace_3_var) {
  arm_elementwise_add_s8(input_0_, input_1_, 128, 1623821475, -2, -4, 1073741824, 0, 20, output_, -128, 1098017566, -17, -128, 127, 16);
  return 0;
}

#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_default_cmsis_nn_main_1(int8_t* input_0_, int8_t* input_1_, int8_t* output_, uint8_t* global_const_workspace_6_var, uint8_t* global_workspace_7_var) {
  arm_elementwise_add_s8(input_0_, input_1_, 17, 1699529983, -2, -4, 1073741824, 0, 20, output_, -128, 1140768826, -17, -128, 127, 16);
  return 0;
}

#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_default_cmsis_nn_main_2(int8_t* input_, int8_t* output_, uint8_t* global_const_workspace_8_var, uint8_t* global_workspace_9_var) {
  void* context_buffer_0_let = (&(global_workspace_9_var[48]));
  vendor_ctx_t ctx = {context_buffer_0_let, 32};
  cmsis_nn_context context= {context_buffer_0_let,32};
  cmsis_nn_dims input_dims = {1,1,1,16};
  vendor_softmax(&ctx, &input_dims, input_, &input_dims, output_);
  arm_softmax_s8(input_, 1, 16, 1476210432, 24, -124, output_);
  return 0;
}

