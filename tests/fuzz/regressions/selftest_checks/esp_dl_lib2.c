// tvm target: esp-dl
#define TVM_EXPORTS
#include "tvm/runtime/c_runtime_api.h"
#include "tvm/runtime/c_backend_api.h"
#include <esp_dl_nn.h>
#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_default_esp_main_0(float* input_, float* output_, uint8_t* global_const_workspace_10_var, uint8_t* global_workspace_11_var) {
  esp_dl_nn_relu_f32(input_, output_, 16);
  return 0;
}

#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t tvmgen_default_esp_main_1(float* input_, float* output_, uint8_t* global_const_workspace_12_var, uint8_t* global_workspace_13_var) {
  esp_dl_nn_leaky_relu_f32(input_, output_, 16, 0.000000e+00f);
  return 0;
}

