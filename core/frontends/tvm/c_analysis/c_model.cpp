#include "frontends/tvm/c_analysis/c_model.h"

namespace usmpx {

const CFunction* CProgram::find_function(std::string_view name) const {
  const CFunction* declaration = nullptr;
  for (const CFunction& f : functions) {
    if (f.name != name) continue;
    if (f.is_definition) return &f;
    if (!declaration) declaration = &f;
  }
  return declaration;
}

const CGlobal* CProgram::find_global(std::string_view name) const {
  for (const CGlobal& g : globals) {
    if (g.name == name) return &g;
  }
  return nullptr;
}

const CRecord* CProgram::find_record(std::string_view name) const {
  for (const CRecord& r : records) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

const CMacro* CProgram::find_macro(std::string_view name) const {
  for (const CMacro& m : macros) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

std::string CProgram::where(const CRange& range) const {
  if (!range.valid() || static_cast<size_t>(range.file) >= files.size()) return "";
  return files[static_cast<size_t>(range.file)].path + ":" + std::to_string(range.line) + ":" +
         std::to_string(range.column);
}

}  // namespace usmpx
