#include "frontends/tvm/export/harness/board_fault.h"

#include <cstdio>
#include <sstream>

namespace usmpx {
namespace {

std::string hex(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", static_cast<unsigned>(value));
  return text;
}

// Memory the MPS2 boards map (AN386 and AN500): SSRAM1 (code), SSRAM2&3 (data), PSRAM, and the
// private peripheral bus (the system control space). An address outside is one the board has no memory at.
bool board_maps(uint32_t address) {
  return address < 0x00400000u || (address >= 0x20000000u && address < 0x20400000u) ||
         (address >= 0x21000000u && address < 0x22000000u) || (address >= 0x60000000u && address < 0x61000000u) ||
         (address >= 0xE0000000u && address < 0xE0100000u);
}

bool bit(uint32_t value, int n) {
  return (value >> n) & 1u;
}

}  // namespace

std::optional<BoardFault> read_board_fault(const std::string& log) {
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    const size_t at = line.find("usmpx-fault ");
    if (at == std::string::npos) continue;
    BoardFault f;
    std::istringstream words(line.substr(at + 12));
    std::string word;
    while (words >> word) {
      const size_t eq = word.find('=');
      if (eq == std::string::npos) continue;
      const std::string key = word.substr(0, eq);
      const uint32_t value = static_cast<uint32_t>(std::strtoul(word.c_str() + eq + 1, nullptr, 0));
      if (key == "exception") f.exception = value;
      if (key == "pc") f.pc = value;
      if (key == "lr") f.lr = value;
      if (key == "sp") f.sp = value;
      if (key == "cfsr") f.cfsr = value;
      if (key == "hfsr") f.hfsr = value;
      if (key == "mmfar") f.mmfar = value;
      if (key == "bfar") f.bfar = value;
    }
    return f;
  }
  return std::nullopt;
}

std::string describe_board_fault(const BoardFault& f, const std::string& function) {
  const uint32_t c = f.cfsr;
  std::string cause;
  if (bit(c, 12) || bit(c, 4)) {
    cause = "a stack overflow: the fault could not push its frame below sp " + hex(f.sp) +
            (board_maps(f.sp) ? "" : " (the board has no memory there)");
  } else if (bit(c, 24)) {
    cause = "an unaligned access";
  } else if (bit(c, 25)) {
    cause = "a division by zero";
  } else if (bit(c, 9) && bit(c, 15)) {
    cause = "a bus error at " + hex(f.bfar) + (board_maps(f.bfar) ? "" : " (the board has no memory there)");
  } else if (bit(c, 10)) {
    cause = "an imprecise bus error (a write the core had already passed)";
  } else if (bit(c, 1) && bit(c, 7)) {
    cause = "a memory-protection violation at " + hex(f.mmfar);
  } else if (bit(c, 0) || bit(c, 8)) {
    cause = "an instruction fetch from " + hex(f.pc) + (board_maps(f.pc) ? "" : " (the board has no memory there)");
  } else if (bit(c, 16)) {
    cause = "an undefined instruction";
  } else if (bit(c, 17)) {
    cause = "an instruction in an invalid state (a call through a bad function pointer)";
  } else {
    cause = "a fault the status registers do not explain (cfsr " + hex(c) + ", hfsr " + hex(f.hfsr) + ")";
  }
  std::string where = f.pc ? ", at pc " + hex(f.pc) : "";
  if (!function.empty()) where += " in " + function;
  return cause + where;
}

bool board_fault_may_be_the_stack(const BoardFault& fault) {
  const bool stacking = bit(fault.cfsr, 12) || bit(fault.cfsr, 4);
  return stacking || !(bit(fault.cfsr, 24) || bit(fault.cfsr, 25));
}

}  // namespace usmpx
