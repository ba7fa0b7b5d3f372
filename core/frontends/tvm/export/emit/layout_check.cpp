#include "frontends/tvm/export/emit/layout_check.h"

#include <algorithm>

#include "base/archive_path.h"
#include "export/export_error.h"
#include "frontends/tvm/c_analysis/clang_reader.h"

namespace usmpx {

std::vector<std::string> layout_triples(const std::vector<std::string>& tvm_targets) {
  std::vector<std::string> triples = {"x86_64-unknown-linux-gnu"};
  const auto add = [&](const std::string& t) {
    if (std::find(triples.begin(), triples.end(), t) == triples.end()) triples.push_back(t);
  };
  bool known = false;
  for (const std::string& t : tvm_targets) {
    if (t.find("cortex-m") != std::string::npos || t.find("armv") != std::string::npos ||
        t.find("arm_cpu") != std::string::npos || t.find("thumb") != std::string::npos) {
      add("thumbv7em-none-eabi");
      known = true;
    } else if (t.find("riscv") != std::string::npos || t.find("rv32") != std::string::npos) {
      add("riscv32-unknown-elf");
      known = true;
    } else if (t.find("x86") != std::string::npos) {
      known = true;
    }
  }
  if (!known) add("thumbv7em-none-eabi");
  return triples;
}

namespace {

const CGlobal* find_definition(const CProgram& program, const std::string& name) {
  const CGlobal* found = nullptr;
  for (const CGlobal& g : program.globals) {
    if (g.name == name && g.range.file == 0) found = &g;
  }
  return found;
}

}  // namespace

void check_lib0_layout(const std::string& lib0_path, std::string_view lib0, const std::string& header_path,
                       std::string_view header, const std::vector<ExportPool>& pools,
                       const std::vector<std::vector<PoolConstant>>& constants,
                       const std::vector<std::string>& triples) {
  for (const std::string& triple : triples) {
    CParseInput in;
    in.sources = {{lib0_path, lib0}};
    if (!header_path.empty()) {
      in.include_files = {{header_path, header}};
      in.include_dirs = {folder_of(header_path)};
    }
    in.display_root = "(export)";
    in.target_triple = triple;
    const CProgram program = parse_c_program(in);
    const std::string prefix = "layout check (" + triple + ") of " + lib0_path + ": ";
    for (size_t i = 0; i < pools.size(); ++i) {
      const ExportPool& pool = pools[i];
      if (!pool.internal) continue;
      const CGlobal* g = find_definition(program, pool.name);
      if (!g) {
        if (pool.kind == PoolKind::kConstant)
          throw ExportError(prefix + "constant pool '" + pool.name + "' is not defined");
        continue;
      }
      if (pool.kind == PoolKind::kWorkspace) {
        if (g->array_elements >= 0 && g->type_bytes != pool.size_bytes)
          throw ExportError(prefix + "pool '" + pool.name + "' has " + std::to_string(g->type_bytes) +
                            " bytes; the plan needs " + std::to_string(pool.size_bytes));
        continue;
      }
      for (const PoolConstant& c : i < constants.size() ? constants[i] : std::vector<PoolConstant>{}) {
        const auto f =
            std::find_if(g->fields.begin(), g->fields.end(), [&](const CField& x) { return x.name == c.name; });
        if (f == g->fields.end())
          throw ExportError(prefix + "constant pool '" + pool.name + "' has no member '" + c.name + "'");
        if (f->offset_bytes != c.offset)
          throw ExportError(prefix + "member '" + c.name + "' of '" + pool.name + "' is at offset " +
                            std::to_string(f->offset_bytes) + "; the plan puts it at " + std::to_string(c.offset));
      }
      if (g->type_bytes < pool.size_bytes)
        throw ExportError(prefix + "constant pool '" + pool.name + "' has " + std::to_string(g->type_bytes) +
                          " bytes; the plan needs " + std::to_string(pool.size_bytes));
    }
  }
}

}  // namespace usmpx
