#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace usmpx {

// What the harness's Cortex-M fault handler printed over semihosting before exiting 99
// ("usmpx-fault exception=3 pc=0x... lr=0x... sp=0x... cfsr=0x... hfsr=0x... mmfar=0x... bfar=0x...").
struct BoardFault {
  uint32_t exception = 0;  // 3 HardFault, 4 MemManage, 5 BusFault, 6 UsageFault
  uint32_t pc = 0;         // the faulting instruction, 0 when the frame could not be stacked
  uint32_t lr = 0;
  uint32_t sp = 0;
  uint32_t cfsr = 0, hfsr = 0, mmfar = 0, bfar = 0;
};

// The fault line of a board run's output, nullopt when there is none.
std::optional<BoardFault> read_board_fault(const std::string& log);

// One phrase for the verdict: the cause when the fault status registers tell one the tool knows
// (an unaligned access, a bus error where the board has no memory, a stack overflow, a division
// by zero, ...), the address, and `function` (the symbol holding pc, "" when unknown):
// "an unaligned access at pc 0x000004d2 in tvmgen_default_fused_add".
std::string describe_board_fault(const BoardFault& fault, const std::string& function);

// Whether a deeper stack may cure it: a stack overflow, or a fault after memory was overwritten
// (a bus error, a jump to nowhere, ...); not an unaligned access nor a division by zero, which
// happen wherever the stack is.
bool board_fault_may_be_the_stack(const BoardFault& fault);

}  // namespace usmpx
