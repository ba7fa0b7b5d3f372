// tvm target: c -keys=cpu 
#define TVM_EXPORTS
#include "tvm/runtime/c_runtime_api.h"
#include "tvm/runtime/c_backend_api.h"
#include <math.h>
#include <stdbool.h>
#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_default_fused_add(float* p0, float* T_add, uint8_t* global_const_workspace_2_var, uint8_t* global_workspace_3_var);
#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_default_fused_nn_conv1d(float* p0, float* conv1d_ncw, uint8_t* global_const_workspace_4_var, uint8_t* global_workspace_5_var);
#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_default_fused_nn_dense(float* p0, float* T_matmul_NT, uint8_t* global_const_workspace_8_var, uint8_t* global_workspace_9_var);
#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_default_fused_nn_relu(float* p0, float* T_relu, uint8_t* global_const_workspace_6_var, uint8_t* global_workspace_7_var);
#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_default___tvm_main__(float* input_buffer_var, float* output_buffer_var, uint8_t* global_const_workspace_0_var, uint8_t* global_workspace_1_var);
#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_default_fused_add(float* p0, float* T_add, uint8_t* global_const_workspace_2_var, uint8_t* global_workspace_3_var) {
  void* fused_constant_let = (&(global_const_workspace_2_var[288]));
  for (int32_t ax1 = 0; ax1 < 8; ++ax1) {
    T_add[ax1] = (p0[ax1] + ((float*)fused_constant_let)[ax1]);
  }
  return 0;
}

#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_default_fused_nn_conv1d(float* p0, float* conv1d_ncw, uint8_t* global_const_workspace_4_var, uint8_t* global_workspace_5_var) {
  void* fused_constant_1_let = (&(global_const_workspace_4_var[256]));
  void* PaddedInput_let = (&(global_workspace_5_var[128]));
  for (int32_t i1 = 0; i1 < 10; ++i1) {
    ((float*)PaddedInput_let)[i1] = (((1 <= i1) && (i1 < 9)) ? p0[(i1 - 1)] : 0.000000e+00f);
  }
  for (int32_t oc = 0; oc < 2; ++oc) {
    for (int32_t x = 0; x < 8; ++x) {
      conv1d_ncw[((oc * 8) + x)] = 0.000000e+00f;
      for (int32_t k = 0; k < 3; ++k) {
        conv1d_ncw[((oc * 8) + x)] = (conv1d_ncw[((oc * 8) + x)] + (((float*)PaddedInput_let)[(x + k)] * ((float*)fused_constant_1_let)[((oc * 3) + k)]));
      }
    }
  }
  return 0;
}

#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_default_fused_nn_dense(float* p0, float* T_matmul_NT, uint8_t* global_const_workspace_8_var, uint8_t* global_workspace_9_var) {
  void* fused_constant_2_let = (&(global_const_workspace_8_var[0]));
  for (int32_t j = 0; j < 4; ++j) {
    T_matmul_NT[j] = 0.000000e+00f;
    for (int32_t k = 0; k < 16; ++k) {
      T_matmul_NT[j] = (T_matmul_NT[j] + (p0[k] * ((float*)fused_constant_2_let)[((j * 16) + k)]));
    }
  }
  return 0;
}

#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_default_fused_nn_relu(float* p0, float* T_relu, uint8_t* global_const_workspace_6_var, uint8_t* global_workspace_7_var) {
  void* compute_let = (&(global_workspace_7_var[0]));
  for (int32_t i0_i1_fused = 0; i0_i1_fused < 16; ++i0_i1_fused) {
    float v_ = p0[i0_i1_fused];
    ((float*)compute_let)[i0_i1_fused] = ((v_) > (0.000000e+00f) ? (v_) : (0.000000e+00f));
  }
  for (int32_t ax0_ax1_fused = 0; ax0_ax1_fused < 16; ++ax0_ax1_fused) {
    T_relu[ax0_ax1_fused] = ((float*)compute_let)[ax0_ax1_fused];
  }
  return 0;
}

