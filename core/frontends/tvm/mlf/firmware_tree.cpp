#include "frontends/tvm/mlf/firmware_tree.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace usmpx {
namespace {

std::string_view base_name(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string dir_name(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash));
}

bool all_digits(std::string_view s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// <mod> of "tvmgen_<mod>.h", or "".
std::string header_module(std::string_view file) {
  constexpr std::string_view kPrefix = "tvmgen_";
  if (!file.starts_with(kPrefix) || !file.ends_with(".h") || file.size() <= kPrefix.size() + 2) return "";
  return std::string(file.substr(kPrefix.size(), file.size() - kPrefix.size() - 2));
}

// Whether `file` is "<mod>_lib<N>.c" (or .cc).
bool is_library_of(std::string_view file, std::string_view mod) {
  const std::string stem = std::string(mod) + "_lib";
  if (!file.starts_with(stem)) return false;
  std::string_view rest = file.substr(stem.size());
  if (rest.ends_with(".cc")) {
    rest.remove_suffix(3);
  } else if (rest.ends_with(".c")) {
    rest.remove_suffix(2);
  } else {
    return false;
  }
  return all_digits(rest);
}

// "<anything>_lib<N>.c"
bool looks_like_library(std::string_view file) {
  const size_t lib = file.rfind("_lib");
  return lib != std::string_view::npos && lib > 0 && is_library_of(file, file.substr(0, lib));
}

size_t common_prefix_dirs(const std::string& a, const std::string& b) {
  size_t n = 0;
  size_t common = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) {
    ++n;
    if (a[n - 1] == '/') common = n;
  }
  if ((n == a.size() || a[n] == '/') && (n == b.size() || b[n] == '/')) common = n;
  return common;
}

bool identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Whether a function body follows the parameter list that opens at `open`: "(...)" then "{",
// with blanks between. Parameter lists longer than this are not TVM's. `budget` bounds the
// characters all the checks on one text may scan, so that hostile text stays linear.
bool body_follows(std::string_view text, size_t open, size_t& budget) {
  constexpr size_t kMaxParameterText = 1 << 16;
  if (open >= text.size() || text[open] != '(') return false;
  int depth = 0;
  size_t at = open;
  for (; at < text.size() && at - open < kMaxParameterText && budget > 0; ++at, --budget) {
    if (text[at] == '(') ++depth;
    if (text[at] == ')' && --depth == 0) break;
    if (text[at] == ';' || text[at] == '{') return false;
  }
  if (at >= text.size() || text[at] != ')') return false;
  for (++at; at < text.size() && budget > 0; ++at, --budget) {
    if (!std::isspace(static_cast<unsigned char>(text[at]))) return text[at] == '{';
  }
  return false;
}

// Scanning allowance per text: a few times the largest real library.
constexpr size_t kScanBudget = 64ull << 20;

// The identifier that ends at `end`, or "" when the identifier goes on past `end`.
std::string_view identifier_ending_at(std::string_view text, size_t end) {
  if (end < text.size() && identifier_char(text[end])) return {};  // checked first: stays linear
  size_t begin = end;
  while (begin > 0 && identifier_char(text[begin - 1]))
    --begin;
  return text.substr(begin, end - begin);
}

size_t skip_blanks(std::string_view text, size_t at) {
  while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at])))
    ++at;
  return at;
}

std::string module_of_prefix(std::string_view prefix) {
  constexpr std::string_view kMangled = "tvmgen_";
  if (prefix.starts_with(kMangled) && prefix.size() > kMangled.size() + 1)
    return std::string(prefix.substr(kMangled.size(), prefix.size() - kMangled.size() - 1));
  return std::string(prefix.substr(0, prefix.size() - 1));
}

}  // namespace

bool is_c_source(std::string_view path) {
  return path.ends_with(".c") || path.ends_with(".cc");
}

bool defines_function(std::string_view text, std::string_view name) {
  if (name.empty()) return false;
  size_t budget = kScanBudget;
  for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    if (at > 0 && identifier_char(text[at - 1])) continue;
    if (identifier_ending_at(text, at + name.size()).size() != name.size()) continue;
    if (body_follows(text, skip_blanks(text, at + name.size()), budget)) return true;
  }
  return false;
}

