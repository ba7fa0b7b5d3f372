// tvm target: c -keys=cpu 
#define TVM_EXPORTS
#include "tvm/runtime/c_runtime_api.h"
#include "tvm/runtime/c_backend_api.h"
#include <math.h>
#include <stdbool.h>
#ifdef __cplusplus
extern "C" {
#endif
static const int16_t __attribute__((section(".rodata.tvm"), aligned(16))) fused_constant[6] = {
    +0x0003, -0x0001, +0x0002, +0x0001, +0x0004, -0x0002
};
#ifdef __cplusplus
}  // extern "C"
#endif

#ifdef __cplusplus
extern "C" {
#endif
static const int16_t __attribute__((section(".rodata.tvm"), aligned(16))) fused_constant_1[2] = {
    +0x0010, -0x0008
};
#ifdef __cplusplus
}  // extern "C"
#endif

#ifdef __cplusplus
extern "C" {
#endif
static const int16_t __attribute__((section(".rodata.tvm"), aligned(16))) fused_constant_2[64] = {
    -0x0005, +0x0000, +0x0005, -0x0001, +0x0004, -0x0002, +0x0003, -0x0003, 
    +0x0002, -0x0004, +0x0001, -0x0005, +0x0000, +0x0005, -0x0001, +0x0004, 
    -0x0002, +0x0003, -0x0003, +0x0002, -0x0004, +0x0001, -0x0005, +0x0000, 
    +0x0005, -0x0001, +0x0004, -0x0002, +0x0003, -0x0003, +0x0002, -0x0004, 
    +0x0001, -0x0005, +0x0000, +0x0005, -0x0001, +0x0004, -0x0002, +0x0003, 
    -0x0003, +0x0002, -0x0004, +0x0001, -0x0005, +0x0000, +0x0005, -0x0001, 
    +0x0004, -0x0002, +0x0003, -0x0003, +0x0002, -0x0004, +0x0001, -0x0005, 
    +0x0000, +0x0005, -0x0001, +0x0004, -0x0002, +0x0003, -0x0003, +0x0002
};
#ifdef __cplusplus
}  // extern "C"
#endif
#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_mini_fused_cast(int8_t* p0, int16_t* T_cast, uint8_t* dtcm_2_var, uint8_t* sram_3_var);
#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_mini_fused_nn_conv1d_add(int16_t* p0, int16_t* T_add, uint8_t* dtcm_4_var, uint8_t* sram_5_var);
#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_mini_fused_nn_dense_cast(int16_t* p0, int8_t* T_cast, uint8_t* dtcm_8_var, uint8_t* sram_9_var);
#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_mini_fused_nn_max_pool1d(int16_t* p0, int16_t* pool_max, uint8_t* dtcm_6_var, uint8_t* sram_7_var);
 T_cast[ax1] = ((int16_t)p0[ax1]);
  }
  return 0;
}

#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_mini_fused_nn_conv1d_add(int16_t* p0, int16_t* T_add, uint8_t* dtcm_4_var, uint8_t* sram_5_var) {
  void* PaddedInput_let = (&(dtcm_4_var[0]));
  for (int32_t i1 = 0; i1 < 18; ++i1) {
    ((int16_t*)PaddedInput_let)[)1] = (((1 <= i1) && (i1 < 17)) ? p0[(i1 - 1)] : (int16_t)0);
  }
  for (int32_t oc = 0; oc < 2; ++oc) {
    for (int32_t x = 0; x < 16; ++x) {
      int32_t cse_var_1 = ((oc * 16) + x);
      T_add[cse_var_1] = ((int16_t*)fused_constant_1)[oc];
      for (int32_t k = 0; k < 3; ++k) {
        T_add[cse_var_1] = (T_add[cse_var_1] + (((int16_t*)PaddedInput_let)[(x + k)] * ((int16_t*)fused_constant)[((oc * 3) + k)]));
      }
    }
  }
  return 0;
}

#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_mini_fused_nn_dense_cast(int16_t* p0, int8_t* T_cast, uint8_t* dtcm_8_var, uint8_t* sram_9_var) {
  void* dense_let = (&(sram_9_var[0]));
  for (int32_t j = 0; j < 4; ++j) {
    ((int32_t*)dense_let)[j] = 0;
    for (int32_t k = 0; k < 16; ++k) {
      ((int32_t*)dense_let)[j] = (((int32_t*)dense_let)[j] + (((int32_t)p0[k]) * ((int32_t)((int16_t*)fused_constant_2)[((j * 16) + k)])));
    }
  }
  for (int32_t ax1 = 0; ax1 < 4; ++ax1) {
    T_cast[ax1] = ((int8_t)(((int32_t*)dense_let)[ax1] >> 8));
  }
  return 0;
}

