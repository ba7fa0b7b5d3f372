#include "frontends/tvm/export/harness/board_layout.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "base/archive_path.h"
#include "base/size_text.h"
#include "frontends/tvm/c_analysis/clang_reader.h"
#include "frontends/tvm/export/emit/linker_fragment.h"
#include "frontends/tvm/export/harness/code_needs.h"

namespace usmpx {
namespace {

// ARENA_BYTES of harness/Makefile: what platform.c's TVMBackendAllocWorkspace arena holds.
std::string arena_bytes(const ExportBundle& bundle) {
  const ExportFile* makefile = bundle.find("harness/Makefile");
  if (!makefile) return "65536";
  std::istringstream in(makefile->data);
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with("ARENA_BYTES := ")) return line.substr(15);
  }
  return "65536";
}

void collect_calls(const CExpr& e, std::set<std::string>& calls) {
  if (e.kind == CExprKind::kCall) calls.insert(e.text);
  for (const CExpr& a : e.args)
    collect_calls(a, calls);
}

void collect_calls(const CStmt& s, std::set<std::string>& calls) {
  for (const CExpr& e : s.exprs)
    collect_calls(e, calls);
  for (const CStmt& b : s.body)
    collect_calls(b, calls);
}

}  // namespace

HarnessCode parse_harness_code(const ExportBundle& bundle, const std::string& triple) {
  HarnessCode code;
  std::vector<std::string> sources = harness_model_sources(bundle);
  for (const std::string extra : {"harness/main.c", "harness/platform.c"}) {
    if (bundle.find(extra)) sources.push_back(extra);
  }
  for (const std::string& path : sources) {
    const ExportFile* f = bundle.find(path);
    if (!f) continue;
    code.paths.push_back(path);
    // The Makefile passes the arena's size to platform.c as -DUSMPX_ARENA_BYTES.
    code.texts.push_back(
        path == "harness/platform.c" ? "#define USMPX_ARENA_BYTES " + arena_bytes(bundle) + "\n" + f->data : f->data);
  }
  CParseInput in;
  for (size_t i = 0; i < code.paths.size(); ++i)
    in.sources.push_back({code.paths[i], code.texts[i]});
  add_bundle_headers(in, bundle, "harness/include/", {"harness/include"});
  in.target_triple = triple;
  code.program = parse_c_program(in);
  return code;
}

BoardMemory board_memory(const HarnessCode& code) {
  BoardMemory m;
  const CProgram& p = code.program;
  std::set<std::string> counted;
  for (const CGlobal& g : p.globals) {
    // A static object is its file's own; other names are one object however often declared.
    const std::string key = g.is_static ? g.name + "@" + std::to_string(g.range.file) : g.name;
    if (g.range.file < 0 || !counted.insert(key).second) continue;
    const bool read_only = g.is_const || g.section.find("rodata") != std::string::npos;
    if (read_only) {
      m.rom_bytes += g.type_bytes;
    } else {
      m.ram_bytes += g.type_bytes;
      if (g.init_range.valid()) m.rom_bytes += g.type_bytes;  // .data's initial values are loaded from flash
    }
    if (g.type_bytes > m.largest_object_bytes) {
      m.largest_object_bytes = g.type_bytes;
      m.largest_object = g.name;
    }
  }
  // Locals per function, then the deepest chain of calls among the functions defined here.
  std::map<std::string, const CFunction*> defined;
  for (const CFunction& f : p.functions) {
    if (f.is_definition) defined.emplace(f.name, &f);
  }
  std::map<std::string, int64_t> chain;
  std::set<std::string> open;
  std::function<int64_t(const CFunction&)> deepest = [&](const CFunction& f) -> int64_t {
    if (const auto it = chain.find(f.name); it != chain.end()) return it->second;
    if (!open.insert(f.name).second) return 0;  // recursion: counted once
    int64_t locals = 0;
    for (const CVariable& v : f.variables) {
      if (!v.is_param) locals += v.type_bytes;
    }
    std::set<std::string> calls;
    collect_calls(f.body, calls);
    for (const CVariable& v : f.variables) {  // initialisers: `int32_t rc = tvmgen_default_run(...);`
      if (v.init) collect_calls(*v.init, calls);
    }
    int64_t below = 0;
    for (const std::string& c : calls) {
      if (const auto d = defined.find(c); d != defined.end()) below = std::max(below, deepest(*d->second));
    }
    open.erase(f.name);
    return chain[f.name] = locals + below;
  };
  for (const auto& [name, f] : defined) {
    StackFrame frame;
    frame.function = name;
    frame.file = f->range.file >= 0 ? base_name(p.files[static_cast<size_t>(f->range.file)].path) : "";
    frame.line = f->range.line;
    for (const CVariable& v : f->variables) {
      if (!v.is_param) frame.locals_bytes += v.type_bytes;
    }
    frame.chain_bytes = deepest(*f);
    m.frames.push_back(frame);
  }
  std::stable_sort(m.frames.begin(), m.frames.end(), [](const StackFrame& a, const StackFrame& b) {
    return a.chain_bytes != b.chain_bytes ? a.chain_bytes > b.chain_bytes : a.locals_bytes > b.locals_bytes;
  });
  m.stack_bytes = (m.frames.empty() ? 0 : m.frames.front().chain_bytes) + kStackMarginBytes;
  return m;
}

