#include "frontends/tvm/export/emit/linker_fragment.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

namespace usmpx {

std::string linker_region_name(const std::string& section) {
  std::string name = "USMPX";
  for (char c : section) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) {
      name += static_cast<char>(std::toupper(u));
    } else if (name.back() != '_') {
      name += '_';
    }
  }
  if (name.back() == '_') name.pop_back();
  return name;
}

std::string pool_section(const ExportPool& pool) {
  if (!pool.section.empty()) return pool.section;
  return pool.kind == PoolKind::kConstant ? ".rodata.tvm" : ".bss.noinit.tvm";
}

std::string emit_linker_fragment(const std::string& module, const std::vector<ExportPool>& pools,
                                 const std::vector<int64_t>& size_hints) {
  // Sections in order of first use, with the pools they hold; TVM's defaults always appear, as the
  // operators' static constant arrays use .rodata.tvm too.
  std::vector<std::string> sections = {".rodata.tvm", ".bss.noinit.tvm"};
  std::map<std::string, std::vector<const ExportPool*>> members;
  for (const ExportPool& p : pools) {
    const std::string s = pool_section(p);
    if (members[s].empty() && s != ".rodata.tvm" && s != ".bss.noinit.tvm") sections.push_back(s);
    members[s].push_back(&p);
  }
  std::ostringstream out;
  out << "/* Memory pools of TVM module \"" << module << "\", written by USMP Explorer.\n"
      << " * INCLUDE this file inside SECTIONS { } and map each region, e.g.\n";
  for (const std::string& s : sections)
    out << " *   REGION_ALIAS(\"" << linker_region_name(s) << "\", RAM);\n";
  out << " */\n";
  for (const std::string& s : sections) {
    // Workspace pools start undefined, like TVM's .bss.noinit.tvm: nothing to load for them.
    const bool noload =
        s == ".bss.noinit.tvm" ||
        (s != ".rodata.tvm" && std::all_of(members[s].begin(), members[s].end(),
                                           [](const ExportPool* p) { return p->kind == PoolKind::kWorkspace; }));
    int64_t align = 16;
    for (const ExportPool* p : members[s])
      align = std::max(align, p->alignment);
    out << s << (noload ? " (NOLOAD)" : "") << " : ALIGN(" << align << ")\n{\n  KEEP(*(" << s << "))";
    for (const ExportPool* p : members[s])
      out << "\n  /* " << p->name << ": " << p->size_bytes << " bytes"
          << (p->internal ? "" : ", defined by the application") << " */";
    out << "\n} > " << linker_region_name(s) << "\n";
  }
  // A section of the user's own holds only pools: it must fit their size hints.
  for (const std::string& s : sections) {
    if (s == ".rodata.tvm" || s == ".bss.noinit.tvm") continue;
    int64_t limit = 0;
    for (const ExportPool* p : members[s]) {
      const size_t i = static_cast<size_t>(p->index);
      if (i >= size_hints.size() || size_hints[i] < 0) {
        limit = -1;
        break;
      }
      limit += size_hints[i];
    }
    if (limit >= 0)
      out << "ASSERT(SIZEOF(" << s << ") <= " << limit << ", \"" << s << " exceeds its pools' size hints\")\n";
  }
  return out.str();
}

}  // namespace usmpx
