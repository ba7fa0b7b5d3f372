#pragma once

// Why a harness build that compiled crashed on this machine (a signal instead of its result line),
// read from the C with libclang: an operator whose locals outgrow the host's stack, a pool array
// smaller than the code reaches into it (pool_reach.h), or code that keeps a pointer in a 32-bit integer (it works on
// the 32-bit Cortex-M it was written for and truncates on a 64-bit host). The diagnosis names the function, the bytes
// or the line, and where selftest retries: the host with a stack that holds the deepest chain, else the emulated
// Cortex-M4.

#include <cstdint>
#include <string>
#include <vector>

#include "export/export_bundle.h"

namespace usmpx {

// A cast that stores a pointer in an integer narrower than a host pointer.
struct PointerTruncation {
  std::string function;
  std::string file;  // e.g. "default_lib1.c"
  int line = 0;
  int bits = 32;     // of the integer
  std::string text;  // the cast as written, e.g. "(uint32_t)(uintptr_t)mask"
};

std::vector<PointerTruncation> find_pointer_truncations(const ExportBundle& bundle);

enum class CrashCause { kUnknown, kStack, kPool, kPointer32 };

struct CrashDiagnosis {
  CrashCause cause = CrashCause::kUnknown;
  std::string signal;    // "SIGSEGV"
  std::string function;  // the operator to blame, "" when unknown
  std::string file;
  int line = 0;
  int64_t stack_bytes = 0;  // kStack: the deepest chain of locals (from `function`)
  std::string because;      // "operator X keeps a pointer in a 32-bit integer (default_lib1.c:53: ...)"
  // "host" (with a stack of retry_stack_bytes), "cortex-m4", or "" when every target would crash
  // the same way (a pool array smaller than the code reaches: `not_retried` says why).
  std::string retry_target;
  std::string not_retried;
  int64_t retry_stack_bytes = 0;
};

// `signal`: what killed the original; `host_stack_bytes`: the stack the host gives a program
// (RLIMIT_STACK), -1 when unlimited.
CrashDiagnosis diagnose_host_crash(const ExportBundle& original, int signal, int64_t host_stack_bytes);

// "SIGSEGV", "SIGBUS", ..., "signal N".
std::string signal_name(int signal);

}  // namespace usmpx