BoardLayout choose_board_layout(const BoardMemory& memory) {
  BoardLayout l;
  l.stack_bytes = (memory.stack_bytes + 1023) / 1024 * 1024;
  if (memory.rom_bytes + kCodeReserveBytes <= kBoardFlashBytes && memory.ram_bytes + l.stack_bytes <= kBoardRamBytes)
    return l;
  // The read-write data (and what else does not fit) moves to PSRAM; RAM keeps .data, the C
  // library's heap and the stack.
  l.psram = true;
  l.data_in_psram = true;
  l.rodata_in_psram = memory.rom_bytes + kCodeReserveBytes > kBoardFlashBytes;
  l.stack_in_psram = l.stack_bytes > kBoardRamBytes - kCodeReserveBytes;
  const int64_t psram =
      memory.ram_bytes + (l.rodata_in_psram ? memory.rom_bytes : 0) + (l.stack_in_psram ? l.stack_bytes : 0);
  if (psram > kBoardPsramBytes) {
    l.fits = false;
    l.why_not = "the model declares " + format_size(memory.ram_bytes) + " of read-write data, " +
                format_size(memory.rom_bytes) + " of constants and " + format_size(memory.stack_bytes) +
                " of stack (largest object: " + memory.largest_object + ", " +
                format_size(memory.largest_object_bytes) +
                "): more than the emulated boards hold (4 MiB flash, 4 MiB RAM, 16 MiB PSRAM)";
  }
  return l;
}

