#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace usmpx {

// A header supplied from memory so that libclang can parse generated C without a C library or
// a TVM runtime on this machine. `path` is relative to the include folder it belongs to.
struct StandinHeader {
  std::string_view path;
  std::string_view text;
};

// The few C library headers TVM's generated C includes (stdint.h, stdbool.h, math.h, string.h,
// ..., and the compiler's arm_acle.h with the ACLE DSP intrinsics __smlad, __ssub8, __sel, ...),
// declaring only what that code uses. Parsing runs with -nostdinc and these instead.
const std::vector<StandinHeader>& standin_libc_headers();

// Types of the operator libraries TVM's external codegens include (CMSIS-NN's arm_nnfunctions.h,
// arm_nn_types.h, arm_nn_math_types.h; tvm_ethosu_runtime.h), and the CMSIS headers Arm DSP
// code includes (arm_nnsupportfunctions.h, arm_math.h, arm_math_types.h, cmsis_compiler.h with
// its attribute macros such as __STATIC_FORCEINLINE and intrinsics such as __SMLAD, __SXTB16,
// __QADD, __SEL), so that their calls and the functions around them stay visible.
const std::vector<StandinHeader>& standin_kernel_headers();

// tvm/runtime/c_runtime_api.h, tvm/runtime/c_backend_api.h, tvm/runtime/crt/error_codes.h and
// the C runtime's tvm/runtime/crt/internal/aot_executor/aot_executor.h (TVM 0.8's `tvm_model_t`
// descriptor and `tvm_runtime_run`) reduced to the declarations generated operators and AoT
// entry points use; for archives without their own runtime/ folder.
const std::vector<StandinHeader>& standin_tvm_headers();

// A relative #include path split into how many folders its leading "../" steps climb ("./"
// steps climb none) and the path after them: "../../src/x.h" -> {2, "src/x.h"}.
struct RelativeInclude {
  size_t up = 0;
  std::string_view rest;
};
RelativeInclude split_relative_include(std::string_view include);

// The stand-in TVM header a relative #include of generated C names, as firmware projects of 2021
// include TVM's runtime from where they keep it ("../../src/standalone_crt/include/tvm/runtime/
// c_runtime_api.h"): the stand-in path after the include's last "include/" folder (or the whole
// path after its "../" steps), when the include starts with "../" and names one; else empty.
std::string_view standin_for_relative_include(std::string_view include);

// The quoted #include paths of a C text, in order, read line by line ("#", blanks, "include",
// blanks, the quoted path); includes inside comments or disabled #if blocks count too.
std::vector<std::string> quoted_includes(std::string_view text);

}  // namespace usmpx