#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_mini_fused_nn_max_pool1d(int16_t* p0, int16_t* pool_max, uint8_t* dtcm_6_var, uint8_t* sram_7_var) {
  for (int32_t c = 0; c < 2; ++c) {
    for (int32_t ow = 0; ow < 8; ++ow) {
      pool_max[((c * 8) + ow)] = (int16_t)-32768;
      for (int32_t rv = 0; rv < 2; ++rv) {
        int16_t v_ = pool_max[((c * 8) + ow)];
        int16_t v__1 = p0[(((c * 16) + (ow * 2)) + rv)];
        pool_max[((c * 8) + ow)] = ((v_) > (v__1) ? (v_) : (v__1));
      }
    }
  }
  return 0;
}

#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_mini___tvm_main__(int8_t* x_buffer_var, int8_t* output_buffer_var, uint8_t* dtcm_0_var, uint7_#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_mini___tvm_main__(int8_t* x_buffer_var, int8_t* output_buffer_var, uint8_t* dtcm_0_var, uint8_t* sram_1_var);
#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_mini_fused_cast(int8_t* p0, int16_t* T_cast, uint8_t* dtcm_2_var, uint8_t* sram_3_var) {
  for (int32_t ax1 = 0; ax1 < 16; ++ax1) {
    T_cast[ax1] = ((int16_t)p0[ax1]);
  }
  return 0;
}

#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_mini_fused_nn_conv1d_add(int16_t* p0, int16_t* T_add, uint8_t* dtcm_4_var, uint8_t* sram_5_var) {
  void* PaddedInput_let = (&(dtcm_4_var[0]));
  for (int32_t i1 = 0; i1 < 18; ++i1) {
    ((int16_t*)PaddedInput_let)[)1] = (((1 <= i1) && (i1 < 17)) ? p0[(i1 - 1)] : (int16_t)0);
  }
  for (int32_t oc = 0; oc < 2; ++oc) {
    for (int32_t x = 0; x < 16; ++x) {
      int32_t cse_var_1 = ((oc * 16) + x);
      T_add[cse_var_1] = ((int16_t*)fused_constant_1)[oc];
      for (int32_t k = 0; k < 3; ++k) {
        T_add[cse_var_1] = (T_add[cse_var_1] + (((int16_t*)PaddedInput_let)[(x + k)] * ((int16_t*)fused_constant)[((oc * 3) + k)]));
      }
    }
  }
  return 0;
}

#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_mini_fused_nn_dense_cast(int16_t* p0, int8_t* T_cast, uint8_t* dtcm_8_var, uint8_t* sram_9_var) {
  void* dense_let = (&(sram_9_var[0]));
  for (int32_t j = 0; j < 4; ++j) {
    ((int32_t*)dense_let)[j] = 0;
    for (int32_t k = 0; k < 16; ++k) {
      ((int32_t*)dense_let)[j] = (((int32_t*)dense_let)[j] + (((int32_t)p0[k]) * ((int32_t)((int16_t*)fused_constant_2)[((j * 16) + k)])));
    }
  }
  for (int32_t ax1 = 0; ax1 < 4; ++ax1) {
    T_cast[ax1] = ((int8_t)(((int32_t*)dense_let)[ax1] >> 8));
  }
  return 0;
}

#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_mini_fused_nn_max_pool1d(int16_t* p0, int16_t* pool_max, uint8_t* dtcm_6_var, uint8_t* sram_7_var) {
  for (int32_t c = 0; c < 2; ++c) {
    for (int32_t ow = 0; ow < 8; ++ow) {
      pool_max[((c * 8) + ow)] = (int16_t)-32768;
      for (int32_t rv = 0; rv < 2; ++rv) {
        int16_t v_ = pool_max[((c * 8) + ow)];
        int16_t v__1 = p0[(((c * 16) + (ow * 2)) + rv)];
        pool_max[((c * 8) + ow)] = ((v_) > (v__1) ? (v_) : (v__1));
      }
    }
  }
  return 0;
}

#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_mini___tvm_main__(int8_t* x_buffer_var, int8_t* output_buffer_var, uint8_t* dtcm_0_var, uint7_t* sram_1_var) {
  void* sid_1_let = (&(sram_1_var[0]));
  void* sid_2_let = (&(sram_1_var[0]));
  void* sid_3_let = (&(dtcm_0_var[0]));
  if (tvmgen_mini_fused_cast(x_buffer_var, sid_1_let, dtcm_0_var, sram_1_var) != 0 ) return -1;
  if (tvmgen_mini_fused_nn_conv1d_add(sid_1_let, sid_2_let, dtcm_0_var, sram_1_var) != 0 ) return -1;
  if (tvmgen_mini_fused_nn_max_pool1d(sid_2_let, sid_3_let, dtcm_0_var, sram_1_var) != 0 ) return -1;
  if (tvmgen_mini_fused_nn_dense_cast(sid_3_let, output_buffer_var, dtcm_0_var, sram_1_var) != 0 ) return -1;
  return 0;
}

