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
typedef int32_t int8x4_t; typedef int32_t int16x2_t; typedef uint32_t uint8x4_t; typedef uint32_t uint16x2_t;
int16x2_t __sxtb16(int8x4_t); int16x2_t __sxtab16(int16x2_t, int8x4_t); uint16x2_t __uxtb16(uint8x4_t);
uint16x2_t __uxtab16(uint16x2_t, uint8x4_t);
int32_t __smlad(int16x2_t, int16x2_t, int32_t); int32_t __smladx(int16x2_t, int16x2_t, int32_t);
int32_t __smlsd(int16x2_t, int16x2_t, int32_t); int32_t __smlsdx(int16x2_t, int16x2_t, int32_t);
int64_t __smlald(int16x2_t, int16x2_t, int64_t); int64_t __smlaldx(int16x2_t, int16x2_t, int64_t);
int32_t __smuad(int16x2_t, int16x2_t); int32_t __smuadx(int16x2_t, int16x2_t); int32_t __smusd(int16x2_t, int16x2_t);
int32_t __smusdx(int16x2_t, int16x2_t); int32_t __smulbb(int32_t, int32_t); int32_t __smulbt(int32_t, int32_t);
int32_t __smultb(int32_t, int32_t); int32_t __smultt(int32_t, int32_t); int32_t __smulwb(int32_t, int32_t);
int32_t __smulwt(int32_t, int32_t); int32_t __smlabb(int32_t, int32_t, int32_t);
int32_t __smlabt(int32_t, int32_t, int32_t); int32_t __smlatb(int32_t, int32_t, int32_t);
int32_t __smlatt(int32_t, int32_t, int32_t); int32_t __smlawb(int32_t, int32_t, int32_t);
int32_t __smlawt(int32_t, int32_t, int32_t);
int32_t __qadd(int32_t, int32_t); int32_t __qsub(int32_t, int32_t); int32_t __qdbl(int32_t);
int32_t __ssat(int32_t, uint32_t); uint32_t __usat(int32_t, uint32_t);
int16x2_t __ssat16(int16x2_t, uint32_t); uint16x2_t __usat16(int16x2_t, uint32_t);
int16x2_t __qadd16(int16x2_t, int16x2_t); int16x2_t __qsub16(int16x2_t, int16x2_t);
int16x2_t __sadd16(int16x2_t, int16x2_t); int16x2_t __ssub16(int16x2_t, int16x2_t);
int16x2_t __shadd16(int16x2_t, int16x2_t); int16x2_t __shsub16(int16x2_t, int16x2_t);
int16x2_t __qasx(int16x2_t, int16x2_t); int16x2_t __qsax(int16x2_t, int16x2_t);
int8x4_t __sadd8(int8x4_t, int8x4_t); int8x4_t __ssub8(int8x4_t, int8x4_t); int8x4_t __qadd8(int8x4_t, int8x4_t);
int8x4_t __qsub8(int8x4_t, int8x4_t); int8x4_t __shadd8(int8x4_t, int8x4_t); int8x4_t __shsub8(int8x4_t, int8x4_t);
uint8x4_t __uadd8(uint8x4_t, uint8x4_t); uint8x4_t __usub8(uint8x4_t, uint8x4_t);
uint8x4_t __uqadd8(uint8x4_t, uint8x4_t); uint8x4_t __uqsub8(uint8x4_t, uint8x4_t);
uint32_t __usad8(uint8x4_t, uint8x4_t); uint32_t __usada8(uint8x4_t, uint8x4_t, uint32_t);
uint8x4_t __sel(uint8x4_t, uint8x4_t);
uint32_t __clz(uint32_t); uint32_t __rev(uint32_t); uint32_t __rev16(uint32_t); int16_t __revsh(int16_t);
uint32_t __ror(uint32_t, uint32_t); uint32_t __rbit(uint32_t);
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
#include <string.h>
#include <cmsis_compiler.h>
#include <arm_math_types.h>
)"},
      {"arm_nn_types.h", R"(#pragma once
#include <stdint.h>
typedef enum { ARM_CMSIS_NN_SUCCESS = 0, ARM_CMSIS_NN_ARG_ERROR = -1, ARM_CMSIS_NN_NO_IMPL_ERROR = -2,
               ARM_CMSIS_NN_FAILURE = -3 } arm_cmsis_nn_status;
#include <arm_math_types.h>
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
      {"arm_nnsupportfunctions.h", R"(#pragma once
#include <arm_nn_math_types.h>
#include <arm_nn_types.h>
#define NN_Q7_MAX INT8_MAX
#define NN_Q7_MIN INT8_MIN
#define NN_Q15_MAX INT16_MAX
#define NN_Q15_MIN INT16_MIN
#define NN_Q31_MAX INT32_MAX
#define NN_Q31_MIN INT32_MIN
#define MAX(A, B) ((A) > (B) ? (A) : (B))
#define MIN(A, B) ((A) < (B) ? (A) : (B))
#define CLAMP(x, h, l) MAX(MIN((x), (h)), (l))
#define REDUCE_MULTIPLIER(_mult) (((_mult) < 0x7FFF0000) ? (((_mult) + (1 << 15)) >> 16) : 0x7FFF)
#define LEFT_SHIFT(_shift) ((_shift) > 0 ? (_shift) : 0)
#define RIGHT_SHIFT(_shift) ((_shift) > 0 ? 0 : -(_shift))
#define MASK_IF_ZERO(x) ((x) == 0 ? ~0 : 0)
#define MASK_IF_NON_ZERO(x) ((x) != 0 ? ~0 : 0)
#define SELECT_USING_MASK(mask, a, b) (((mask) & (a)) ^ (~(mask) & (b)))
#define PACK_Q7x4_32x1(v0, v1, v2, v3) \
  ((((int32_t)(v0) << 0) & 0xFF) | (((int32_t)(v1) << 8) & 0xFF00) | (((int32_t)(v2) << 16) & 0xFF0000) | \
   (((int32_t)(v3) << 24) & 0xFF000000))
#define PACK_S8x4_32x1(v0, v1, v2, v3) PACK_Q7x4_32x1(v0, v1, v2, v3)
#define PACK_Q15x2_32x1(v0, v1) (((int32_t)(v0) & 0xFFFF) | ((int32_t)(v1) << 16))
#define PACK_S16x2_32x1(v0, v1) PACK_Q15x2_32x1(v0, v1)
int32_t arm_nn_read_q7x4(const int8_t* in); int32_t arm_nn_read_q7x4_ia(const int8_t** in);
int32_t arm_nn_read_s8x4(const int8_t* in); int32_t arm_nn_read_s8x4_ia(const int8_t** in);
int32_t arm_nn_read_q15x2(const int16_t* in); int32_t arm_nn_read_q15x2_ia(const int16_t** in);
int32_t arm_nn_read_s16x2(const int16_t* in); int32_t arm_nn_read_s16x2_ia(const int16_t** in);
void arm_nn_write_q7x4_ia(int8_t** out, int32_t value); void arm_nn_write_s8x4_ia(int8_t** out, int32_t value);
const int8_t* read_and_pad(const int8_t* source, int32_t* out1, int32_t* out2);
const int8_t* read_and_pad_reordered(const int8_t* source, int32_t* out1, int32_t* out2);
int32_t arm_nn_requantize(int32_t val, int32_t multiplier, int32_t shift);
int32_t arm_nn_doubling_high_mult(int32_t m1, int32_t m2);
int32_t arm_nn_doubling_high_mult_no_sat(int32_t m1, int32_t m2);
int32_t arm_nn_divide_by_power_of_two(int32_t dividend, int32_t exponent);
void arm_memcpy_q7(int8_t* dst, const int8_t* src, uint32_t block_size);
void arm_memcpy_s8(int8_t* dst, const int8_t* src, uint32_t block_size);
void arm_memset_q7(int8_t* dst, int8_t val, uint32_t block_size);
void arm_memset_s8(int8_t* dst, int8_t val, uint32_t block_size);
void arm_q7_to_q15_with_offset(const int8_t* src, int16_t* dst, uint32_t block_size, int16_t offset);
void arm_s8_to_s16_unordered_with_offset(const int8_t* src, int16_t* dst, uint32_t block_size, int16_t offset);
)"},
      {"arm_math_types.h", R"(#pragma once
#include <stdint.h>
#include <cmsis_compiler.h>
typedef int8_t q7_t; typedef int16_t q15_t; typedef int32_t q31_t; typedef int64_t q63_t;
typedef float float32_t; typedef double float64_t;
typedef enum { ARM_MATH_SUCCESS = 0, ARM_MATH_ARGUMENT_ERROR = -1, ARM_MATH_LENGTH_ERROR = -2,
               ARM_MATH_SIZE_MISMATCH = -3, ARM_MATH_NANINF = -4, ARM_MATH_SINGULAR = -5,
               ARM_MATH_TEST_FAILURE = -6 } arm_status;
)"},
      {"arm_math.h", R"(#pragma once
#include <string.h>
#include <math.h>
#include <float.h>
#include <limits.h>
#include <arm_math_types.h>
)"},
      // CMSIS-Core's compiler abstraction (cmsis_gcc.h and friends behind it): its attribute
      // macros, and its intrinsics as functions (the analysis only sees which values they take).
      {"cmsis_compiler.h", R"(#pragma once
#include <stdint.h>
#define __ASM __asm
#define __INLINE inline
#define __STATIC_INLINE static inline
#define __STATIC_FORCEINLINE __attribute__((always_inline)) static inline
#define __NO_RETURN __attribute__((__noreturn__))
#define __USED __attribute__((used))
#define __WEAK __attribute__((weak))
#define __PACKED __attribute__((packed, aligned(1)))
#define __PACKED_STRUCT struct __attribute__((packed, aligned(1)))
#define __PACKED_UNION union __attribute__((packed, aligned(1)))
#define __ALIGNED(x) __attribute__((aligned(x)))
#define __RESTRICT __restrict
#define __COMPILER_BARRIER() ((void)0)
#define __UNALIGNED_UINT16_READ(addr) (*(const uint16_t*)(const void*)(addr))
#define __UNALIGNED_UINT16_WRITE(addr, val) ((void)(*(uint16_t*)(void*)(addr) = (val)))
#define __UNALIGNED_UINT32_READ(addr) (*(const uint32_t*)(const void*)(addr))
#define __UNALIGNED_UINT32_WRITE(addr, val) ((void)(*(uint32_t*)(void*)(addr) = (val)))
uint32_t __SADD8(uint32_t, uint32_t); uint32_t __QADD8(uint32_t, uint32_t); uint32_t __SHADD8(uint32_t, uint32_t);
uint32_t __UADD8(uint32_t, uint32_t); uint32_t __UQADD8(uint32_t, uint32_t); uint32_t __UHADD8(uint32_t, uint32_t);
uint32_t __SSUB8(uint32_t, uint32_t); uint32_t __QSUB8(uint32_t, uint32_t); uint32_t __SHSUB8(uint32_t, uint32_t);
uint32_t __USUB8(uint32_t, uint32_t); uint32_t __UQSUB8(uint32_t, uint32_t); uint32_t __UHSUB8(uint32_t, uint32_t);
uint32_t __SADD16(uint32_t, uint32_t); uint32_t __QADD16(uint32_t, uint32_t); uint32_t __SHADD16(uint32_t, uint32_t);
uint32_t __UADD16(uint32_t, uint32_t); uint32_t __UQADD16(uint32_t, uint32_t); uint32_t __UHADD16(uint32_t, uint32_t);
uint32_t __SSUB16(uint32_t, uint32_t); uint32_t __QSUB16(uint32_t, uint32_t); uint32_t __SHSUB16(uint32_t, uint32_t);
uint32_t __USUB16(uint32_t, uint32_t); uint32_t __UQSUB16(uint32_t, uint32_t); uint32_t __UHSUB16(uint32_t, uint32_t);
uint32_t __SASX(uint32_t, uint32_t); uint32_t __QASX(uint32_t, uint32_t); uint32_t __SSAX(uint32_t, uint32_t);
uint32_t __QSAX(uint32_t, uint32_t); uint32_t __UASX(uint32_t, uint32_t); uint32_t __USAX(uint32_t, uint32_t);
uint32_t __USAD8(uint32_t, uint32_t); uint32_t __USADA8(uint32_t, uint32_t, uint32_t);
uint32_t __SSAT16(int32_t, uint32_t); uint32_t __USAT16(int32_t, uint32_t);
uint32_t __UXTB16(uint32_t); uint32_t __UXTAB16(uint32_t, uint32_t); uint32_t __SXTB16(uint32_t);
uint32_t __SXTAB16(uint32_t, uint32_t); uint32_t __SXTB16_RORn(uint32_t, uint32_t);
uint32_t __SXTAB16_RORn(uint32_t, uint32_t, uint32_t);
uint32_t __SMUAD(uint32_t, uint32_t); uint32_t __SMUADX(uint32_t, uint32_t); uint32_t __SMUSD(uint32_t, uint32_t);
uint32_t __SMUSDX(uint32_t, uint32_t); uint32_t __SMLAD(uint32_t, uint32_t, uint32_t);
uint32_t __SMLADX(uint32_t, uint32_t, uint32_t); uint32_t __SMLSD(uint32_t, uint32_t, uint32_t);
uint32_t __SMLSDX(uint32_t, uint32_t, uint32_t); uint64_t __SMLALD(uint32_t, uint32_t, uint64_t);
uint64_t __SMLALDX(uint32_t, uint32_t, uint64_t); uint64_t __SMLSLD(uint32_t, uint32_t, uint64_t);
uint64_t __SMLSLDX(uint32_t, uint32_t, uint64_t); uint32_t __SEL(uint32_t, uint32_t);
int32_t __QADD(int32_t, int32_t); int32_t __QSUB(int32_t, int32_t); int32_t __SMMLA(int32_t, int32_t, int32_t);
uint32_t __PKHBT(uint32_t, uint32_t, uint32_t); uint32_t __PKHTB(uint32_t, uint32_t, uint32_t);
int32_t __SSAT(int32_t, uint32_t); uint32_t __USAT(int32_t, uint32_t);
uint32_t __REV(uint32_t); uint32_t __REV16(uint32_t); int16_t __REVSH(int16_t); uint32_t __ROR(uint32_t, uint32_t);
uint32_t __RBIT(uint32_t); uint8_t __CLZ(uint32_t);
void __NOP(void); void __WFI(void); void __WFE(void); void __SEV(void); void __ISB(void); void __DSB(void);
void __DMB(void); void __enable_irq(void); void __disable_irq(void);
)"},
      {"cmsis_gcc.h", R"(#pragma once
#include <cmsis_compiler.h>
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
      // TVM 0.8's C runtime AoT executor API: the model descriptor its lib0.c defines
      // (`const tvm_model_t tvmgen_<mod>_network`) and the function firmware runs it with.
      {"tvm/runtime/crt/internal/aot_executor/aot_executor.h", R"(#pragma once
#include <stdint.h>
#include <tvm/runtime/c_backend_api.h>
#include <tvm/runtime/crt/error_codes.h>
typedef struct { size_t num_input_tensors; size_t num_output_tensors; TVMBackendPackedCFunc run_func; } tvm_model_t;
tvm_crt_error_t tvm_runtime_run(const tvm_model_t* model, void** inputs, void** outputs);
)"},
  };
  return headers;
}