std::optional<DefinedEntry> defined_entry(std::string_view text) {
  constexpr std::string_view kMain = "___tvm_main__";
  constexpr std::string_view kRunModel = "_run_model";
  std::optional<DefinedEntry> found;
  size_t budget = kScanBudget;
  for (const std::string_view suffix : {kMain, kRunModel}) {
    for (size_t at = text.find(suffix); at != std::string_view::npos && !found; at = text.find(suffix, at + 1)) {
      const size_t end = at + suffix.size();
      const std::string_view name = identifier_ending_at(text, end);
      if (name.size() <= suffix.size()) continue;
      // __tvm_main__ is TVM's alone; run_model only with TVM's mangled prefix (tvmgen_<mod>_).
      const size_t stem = suffix == kMain ? name.size() - (kMain.size() - 1) : name.size() - (kRunModel.size() - 1);
      const std::string_view prefix = name.substr(0, stem);
      if (suffix == kRunModel && (!prefix.starts_with("tvmgen_") || prefix.size() <= 8)) continue;
      if (!body_follows(text, skip_blanks(text, end), budget)) continue;
      found = DefinedEntry{std::string(name), std::string(prefix), module_of_prefix(prefix)};
    }
    if (found) return found;
  }
  return found;
}

long library_number(std::string_view file) {
  const size_t dot = file.rfind('.');
  size_t end = dot == std::string_view::npos ? file.size() : dot;
  size_t begin = end;
  while (begin > 0 && std::isdigit(static_cast<unsigned char>(file[begin - 1])))
    --begin;
  if (begin == end || end - begin > 9) return 1'000'000'000;
  return std::stol(std::string(file.substr(begin, end - begin)));
}

bool is_firmware_member(std::string_view path) {
  const std::string_view file = base_name(path);
  if (!header_module(file).empty()) return true;
  if (looks_like_library(file)) return true;
  return path.ends_with("tvm/runtime/c_runtime_api.h");
}

FirmwareLayout find_firmware_modules(const std::vector<std::string>& members) {
  std::map<std::string, std::vector<std::string>> headers;  // module -> header paths
  for (const std::string& m : members) {
    const std::string mod = header_module(base_name(m));
    if (!mod.empty()) headers[mod].push_back(m);
  }
  FirmwareLayout layout;
  for (auto& [mod, module_headers] : headers) {
    std::map<std::string, std::vector<std::string>> by_dir;  // folder -> library files
    for (const std::string& m : members) {
      if (is_library_of(base_name(m), mod)) by_dir[dir_name(m)].push_back(m);
    }
    if (by_dir.empty()) continue;
    auto best = by_dir.begin();
    for (auto it = by_dir.begin(); it != by_dir.end(); ++it) {
      if (it->second.size() > best->second.size()) best = it;
    }
    FirmwareModuleFiles files;
    files.name = mod;
    files.sources = best->second;
    std::stable_sort(files.sources.begin(), files.sources.end(), [](const std::string& a, const std::string& b) {
      return library_number(base_name(a)) < library_number(base_name(b));
    });
    // The header nearest to the sources: the longest common folder prefix.
    size_t nearest = 0;
    for (const std::string& h : module_headers) {
      const size_t common = common_prefix_dirs(dir_name(h), best->first);
      if (files.header.empty() || common > nearest) {
        files.header = h;
        nearest = common;
      }
    }
    for (const auto& [dir, sources] : by_dir) {
      if (dir == best->first) continue;
      layout.ignored.push_back("another copy of module '" + mod + "' in " + (dir.empty() ? "." : dir) + " (" +
                               std::to_string(sources.size()) + " files) is left aside; the module is read from " +
                               (best->first.empty() ? "." : best->first));
    }
    for (const std::string& h : module_headers) {
      if (h != files.header) {
        layout.ignored.push_back("another tvmgen_" + mod + ".h in " + dir_name(h) + " is left aside; the header is " +
                                 files.header);
      }
    }
    layout.modules.push_back(std::move(files));
  }
  return layout;
}