#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_default___tvm_main__(float* input_buffer_var, float* output_buffer_var, uint8_t* global_const_workspace_0_var, uint8_t* global_workspace_1_var) {
  void* sid_1_let = (&(global_workspace_1_var[176]));
  void* sid_2_let = (&(global_workspace_1_var[64]));
  void* sid_3_let = (&(global_workspace_1_var[64]));
  void* sid_4_let = (&(global_workspace_1_var[64]));
  if (tvmgen_default_fused_add(input_buffer_var, sid_1_let, global_const_workspace_0_var, global_workspace_1_var) != 0 ) return -1;
  if (tvmgen_default_fused_nn_conv1d(sid_1_let, sid_2_let, global_const_workspace_0_var, global_workspace_1_var) != 0 ) return -1;
  if (tvmgen_default_fused_nn_relu(sid_2_let, sid_3_let, global_const_workspace_0_var, global_workspace_1_var) != 0 ) return -1;
  if (tvmgen_default_fused_nn_relu(sid_3_let, sid_4_let, global_const_workspace_0_var, global_workspace_1_var) != 0 ) return -1;
  if (tvmgen_default_fused_nn_dense(sid_4_let, output_buffer_var, global_const_workspace_0_var, global_workspace_1_var) != 0 ) return -1;
  return 0;
}


/*usmpx:lib0*/
#include "tvm/runtime/c_runtime_api.h"
#ifdef __cplusplus
extern "C" {
#endif
__attribute__((section(".rodata.tvm"), ))
static const struct global_const_workspace {
  float fused_constant_2_let[64] __attribute__((aligned(4))); // 256 bytes, aligned offset: 0
  float fused_constant_1_let[6] __attribute__((packed, aligned(4))); // 24 bytes, aligned offset: 256
  float fused_constant_let[8] __attribute__((packed, aligned(4))); // 32 bytes, aligned offset: 288
} global_const_workspace = {
  .fused_constant_2_let = {
    -0x1.8p-2, 0x1p-4   , -0x1.4p-2, 0x1p-3   , -0x1p-2  , 0x1.8p-3 , -0x1.8p-3, 0x1p-2   , 
    -0x1p-3  , 0x1.4p-2 , -0x1p-4  , 0x1.8p-2 , 0x0p+0   , -0x1.8p-2, 0x1p-4   , -0x1.4p-2, 
    0x1p-3   , -0x1p-2  , 0x1.8p-3 , -0x1.8p-3, 0x1p-2   , -0x1p-3  , 0x1.4p-2 , -0x1p-4  , 
    0x1.8p-2 , 0x0p+0   , -0x1.8p-2, 0x1p-4   , -0x1.4p-2, 0x1p-3   , -0x1p-2  , 0x1.8p-3 , 
    -0x1.8p-3, 0x1p-2   , -0x1p-3  , 0x1.4p-2 , -0x1p-4  , 0x1.8p-2 , 0x0p+0   , -0x1.8p-2, 
    0x1p-4   , -0x1.4p-2, 0x1p-3   , -0x1p-2  , 0x1.8p-3 , -0x1.8p-3, 0x1p-2   , -0x1p-3  , 
    0x1.4p-2 , -0x1p-4  , 0x1.8p-2 , 0x0p+0   , -0x1.8p-2, 0x1p-4   , -0x1.4p-2, 0x1p-3   , 
    -0x1p-2  , 0x1.8p-3 , -0x1.8p-3, 0x1p-2   , -0x1p-3  , 0x1.4p-2 , -0x1p-4  , 0x1.8p-2 
  },
  .fused_constant_1_let = {
    0x1p-2   , 0x1p-1   , 0x1p-2   , -0x1p-3  , 0x1.8p-1 , -0x1p-3  
  },
  .fused_constant_let = {
    -0x1p-2  , 0x1p-3   , -0x1p-3  , 0x1p-2   , 0x0p+0   , -0x1p-2  , 0x1p-3   , -0x1p-3  
  },
};// of total size 312 bytes
__attribute__((section(".bss.noinit.tvm"), aligned(16)))
static uint8_t global_workspace[208];
#include <tvmgen_default.h>
int board_model_calls;
TVM_DLL int32_t tvmgen_default___tvm_main__(void* input,void* output0,uint8_t* global_const_workspace_0_var,uint8_t* global_workspace_1_var);
int32_t tvmgen_default_run(struct tvmgen_default_inputs* inputs,struct tvmgen_default_outputs* outputs) {return tvmgen_default___tvm_main__(inputs->input,outputs->output,((uint8_t*)&global_const_workspace),((uint8_t*)&global_workspace));
}
#ifdef __cplusplus
}
#endif
;