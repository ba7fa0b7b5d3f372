#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontends/tvm/tir/node.h"
#include "model/diagnostic.h"
#include "model/plan.h"

// C source for the host module of a TIR module (TVM's <mod>_lib1.c) with a memory plan applied,
// following TVM's ConvertPoolAllocationsToOffsets and CodeGenCHost:
//
// - Every function reached from main (depth first, in first-call order, main first) takes one
//   `uint8_t* <pool>_<k>_var` parameter per pool, k counting across functions, inserted before a
//   trailing resource handle (a last parameter without a buffer); calls of module functions
//   (call_extern, tvm_call_cpacked, direct calls, also inside tvm_check_return) pass the caller's
//   pool parameters along. Functions main never calls get none.
// - Every planned statement becomes `void* <name>_let = (&(<pool>_<k>_var[<offset>]));` where it
//   stood (inside loops if it was there), and uses of its variable refer to the let. The lets of
//   a post-USMP dump are re-pointed the same way; its old pool parameters and the pool arguments
//   of its calls are dropped and replaced by the new ones.
// - Allocations that are not planned are emitted as TVM's LowerTVMBuiltin leaves them for the C
//   code generator: a C array on the stack when the size is a constant below 1024 bytes
//   (`int32_t Conv2dOutput[64];`), else a TVMBackendAllocWorkspace / TVMBackendFreeWorkspace
//   pair with the NULL and error checks of TVM's USMP-off code.
// - Constants (AllocateConst) placed in a pool become lets like any other buffer, and their data
//   is returned in pool_constants for <mod>_lib0.c; the others become file-scope
//   `static const <type> __attribute__((section(".rodata.tvm"), aligned(16))) <name>[N]` arrays
//   as with TVM's linked parameters. Constants a dump printed only in part are completed with
//   zeros and reported in `notes`.
// - tvm_call_cpacked calls of module functions are emitted as direct C calls (unpacked), as with
//   TVM's unpacked API; lookup_param("p") refers to an extern array `__tvm_param__p` the
//   application must define.
// The output compiles with `cc -std=c11 -Wall -Werror` against TVM's runtime headers; variables
// the body declares but never uses are voided to keep it so.
namespace usmpx {

struct TirPlacement {  // where a planned buffer goes
  std::string pool;
  int64_t offset = 0;
  // The buffer is a constant. Always so for an AllocateConst; set it for the LetStmt of a
  // post-USMP dump that points into a constant pool, so that its (unknown) data is reported.
  bool constant = false;
};

struct TirCodegenInput {
  const tir::Module* module = nullptr;  // as analysed (after create_allocates_for_io when use_workspace_io)
  const tir::PrimFunc* main = nullptr;
  // "default": functions without a global_symbol are named tvmgen_default_<name> (main's
  // __tvm_main__ gives tvmgen_default___tvm_main__).
  std::string module_name = "default";
  std::vector<std::string> pools;  // pool names with at least one placement, sorted by name (TVM's order)
  std::unordered_map<const tir::Stmt*, TirPlacement> placements;  // planned Allocate/AllocateConst/LetStmt
  // The first line is "// tvm target: " followed by this verbatim. Pass the target string of
  // metadata.json (TVM's Target::str()): it carries TVM's trailing space where TVM printed one
  // ("c -keys=cpu " in the USMP fixtures; none in letscope's "c -keys=arm_cpu,cpu ... -model=...").
  std::string target = "c -keys=cpu ";
};

struct TirConstant {
  std::string name;    // the member name in the pool struct: the let variable, e.g. "fused_constant_let"
  std::string c_type;  // "int8_t", "float", ... (float16/bfloat16: "uint16_t")
  int64_t elements = 0;
  int64_t offset = 0;
  std::string pool;
  std::string data_text;   // NDArrayDataToC form, indent 4, "\n" line ends
  bool truncated = false;  // the dump did not print all values; the rest are zero
};

struct TirCodegenResult {
  std::string source;                       // the whole host module text (<mod>_lib1.c)
  std::string main_symbol;                  // e.g. "tvmgen_default___tvm_main__"
  std::vector<std::string> main_params;     // e.g. {"int8_t* input_buffer_var", ..., "uint8_t* global_workspace_0_var"}
  std::vector<TirConstant> pool_constants;  // constants placed in a pool, in the order the module declares them
  std::vector<Diagnostic> notes;            // warnings: truncated constants, parameters the application must define
};

// Throws ExportError ("file:line:column: <construct> is not supported by the C export") for
// anything it cannot emit, and for placements that do not fit the module.
TirCodegenResult emit_tir_host_module(const TirCodegenInput& input);

}  // namespace usmpx
