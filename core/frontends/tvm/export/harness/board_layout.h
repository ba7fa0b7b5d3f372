#pragma once

// What the C a harness builds declares of memory (read from its text with libclang before anything
// is compiled) and the MPS2 linker layout that holds it: the fixed 4 MiB code and 4 MiB RAM of
// SSRAM1 and SSRAM2&3 when it fits there, else the large sections (pools, zero-initialised data,
// constants, a deep stack) placed in the boards' 16 MiB PSRAM, which qemu-system-arm loads as it
// loads the rest of the image.

#include <cstdint>
#include <string>
#include <vector>

#include "export/export_bundle.h"
#include "frontends/tvm/c_analysis/c_model.h"

namespace usmpx {

// The harness's C (the model's sources, harness/main.c, harness/platform.c with its arena) parsed
// for one target. `program` views the texts this struct holds.
struct HarnessCode {
  std::vector<std::string> paths;
  std::vector<std::string> texts;
  CProgram program;
};

constexpr const char* kBoardTriple = "thumbv7em-none-eabi";
constexpr const char* kHostTriple = "x86_64-unknown-linux-gnu";

// `triple`: "thumbv7em-none-eabi" lays types out as the boards do, "x86_64-unknown-linux-gnu" as the host.
HarnessCode parse_harness_code(const ExportBundle& bundle, const std::string& triple);

// The locals one function declares, and the deepest chain of calls from it.
struct StackFrame {
  std::string function;
  std::string file;  // e.g. "default_lib1.c"
  int line = 0;      // of the definition
  int64_t locals_bytes = 0;
  int64_t chain_bytes = 0;  // its locals plus the deepest chain of the functions it calls
};

struct BoardMemory {
  int64_t rom_bytes = 0;  // read-only data the code defines: constant pools, weights, parameters
  int64_t ram_bytes = 0;  // read-write data: pools, the runtime's arena, I/O buffers, .data
  int64_t largest_object_bytes = 0;
  std::string largest_object;      // the largest file-scope object, e.g. "global_workspace"
  std::vector<StackFrame> frames;  // functions defined, largest chain first
  int64_t stack_bytes = 0;         // the deepest chain plus kStackMarginBytes for main, printf and the C library
};

constexpr int64_t kStackMarginBytes = int64_t{64} * 1024;
constexpr int64_t kMiB = int64_t{1024} * 1024;

BoardMemory board_memory(const HarnessCode& code);

// Where things go on the boards (mps2-an386: PSRAM at 0x21000000; mps2-an500: 0x60000000).
struct BoardLayout {
  bool fits = true;            // else `why_not` says what does not fit in one line
  bool psram = false;          // false: the fixed 4 MiB + 4 MiB layout
  bool data_in_psram = false;  // .bss and the workspace pools' sections
  bool rodata_in_psram = false;
  bool stack_in_psram = false;
  int64_t stack_bytes = 0;  // reserved for the stack when psram (else what RAM leaves)
  std::string why_not;
};

constexpr int64_t kCodeReserveBytes = int64_t{512} * 1024;  // for .text, newlib and the vectors in the 4 MiB of SSRAM1
constexpr int64_t kBoardFlashBytes = 4 * kMiB;
constexpr int64_t kBoardRamBytes = 4 * kMiB;
constexpr int64_t kBoardPsramBytes = 16 * kMiB;

BoardLayout choose_board_layout(const BoardMemory& memory);

// harness/mps2.ld for `layout`: the MEMORY regions, the regions the pools' linker fragment maps
// (`fragment_sections`; none when the harness has no usmpx_pools.ld) and the output sections.
std::string board_linker_script(const BoardLayout& layout, const std::vector<std::string>& fragment_sections);

// One line for the user: "flash 4 MiB, RAM 4 MiB" or "... PSRAM: .bss (9.1 MiB), stack 64 KiB".
std::string describe_board_layout(const BoardLayout& layout, const BoardMemory& memory);

}  // namespace usmpx
