#include "frontends/tvm/export/harness/fixed_addresses.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

#include "base/archive_path.h"
#include "base/text_join.h"
#include "frontends/tvm/c_analysis/tvm_code.h"
#include "frontends/tvm/export/harness/board_layout.h"

namespace usmpx {
namespace {

std::string hex(uint64_t v) {
  std::ostringstream out;
  out << "0x" << std::hex << v;
  return out.str();
}

// Memory an MCU maps, rather than the vectors' page or peripheral registers (which no array can stand in for).
bool memory_address(int64_t v) {
  return v >= 0x1000 && v <= 0xFFFFFFFFLL && !(v >= 0x40000000 && v < 0x60000000) && v < 0xE0000000LL;
}

void collect_from(const CExpr& e, std::set<int64_t>& out) {
  if (e.kind == CExprKind::kCast && e.type.find('*') != std::string::npos && !e.args.empty()) {
    const CExpr& inner = strip_casts(e.args[0]);
    if (inner.kind == CExprKind::kIntLiteral && memory_address(inner.value)) out.insert(inner.value);
  }
  for (const CExpr& a : e.args)
    collect_from(a, out);
}

void collect_from(const CStmt& s, std::set<int64_t>& out) {
  for (const CExpr& e : s.exprs)
    collect_from(e, out);
  for (const CStmt& c : s.body)
    collect_from(c, out);
}

// Per source file (index into the program's files): the fixed addresses its code names.
std::map<int, std::set<int64_t>> fixed_addresses(const CProgram& program) {
  std::map<int, std::set<int64_t>> out;
  for (const CGlobal& g : program.globals) {
    if (g.range.file >= 0 && memory_address(g.fixed_address)) out[g.range.file].insert(g.fixed_address);
  }
  for (const CFunction& f : program.functions) {
    if (!f.is_definition || f.range.file < 0) continue;
    std::set<int64_t> found;
    collect_from(f.body, found);
    for (const CVariable& v : f.variables) {
      if (v.init) collect_from(*v.init, found);
    }
    if (!found.empty()) out[f.range.file].insert(found.begin(), found.end());
  }
  return out;
}

struct Window {
  int64_t base = 0;
  int64_t highest = 0;
  std::string symbol() const { return "usmpx_fixed_window_" + hex(static_cast<uint64_t>(base)).substr(2); }
  int64_t bytes() const { return highest - base + kFixedWindowTailBytes; }
};

// Every integer literal of `text` whose value is one of the windows' addresses, replaced by that
// offset into its window; comments, strings and #if lines are left alone.
std::string rewrite_addresses(const std::string& text, const std::map<int64_t, const Window*>& windows, int& replaced) {
  std::string out;
  size_t i = 0;
  bool line_start = true, conditional = false;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      line_start = true;
      conditional = false;
      out += c;
      ++i;
      continue;
    }
    if (line_start && !std::isspace(static_cast<unsigned char>(c))) {
      line_start = false;
      const size_t word = text.find_first_not_of(" \t", i + 1);
      conditional = c == '#' && word != std::string::npos &&
                    (text.compare(word, 2, "if") == 0 || text.compare(word, 4, "elif") == 0);
    }
    if (c == '/' && i + 1 < text.size() && (text[i + 1] == '/' || text[i + 1] == '*')) {
      const size_t end = text[i + 1] == '/' ? text.find('\n', i) : text.find("*/", i + 2);
      const size_t stop = end == std::string::npos ? text.size() : (text[i + 1] == '/' ? end : end + 2);
      out.append(text, i, stop - i);
      i = stop;
      continue;
    }
    if (c == '"' || c == '\'') {
      size_t j = i + 1;
      while (j < text.size() && text[j] != c && text[j] != '\n')
        j += text[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, text.size());
      out.append(text, i, j - i);
      i = j;
      continue;
    }
    const bool starts_number = std::isdigit(static_cast<unsigned char>(c)) &&
                               (i == 0 || !(std::isalnum(static_cast<unsigned char>(text[i - 1])) ||
                                            text[i - 1] == '_' || text[i - 1] == '.'));
    if (!starts_number) {
      out += c;
      ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_' || text[j] == '.'))
      ++j;
    const std::string token = text.substr(i, j - i);
    char* end = nullptr;
    const unsigned long long value = std::strtoull(token.c_str(), &end, 0);
    const std::string suffix = end ? std::string(end) : std::string("x");
    const bool integer = !suffix.empty() ? suffix.find_first_not_of("uUlL") == std::string::npos : true;
    const auto hit = windows.find(static_cast<int64_t>(value));
    if (integer && !conditional && hit != windows.end()) {
      out += "((uintptr_t)" + hit->second->symbol() + " + " +
             hex(static_cast<uint64_t>(hit->first - hit->second->base)) + "u)";
      ++replaced;
    } else {
      out += token;
    }
    i = j;
  }
  return out;
}

}  // namespace

