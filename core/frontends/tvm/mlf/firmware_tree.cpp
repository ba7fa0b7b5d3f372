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

}  // namespace

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