std::string board_linker_script(const BoardLayout& layout, const std::vector<std::string>& fragment_sections) {
  std::ostringstream out;
  if (!layout.psram) {
    out << "/* MPS2 (AN386, AN500) memory map for the test harness on qemu-system-arm (USMP Explorer). */\n"
        << "MEMORY\n{\n  FLASH (rx) : ORIGIN = 0x00000000, LENGTH = 4M\n  RAM (rwx) : ORIGIN = 0x20000000, LENGTH = "
           "4M\n}\n"
        << "ENTRY(Reset_Handler)\n_estack = ORIGIN(RAM) + LENGTH(RAM);\n";
  } else {
    out << "/* MPS2 (AN386, AN500) memory map for the test harness on qemu-system-arm (USMP Explorer): the\n"
        << " * model declares more than SSRAM1 and SSRAM2&3 hold, so "
        << (layout.rodata_in_psram ? "its constants, " : "") << "its read-write data"
        << (layout.stack_in_psram ? " and the stack" : "") << " go to the\n"
        << " * 16 MiB PSRAM (0x21000000 on AN386, 0x60000000 on AN500: the Makefile defines USMPX_PSRAM_ORIGIN). */\n"
        << "MEMORY\n{\n  FLASH (rx) : ORIGIN = 0x00000000, LENGTH = 4M\n  RAM (rwx) : ORIGIN = 0x20000000, LENGTH = "
           "4M\n  PSRAM (rwx) : ORIGIN = DEFINED(USMPX_PSRAM_ORIGIN) ? USMPX_PSRAM_ORIGIN : 0x21000000, LENGTH = "
           "16M\n}\n"
        << "ENTRY(Reset_Handler)\n";
    if (!layout.stack_in_psram) out << "_estack = ORIGIN(RAM) + LENGTH(RAM);\n";
  }
  const std::string ram = layout.data_in_psram ? "PSRAM" : "RAM";
  const std::string rom = layout.rodata_in_psram ? "PSRAM" : "FLASH";
  if (!fragment_sections.empty()) {
    std::vector<std::string> sections = {".rodata.tvm", ".bss.noinit.tvm"};
    for (const std::string& s : fragment_sections) {
      if (std::find(sections.begin(), sections.end(), s) == sections.end()) sections.push_back(s);
    }
    for (const std::string& s : sections) {
      const bool read_only = s.find("rodata") != std::string::npos || s.find("flash") != std::string::npos;
      out << "REGION_ALIAS(\"" << linker_region_name(s) << "\", " << (read_only ? rom : ram) << ");\n";
    }
  }
  out << "SECTIONS\n{\n  .isr_vector : { KEEP(*(.isr_vector)) } > FLASH\n";
  if (!fragment_sections.empty()) out << "  INCLUDE usmpx_pools.ld\n";
  if (!layout.psram) {
    out << "  .text : { *(.text*) *(.rodata*) . = ALIGN(4); } > FLASH\n"
        << "  .ARM.exidx : { *(.ARM.exidx*) } > FLASH\n"
        << "  .data : { _sdata = .; *(.data*) . = ALIGN(4); _edata = .; } > RAM AT > FLASH\n"
        << "  _sidata = LOADADDR(.data);\n"
        << "  .bss (NOLOAD) : { _sbss = .; *(.bss*) *(COMMON) . = ALIGN(4); _ebss = .; } > RAM\n"
        << "  end = .;\n  _end = .;\n}\n";
    return out.str();
  }
  if (layout.rodata_in_psram) {
    out << "  .text : { *(.text*) . = ALIGN(4); } > FLASH\n"
        << "  .rodata : { *(.rodata*) . = ALIGN(4); } > PSRAM\n";
  } else {
    out << "  .text : { *(.text*) *(.rodata*) . = ALIGN(4); } > FLASH\n";
  }
  // The C library's heap grows from the end of .data towards the stack (newlib's _sbrk compares
  // with the stack pointer), so both stay in RAM unless the stack is too deep for it.
  out << "  .ARM.exidx : { *(.ARM.exidx*) } > FLASH\n"
      << "  .data : { _sdata = .; *(.data*) . = ALIGN(4); _edata = .; } > RAM AT > FLASH\n"
      << "  _sidata = LOADADDR(.data);\n"
      << "  end = ADDR(.data) + SIZEOF(.data);\n  _end = end;\n"
      << "  .bss (NOLOAD) : { _sbss = .; *(.bss*) *(COMMON) . = ALIGN(4); _ebss = .; } > " << ram << "\n";
  if (layout.stack_in_psram)
    out << "  .stack (NOLOAD) : { . = ALIGN(8); . = . + " << layout.stack_bytes << "; _estack = .; } > PSRAM\n";
  out << "}\n";
  return out.str();
}

std::string describe_board_layout(const BoardLayout& layout, const BoardMemory& memory) {
  if (!layout.fits) return layout.why_not;
  if (!layout.psram)
    return "flash 4 MiB, RAM 4 MiB; the model declares " + format_size(memory.rom_bytes) + " of constants, " +
           format_size(memory.ram_bytes) + " of read-write data, " + format_size(memory.stack_bytes) + " of stack";
  std::string moved;
  if (layout.rodata_in_psram) moved += "constants (" + format_size(memory.rom_bytes) + "), ";
  moved += "read-write data (" + format_size(memory.ram_bytes) + ")";
  if (layout.stack_in_psram) moved += ", stack (" + format_size(layout.stack_bytes) + ")";
  return "flash 4 MiB, RAM 4 MiB, PSRAM 16 MiB: " + moved + " in PSRAM";
}

}  // namespace usmpx