FirmwareLayout find_firmware_modules(const std::vector<std::string>& members, const MemberText& text) {
  FirmwareLayout layout = find_firmware_modules(members);
  const auto defines_entry = [&](const FirmwareModuleFiles& f) {
    return std::any_of(f.sources.begin(), f.sources.end(), [&](const std::string& s) {
      const std::string* t = text(s);
      return t && defined_entry(*t).has_value();
    });
  };
  for (const std::string& m : members) {
    if (!is_c_source(m)) continue;
    const std::string* data = text(m);
    if (!data) continue;
    const std::optional<DefinedEntry> entry = defined_entry(*data);
    if (!entry) continue;
    auto module = std::find_if(layout.modules.begin(), layout.modules.end(),
                               [&](const FirmwareModuleFiles& f) { return f.name == entry->module; });
    const bool known = module != layout.modules.end();
    // A module found by name whose own sources define the entry needs nothing more (copies of its
    // files elsewhere are already left aside by name).
    if (known && module->entry_file.empty() && defines_entry(*module)) continue;
    if (known && !module->entry_file.empty()) {
      layout.ignored.push_back("another file defining " + entry->name + ", " + m +
                               ", is left aside; the entry is read from " + module->entry_file);
      continue;
    }
    if (!known) {
      FirmwareModuleFiles files;
      files.name = entry->module;
      // The header nearest to the entry file, when the tree has one.
      size_t nearest = 0;
      for (const std::string& h : members) {
        if (header_module(base_name(h)) != entry->module) continue;
        const size_t common = common_prefix_dirs(dir_name(h), dir_name(m));
        if (files.header.empty() || common > nearest) {
          files.header = h;
          nearest = common;
        }
      }
      layout.modules.push_back(std::move(files));
      module = layout.modules.end() - 1;
    }
    // The entry file and the C files beside it that use the module's prefix (the operators,
    // lib0's run wrapper), not devc.c's blob nor the application's code.
    module->entry_file = m;
    module->entry = entry->name;
    for (const std::string& other : members) {
      if (!is_c_source(other) || dir_name(other) != dir_name(m)) continue;
      if (std::find(module->sources.begin(), module->sources.end(), other) != module->sources.end()) continue;
      const std::string* t = other == m ? data : text(other);
      if (other == m || (t && t->find(entry->prefix) != std::string::npos)) module->sources.push_back(other);
    }
    std::stable_sort(module->sources.begin(), module->sources.end(), [](const std::string& a, const std::string& b) {
      const long na = library_number(base_name(a));
      const long nb = library_number(base_name(b));
      return na != nb ? na < nb : a < b;
    });
  }
  for (FirmwareModuleFiles& f : layout.modules) {
    f.has_lib0 = std::any_of(f.sources.begin(), f.sources.end(), [&](const std::string& s) {
      const std::string_view file = base_name(s);
      if (file.ends_with("lib0.c") || file.ends_with("lib0.cc")) return true;
      const std::string* t = text(s);
      return t && defines_function(*t, "tvmgen_" + f.name + "_run");
    });
  }
  std::sort(layout.modules.begin(), layout.modules.end(),
            [](const FirmwareModuleFiles& a, const FirmwareModuleFiles& b) { return a.name < b.name; });
  return layout;
}

std::optional<std::string> tvm_version_in_runtime_header(std::string_view text) {
  constexpr std::string_view kDefine = "#define TVM_VERSION";
  size_t at = 0;
  while ((at = text.find(kDefine, at)) != std::string_view::npos) {
    const bool line_start = at == 0 || text[at - 1] == '\n';
    at += kDefine.size();
    if (!line_start || at >= text.size() || (text[at] != ' ' && text[at] != '\t')) continue;
    const size_t open = text.find('"', at);
    const size_t eol = text.find('\n', at);
    if (open == std::string_view::npos || (eol != std::string_view::npos && open > eol)) continue;
    const size_t close = text.find('"', open + 1);
    if (close == std::string_view::npos || (eol != std::string_view::npos && close > eol)) continue;
    const std::string_view version = text.substr(open + 1, close - open - 1);
    if (version.empty() || version.size() > 40) continue;
    return std::string(version);
  }
  return std::nullopt;
}

std::string bundled_runtime_header(const std::vector<std::string>& members) {
  for (const std::string& m : members) {
    if (m.ends_with("tvm/runtime/c_runtime_api.h")) return m;
  }
  return "";
}

}  // namespace usmpx