bool map_fixed_addresses(ExportBundle& bundle, HarnessSpec& spec) {
  const HarnessCode code = parse_harness_code(bundle, kBoardTriple);
  const std::map<int, std::set<int64_t>> found = fixed_addresses(code.program);
  if (found.empty()) return false;
  std::map<int64_t, Window> windows;  // by 16 MiB region
  for (const auto& [file, addresses] : found) {
    for (const int64_t a : addresses) {
      auto [it, added] = windows.try_emplace(a >> 24, Window{a, a});
      it->second.base = std::min(it->second.base, a);
      it->second.highest = std::max(it->second.highest, a);
    }
  }
  std::map<int64_t, const Window*> by_address;
  for (const auto& [file, addresses] : found) {
    for (const int64_t a : addresses)
      by_address[a] = &windows.at(a >> 24);
  }
  std::string declarations = "#include <stdint.h>\n";
  std::string definitions =
      "/* Written by usmpx: memory the model names by fixed addresses of its MCU, which the emulated\n"
      " * boards and this machine do not have (see the copies in harness/fixed/). */\n";
  std::string mapped;
  for (const auto& [region, w] : windows) {
    declarations += "extern unsigned char " + w.symbol() + "[];\n";
    definitions +=
        "unsigned char " + w.symbol() + "[" + std::to_string(w.bytes()) + "] __attribute__((aligned(1024)));\n";
    mapped += (mapped.empty() ? "" : ", ") + hex(static_cast<uint64_t>(w.base)) + " (" + std::to_string(w.bytes()) +
              " bytes)";
  }
  std::vector<std::string> copies;
  for (const auto& [file, addresses] : found) {
    const std::string& path = code.paths[static_cast<size_t>(file)];
    const ExportFile* f = bundle.find(path);
    if (!f || path.starts_with("harness/")) continue;
    int replaced = 0;
    const std::string text = rewrite_addresses(f->data, by_address, replaced);
    if (replaced == 0) continue;  // spelled in a header: the copy would not change it
    const std::string copy = "harness/fixed/usmpx_fixed_" + base_name(path);
    bundle.put(copy, declarations + "#line 1 \"" + path + "\"\n" + text);
    std::replace(spec.model_sources.begin(), spec.model_sources.end(), path, copy);
    const std::string folder = folder_of(path);
    if (std::find(spec.include_dirs.begin(), spec.include_dirs.end(), folder) == spec.include_dirs.end())
      spec.include_dirs.push_back(folder);
    copies.push_back(path);
  }
  if (copies.empty()) return false;
  bundle.put("harness/fixed_windows.c", definitions);
  spec.model_sources.push_back("harness/fixed_windows.c");
  const std::string sources = join(copies, ", ");
  spec.notes.push_back(
      "the code names memory at fixed addresses of its MCU that the emulated boards do not have: " + mapped +
      " mapped onto arrays of the harness (harness/fixed_windows.c: from the lowest address "
      "named in each 16 MiB region to 1 MiB past the highest) in copies of " +
      sources + " built instead of them (harness/fixed/); the exported sources keep their addresses");
  return true;
}

}  // namespace usmpx
