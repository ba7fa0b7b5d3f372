#include "frontends/tvm/c_analysis/standin_headers.h"

namespace usmpx {

// Written for this project: just enough declarations for TVM's generated C to parse. Layouts and
// values need not match any real C library; only names and types matter to the analysis.
const std::vector<StandinHeader>& standin_libc_headers() {
  static const std::vector<StandinHeader> headers = {
      {"stdint.h", R"(#pragma once
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
typedef long intptr_t;
typedef unsigned long uintptr_t;
#define INT8_MIN (-128)
#define INT8_MAX 127
#define INT16_MIN (-32768)
#define INT16_MAX 32767
#define INT32_MIN (-2147483647 - 1)
#define INT32_MAX 2147483647
#define UINT8_MAX 255
#define UINT16_MAX 65535
#define UINT32_MAX 4294967295u
)"},
      {"stddef.h", R"(#pragma once
typedef unsigned long size_t;
typedef long ptrdiff_t;
#define NULL ((void*)0)
#define offsetof(type, member) __builtin_offsetof(type, member)
)"},
      {"stdbool.h", R"(#pragma once
#define bool _Bool
#define true 1
#define false 0
)"},
      {"stdarg.h", R"(#pragma once
typedef __builtin_va_list va_list;
)"},
      {"limits.h", R"(#pragma once
#define CHAR_BIT 8
#define INT_MIN (-2147483647 - 1)
#define INT_MAX 2147483647
)"},
      {"float.h", R"(#pragma once
#define FLT_MAX 3.40282347e+38F
#define FLT_MIN 1.17549435e-38F
)"},
      {"math.h", R"(#pragma once
#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))
#define HUGE_VALF (__builtin_huge_valf())
float expf(float); double exp(double); float exp2f(float); float logf(float); double log(double);
float log2f(float); float log10f(float); float log1pf(float); float sqrtf(float); double sqrt(double);
float powf(float, float); double pow(double, double); float tanhf(float); double tanh(double);
float sinf(float); float cosf(float); float tanf(float); float atanf(float); float atan2f(float, float);
float erff(float); float roundf(float); double round(double); float floorf(float); double floor(double);
float ceilf(float); double ceil(double); float truncf(float); float fabsf(float); double fabs(double);
float fmaxf(float, float); float fminf(float, float); float fmodf(float, float); double fmod(double, double);
float nearbyintf(float); double nearbyint(double); float rintf(float); int isnan(double); int isinf(double);
)"},
      {"stdlib.h", R"(#pragma once
#include <stddef.h>
void* malloc(size_t); void free(void*); void* calloc(size_t, size_t); int abs(int); void abort(void);
)"},
      {"string.h", R"(#pragma once
#include <stddef.h>
void* memcpy(void*, const void*, size_t); void* memmove(void*, const void*, size_t);
void* memset(void*, int, size_t); int memcmp(const void*, const void*, size_t); size_t strlen(const char*);
)"},
      {"stdio.h", R"(#pragma once
#include <stddef.h>
int printf(const char*, ...); int snprintf(char*, size_t, const char*, ...);
)"},
      {"arm_acle.h", R"(#pragma once
#include <stdint.h>
int32_t __sxtb16(int32_t); int32_t __sxtab16(int32_t, int32_t); uint32_t __uxtb16(uint32_t);
int32_t __smlad(int32_t, int32_t, int32_t); int32_t __smladx(int32_t, int32_t, int32_t);
int32_t __smuad(int32_t, int32_t); int32_t __smusd(int32_t, int32_t); int32_t __smulbb(int32_t, int32_t);
int32_t __smlabb(int32_t, int32_t, int32_t); int32_t __qadd(int32_t, int32_t); int32_t __qsub(int32_t, int32_t);
int32_t __qadd16(int32_t, int32_t); int32_t __qsub16(int32_t, int32_t); int32_t __sadd16(int32_t, int32_t);
int32_t __ssub16(int32_t, int32_t);
)"},
  };
  return headers;
}

// Types of the operator libraries TVM's external codegens call (CMSIS-NN, the Ethos-U runtime),
// written from their documented APIs. Functions need no prototypes: the analysis only sees which
// pointers a call receives, and C accepts calls to undeclared functions.
const std::vector<StandinHeader>& standin_kernel_headers() {
  static const std::vector<StandinHeader> headers = {
      {"arm_nn_math_types.h", R"(#pragma once
#include <stdint.h>
#include <limits.h>
)"},
      {"arm_nn_types.h", R"(#pragma once
#include <stdint.h>
typedef enum { ARM_CMSIS_NN_SUCCESS = 0, ARM_CMSIS_NN_ARG_ERROR = -1, ARM_CMSIS_NN_NO_IMPL_ERROR = -2,
               ARM_CMSIS_NN_FAILURE = -3 } arm_cmsis_nn_status;
typedef enum { ARM_MATH_SUCCESS = 0, ARM_MATH_ARGUMENT_ERROR = -1, ARM_MATH_LENGTH_ERROR = -2,
               ARM_MATH_SIZE_MISMATCH = -3, ARM_MATH_NANINF = -4, ARM_MATH_SINGULAR = -5,
               ARM_MATH_TEST_FAILURE = -6 } arm_status;
typedef struct { int32_t w; int32_t h; } cmsis_nn_tile;
typedef struct { void* buf; int32_t size; } cmsis_nn_context;
typedef struct { int32_t n; int32_t h; int32_t w; int32_t c; } cmsis_nn_dims;
typedef struct { int32_t* multiplier; int32_t* shift; } cmsis_nn_per_channel_quant_params;
typedef struct { int32_t multiplier; int32_t shift; } cmsis_nn_per_tensor_quant_params;
typedef struct { int32_t min; int32_t max; } cmsis_nn_activation;
typedef struct { int32_t input_offset; int32_t output_offset; cmsis_nn_tile stride; cmsis_nn_tile padding;
                 cmsis_nn_tile dilation; cmsis_nn_activation activation; } cmsis_nn_conv_params;
typedef struct { int32_t input_offset; int32_t output_offset; int32_t ch_mult; cmsis_nn_tile stride;
                 cmsis_nn_tile padding; cmsis_nn_tile dilation; cmsis_nn_activation activation; } cmsis_nn_dw_conv_params;
typedef struct { cmsis_nn_tile stride; cmsis_nn_tile padding; cmsis_nn_activation activation; } cmsis_nn_pool_params;
typedef struct { int32_t input_offset; int32_t filter_offset; int32_t output_offset;
                 cmsis_nn_activation activation; } cmsis_nn_fc_params;
typedef struct { int32_t multiplier; int32_t shift; } cmsis_nn_scaling;
)"},
      {"arm_nnfunctions.h", R"(#pragma once
#include <arm_nn_math_types.h>
#include <arm_nn_types.h>
)"},
      {"tvm_ethosu_runtime.h", R"(#pragma once
#include <stddef.h>
#include <stdint.h>
struct ethosu_driver;
int32_t TVMEthosULaunch(void* resource_handle, void* cms_data, size_t cms_data_size, uint64_t* base_addrs,
                        size_t* base_addrs_size, int num_tensors);
)"},
  };
  return headers;
}

const std::vector<StandinHeader>& standin_tvm_headers() {
  static const std::vector<StandinHeader> headers = {
      {"dlpack/dlpack.h", R"(#pragma once
#include <stdint.h>
typedef struct { int32_t device_type; int32_t device_id; } DLDevice;
typedef struct { uint8_t code; uint8_t bits; uint16_t lanes; } DLDataType;
typedef struct {
  void* data; DLDevice device; int32_t ndim; DLDataType dtype; int64_t* shape; int64_t* strides; uint64_t byte_offset;
} DLTensor;
)"},
      {"tvm/runtime/c_runtime_api.h", R"(#pragma once
#include <stddef.h>
#include <stdint.h>
#include <dlpack/dlpack.h>
#define TVM_DLL
#define TVM_WEAK __attribute__((weak))
typedef union { int64_t v_int64; double v_float64; void* v_handle; const char* v_str; DLDataType v_type; DLDevice v_device; } TVMValue;
typedef void* TVMFunctionHandle;
typedef void* TVMModuleHandle;
typedef DLTensor* TVMArrayHandle;
void TVMAPISetLastError(const char* msg);
int TVMFuncCall(TVMFunctionHandle func, TVMValue* args, int* type_codes, int num_args, TVMValue* ret_val, int* ret_type_code);
)"},
      {"tvm/runtime/c_backend_api.h", R"(#pragma once
#include <tvm/runtime/c_runtime_api.h>
typedef int (*TVMBackendPackedCFunc)(TVMValue* args, int* type_codes, int num_args, TVMValue* out_ret_value, int* out_ret_tcode, void* resource_handle);
void* TVMBackendAllocWorkspace(int device_type, int device_id, uint64_t nbytes, int dtype_code_hint, int dtype_bits_hint);
int TVMBackendFreeWorkspace(int device_type, int device_id, void* ptr);
int TVMBackendGetFuncFromEnv(void* mod_node, const char* func_name, TVMFunctionHandle* out);
int TVMBackendRegisterSystemLibSymbol(const char* name, void* ptr);
)"},
      {"tvm/runtime/crt/error_codes.h", R"(#pragma once
typedef enum {
  kTvmErrorNoError = 0,
  kTvmErrorFunctionCallNumArguments,
  kTvmErrorFunctionCallWrongArgType,
  kTvmErrorFunctionCallNotImplemented,
  kTvmErrorFunctionCallInvalidArg,
  kTvmErrorPlatformNoMemory,
  kTvmErrorPlatformCheckFailure,
  kTvmErrorGeneric,
} tvm_crt_error_t;
)"},
  };
  return headers;
}

}  // namespace usmpx