RelativeInclude split_relative_include(std::string_view include) {
  RelativeInclude r{0, include};
  while (r.rest.starts_with("../") || r.rest.starts_with("./")) {
    const bool up = r.rest.starts_with("../");
    r.up += up ? 1 : 0;
    r.rest.remove_prefix(up ? 3 : 2);
  }
  return r;
}

std::string_view standin_for_relative_include(std::string_view include) {
  if (!include.starts_with("../")) return {};
  include = split_relative_include(include).rest;
  for (const StandinHeader& h : standin_tvm_headers()) {
    if (include == h.path) return h.path;
    if (include.size() > h.path.size() && include.ends_with(h.path) &&
        include.substr(0, include.size() - h.path.size()).ends_with("include/"))
      return h.path;
  }
  return {};
}

// The quoted #include paths of a C text, in order (a line scan: "#", blanks, "include", blanks,
// then the quoted path).
std::vector<std::string> quoted_includes(std::string_view text) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < text.size()) {
    const size_t nl = text.find('\n', at);
    std::string_view line = text.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at);
    at = nl == std::string_view::npos ? text.size() : nl + 1;
    const auto skip_blanks = [&] {
      while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
        line.remove_prefix(1);
    };
    skip_blanks();
    if (!line.starts_with("#")) continue;
    line.remove_prefix(1);
    skip_blanks();
    if (!line.starts_with("include")) continue;
    line.remove_prefix(7);
    skip_blanks();
    if (!line.starts_with("\"")) continue;
    const size_t close = line.find('"', 1);
    if (close != std::string_view::npos && close > 1) out.emplace_back(line.substr(1, close - 1));
  }
  return out;
}

}  // namespace usmpx
