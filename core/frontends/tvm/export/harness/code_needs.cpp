#include "frontends/tvm/export/harness/code_needs.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string_view>

#include "base/archive_path.h"
#include "frontends/tvm/c_analysis/standin_headers.h"
#include "frontends/tvm/export/harness/builtin_kernels.h"

namespace usmpx {
namespace {

// What one C file shows to a reader that does not preprocess: the headers it includes, the macros
// it defines, the functions it defines (a name, its parameter list, then a body) and the
// functions it calls (a name and "(" where an expression can start).
struct CFileScan {
  std::vector<std::string> includes;
  std::set<std::string> macros;
  std::set<std::string> defined;
  std::vector<std::string> called;  // in order of first call
};

bool ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

struct Token {
  std::string text;
  bool ident = false;
};

// A preprocessor line: an #include's header, or a #define's name.
void scan_directive(std::string_view line, CFileScan& scan) {
  size_t i = line.find_first_not_of(" \t", 1);
  if (i == std::string_view::npos) return;
  const size_t word_end = line.find_first_of(" \t<\"", i);
  const std::string_view word = line.substr(i, word_end == std::string_view::npos ? line.size() - i : word_end - i);
  if (word_end == std::string_view::npos) return;
  size_t j = line.find_first_not_of(" \t", word_end);
  if (j == std::string_view::npos) return;
  if (word == "include") {
    const char close = line[j] == '<' ? '>' : line[j] == '"' ? '"' : '\0';
    if (close == '\0') return;
    const size_t end = line.find(close, j + 1);
    if (end != std::string_view::npos) scan.includes.emplace_back(line.substr(j + 1, end - j - 1));
  } else if (word == "define") {
    size_t end = j;
    while (end < line.size() && ident_char(line[end]))
      ++end;
    if (end > j) scan.macros.emplace(line.substr(j, end - j));
  }
}

std::vector<Token> tokenize(std::string_view text, CFileScan& scan) {
  std::vector<Token> tokens;
  bool line_start = true;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      line_start = true;
      ++i;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '#' && line_start) {
      size_t end = i;
      while (end < text.size() && !(text[end] == '\n' && (end == 0 || text[end - 1] != '\\')))
        ++end;
      scan_directive(text.substr(i, end - i), scan);
      i = end;
    } else if (text.compare(i, 2, "//") == 0) {
      while (i < text.size() && text[i] != '\n')
        ++i;
    } else if (text.compare(i, 2, "/*") == 0) {
      const size_t end = text.find("*/", i + 2);
      i = end == std::string_view::npos ? text.size() : end + 2;
    } else if (c == '"' || c == '\'') {
      size_t end = i + 1;
      while (end < text.size() && text[end] != c && text[end] != '\n')
        end += text[end] == '\\' ? 2 : 1;
      tokens.push_back({"\"", false});
      i = std::min(text.size(), end + 1);
      line_start = false;
    } else if (ident_start(c)) {
      size_t end = i;
      while (end < text.size() && ident_char(text[end]))
        ++end;
      tokens.push_back({std::string(text.substr(i, end - i)), true});
      i = end;
      line_start = false;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t end = i;
      while (end < text.size() && (ident_char(text[end]) || text[end] == '.'))
        ++end;
      tokens.push_back({"0", false});
      i = end;
      line_start = false;
    } else {
      tokens.push_back({std::string(1, c), false});
      ++i;
      line_start = false;
    }
  }
  return tokens;
}

// Words that take parentheses without being functions.
bool is_keyword(const std::string& w) {
  static const std::set<std::string> words = {"if",
                                              "for",
                                              "while",
                                              "switch",
                                              "return",
                                              "sizeof",
                                              "_Alignof",
                                              "alignof",
                                              "__alignof__",
                                              "_Alignas",
                                              "alignas",
                                              "defined",
                                              "typeof",
                                              "__typeof__",
                                              "_Generic",
                                              "_Static_assert",
                                              "static_assert",
                                              "__extension__",
                                              "__attribute__",
                                              "__declspec",
                                              "asm",
                                              "__asm",
                                              "__asm__",
                                              "__volatile__",
                                              "volatile",
                                              "case",
                                              "do",
                                              "else"};
  return words.count(w) > 0;
}

// For every "(" token, the index after its matching ")" (tokens.size() when unmatched), found in
// one pass so that deeply nested input costs linear time.
std::vector<size_t> group_ends(const std::vector<Token>& tokens) {
  std::vector<size_t> ends(tokens.size(), tokens.size());
  std::vector<size_t> open;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].text == "(") {
      open.push_back(i);
    } else if (tokens[i].text == ")" && !open.empty()) {
      ends[open.back()] = i + 1;
      open.pop_back();
    }
  }
  return ends;
}

CFileScan scan_c(std::string_view text) {
  CFileScan scan;
  const std::vector<Token> tokens = tokenize(text, scan);
  const std::vector<size_t> ends = group_ends(tokens);
  const auto skip_group = [&](size_t open) { return tokens[open].text == "(" ? ends[open] : open; };
  std::set<std::string> seen_calls;
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    const Token& t = tokens[i];
    if (!t.ident || tokens[i + 1].text != "(") continue;
    if (t.text == "__attribute__" || t.text == "__declspec" || t.text == "_Alignas" || t.text == "asm" ||
        t.text == "__asm" || t.text == "__asm__") {
      i = skip_group(i + 1) - 1;
      continue;
    }
    if (is_keyword(t.text)) continue;
    size_t after = skip_group(i + 1);
    while (after + 1 < tokens.size() && tokens[after].text == "__attribute__" && tokens[after + 1].text == "(")
      after = skip_group(after + 1);
    if (after < tokens.size() && tokens[after].text == "{") {
      scan.defined.insert(t.text);
      continue;
    }
    // A call stands where an expression starts; a declaration follows a type or a '*'.
    const Token* prev = i > 0 ? &tokens[i - 1] : nullptr;
    bool call = prev != nullptr && !(prev->ident && !is_keyword(prev->text)) && prev->text != "*" &&
                prev->text != "." && !(prev->text == ">" && i > 1 && tokens[i - 2].text == "-");
    if (call && seen_calls.insert(t.text).second) scan.called.push_back(t.text);
  }
  return scan;
}

// The C library as TVM's generated code and our harness use it.
bool c_library_function(const std::string& name) {
  static const std::set<std::string> names = [] {
    std::set<std::string> n = {"malloc",   "calloc",     "realloc",
                               "free",     "abort",      "exit",
                               "_Exit",    "abs",        "labs",
                               "llabs",    "div",        "atoi",
                               "qsort",    "memcpy",     "memmove",
                               "memset",   "memcmp",     "strlen",
                               "strcmp",   "strncmp",    "strcpy",
                               "strncpy",  "printf",     "fprintf",
                               "snprintf", "sprintf",    "puts",
                               "putchar",  "assert",     "va_start",
                               "va_end",   "va_arg",     "offsetof",
                               "isnan",    "isinf",      "isfinite",
                               "signbit",  "fpclassify", "initialise_monitor_handles"};
    for (const char* base :
         {"exp",    "exp2",  "expm1", "log",       "log2",     "log10",   "log1p",     "pow",    "sqrt",
          "cbrt",   "sin",   "cos",   "tan",       "asin",     "acos",    "atan",      "atan2",  "sinh",
          "cosh",   "tanh",  "asinh", "acosh",     "atanh",    "erf",     "erfc",      "tgamma", "lgamma",
          "ceil",   "floor", "trunc", "round",     "lround",   "llround", "nearbyint", "rint",   "lrint",
          "llrint", "fabs",  "fmod",  "remainder", "fmax",     "fmin",    "fdim",      "fma",    "hypot",
          "frexp",  "ldexp", "modf",  "scalbn",    "copysign", "nan"}) {
      n.insert(base);
      n.insert(std::string(base) + "f");
      n.insert(std::string(base) + "l");
    }
    return n;
  }();
  return names.count(name) > 0 || name.starts_with("__builtin_") || name.starts_with("__sync_") ||
         name.starts_with("__atomic_");
}

bool standard_header(const std::string& h) {
  static const std::set<std::string> names = {
      "assert.h",  "complex.h", "ctype.h",  "errno.h",  "fenv.h",   "float.h",       "inttypes.h", "iso646.h",
      "limits.h",  "locale.h",  "math.h",   "setjmp.h", "signal.h", "stdalign.h",    "stdarg.h",   "stdatomic.h",
      "stdbool.h", "stddef.h",  "stdint.h", "stdio.h",  "stdlib.h", "stdnoreturn.h", "string.h",   "tgmath.h",
      "threads.h", "time.h",    "uchar.h",  "wchar.h",  "wctype.h", "arm_acle.h"};
  return names.count(h) > 0;
}

// Heap APIs of vendor SDKs, which the harness (bare metal, newlib / glibc) does not have.
std::string sdk_heap_api(const std::string& name) {
  if (name.starts_with("heap_caps_")) return "ESP-IDF's heap API";
  if (name == "pvPortMalloc" || name == "vPortFree") return "FreeRTOS's heap API";
  if (name == "k_malloc" || name == "k_free" || name == "k_calloc" || name.starts_with("k_heap_") ||
      name == "k_aligned_alloc")
    return "Zephyr's heap API";
  if (name == "rt_malloc" || name == "rt_free") return "RT-Thread's heap API";
  return "";
}

// ACLE (`__ssub8`) and CMSIS-Core (`__SMLAD`) names; not `__tvm_main__`-like names, which end in "__".
bool arm_intrinsic(const std::string& name) {
  return name.size() > 2 && name.starts_with("__") && !name.starts_with("__builtin_") && ident_start(name[2]) &&
         name[2] != '_' && !name.ends_with("__");
}

// CMSIS-NN's support helpers that TVM's Arm DSP schedules call without CMSIS-NN's kernels (the
// built-in arm_nnsupportfunctions.h defines them).
bool cmsis_nn_support_helper(const std::string& name) {
  return name == "read_and_pad" || name == "read_and_pad_reordered";
}

std::string lower(std::string s) {
  for (char& c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool is_source(const std::string& path) {
  return path.ends_with(".c") || path.ends_with(".h");
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Everything that provides definitions and headers to the build.
struct Providers {
  std::set<std::string> functions;  // defined (or macros)
  std::set<std::string> bodies;     // defined with a body in the bundle's own sources
  std::set<std::string> host_acle;  // the host's arm_acle.h stand-in
  std::vector<std::string> header_paths;
  std::vector<std::filesystem::path> header_dirs;

  void add(const CFileScan& s) {
    functions.insert(s.defined.begin(), s.defined.end());
    functions.insert(s.macros.begin(), s.macros.end());
  }
  void add(std::string_view text) { add(scan_c(text)); }

  bool has_header(const std::string& h) const {
    if (standard_header(h)) return true;
    for (const std::string& p : header_paths) {
      if (p == h || p.ends_with("/" + h)) return true;
    }
    // "../../src/x/include/y.h": a file of the bundle ending in "src/x/include/y.h" (the harness
    // places the stand-in runtime headers such relative includes name where they resolve).
    const std::string_view rest = split_relative_include(h).rest;
    if (rest.size() != h.size() && !rest.empty()) {
      for (const std::string& p : header_paths) {
        if (p == rest || p.ends_with("/" + std::string(rest))) return true;
      }
    }
    std::error_code ec;
    for (const std::filesystem::path& d : header_dirs) {
      if (std::filesystem::is_regular_file(d / h, ec)) return true;
    }
    return false;
  }
};

void add_folder(Providers& p, const std::filesystem::path& dir, bool recursive_sources) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return;
  p.header_dirs.push_back(dir);
  const auto visit = [&](const std::filesystem::directory_entry& e) {
    const std::string name = e.path().filename().string();
    if (e.is_regular_file(ec) && is_source(name)) p.add(read_text(e.path()));
  };
  if (recursive_sources) {
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir, ec))
      visit(e);
  } else {
    for (const auto& e : std::filesystem::directory_iterator(dir, ec))
      visit(e);
  }
}

}  // namespace

void add_bundle_headers(CParseInput& in, const ExportBundle& bundle, std::string_view skipped,
                        std::set<std::string> dirs) {
  for (const ExportFile& f : bundle.files) {
    if (!f.path.ends_with(".h") || f.path.starts_with(skipped)) continue;
    in.include_files.push_back({f.path, f.data});
    dirs.insert(folder_of(f.path));
  }
  in.include_dirs.assign(dirs.begin(), dirs.end());
  in.display_root = "(harness)";
}

std::vector<std::string> harness_model_sources(const ExportBundle& bundle) {
  std::vector<std::string> sources;
  if (const ExportFile* makefile = bundle.find("harness/Makefile")) {
    std::istringstream in(makefile->data);
    std::string line;
    while (std::getline(in, line)) {
      if (!line.starts_with("MODEL_SRCS :=")) continue;
      std::istringstream words(line.substr(13));
      std::string w;
      while (words >> w)
        sources.push_back(w.starts_with("$(ROOT)/") ? w.substr(8) : w);
      return sources;
    }
  }
  for (const ExportFile& f : bundle.files) {
    if (f.path.starts_with("codegen/host/src/") && f.path.ends_with(".c")) sources.push_back(f.path);
  }
  return sources;
}

CodeNeeds analyse_code_needs(const ExportBundle& bundle, const CodeProviders& options) {
  namespace fs = std::filesystem;
  Providers providers;
  for (const ExportFile& f : bundle.files) {
    if (!is_source(f.path) || f.path.starts_with("runtime/")) continue;
    providers.header_paths.push_back(f.path);
    const CFileScan s = scan_c(f.data);
    if (f.path.starts_with("harness/include-host/")) {
      providers.host_acle.insert(s.defined.begin(), s.defined.end());
      providers.host_acle.insert(s.macros.begin(), s.macros.end());
      continue;
    }
    providers.add(s);
    if (!f.path.starts_with("harness/")) providers.bodies.insert(s.defined.begin(), s.defined.end());
  }
  if (options.builtin_cmsis_nn) {
    for (const EmbeddedFile& f : builtin_cmsis_nn_files()) {
      providers.add(f.text);
      if (f.path.starts_with("Include/")) providers.header_paths.emplace_back(f.path.substr(8));
    }
  }
  if (!options.cmsis_nn_dir.empty()) {
    add_folder(providers, fs::path(options.cmsis_nn_dir) / "Include", true);
    add_folder(providers, fs::path(options.cmsis_nn_dir) / "Source", true);
  }
  if (!options.kernels_dir.empty()) {
    add_folder(providers, fs::path(options.kernels_dir), false);
    add_folder(providers, fs::path(options.kernels_dir) / "include", true);
  }

  CodeNeeds needs;
  std::vector<std::string> files = harness_model_sources(bundle);
  files.push_back("harness/main.c");
  std::set<std::string> intrinsics;
  for (const std::string& path : files) {
    const ExportFile* f = bundle.find(path);
    if (!f) continue;
    const CFileScan scan = scan_c(f->data);
    const std::string name = base_name(path);
    for (const std::string& h : scan.includes) {
      const bool arm_header = h == "arm_acle.h" || h == "arm_math.h" || h.starts_with("cmsis_") ||
                              h.starts_with("core_cm") || h == "arm_nnsupportfunctions.h";
      if (arm_header) {
        if (std::find(needs.arm_headers.begin(), needs.arm_headers.end(), h) == needs.arm_headers.end())
          needs.arm_headers.push_back(h);
        if (needs.arm_file.empty() && h != "arm_nnsupportfunctions.h") needs.arm_file = name;
      }
      if (h == "arm_nnfunctions.h" && needs.cmsis_nn_file.empty()) needs.cmsis_nn_file = name;
      if (!providers.has_header(h)) needs.missing_headers.emplace_back(name, h);
    }
    std::vector<std::string> undefined;
    for (const std::string& call : scan.called) {
      if (arm_intrinsic(call) && !providers.bodies.count(call)) {
        if (intrinsics.insert(call).second) needs.arm_intrinsics.push_back(call);
        if (needs.arm_file.empty()) needs.arm_file = name;
        if (!providers.host_acle.count(lower(call))) needs.host_covers_arm = false;
        continue;
      }
      if (call.starts_with("arm_") || cmsis_nn_support_helper(call)) {
        if (std::find(needs.cmsis_nn_functions.begin(), needs.cmsis_nn_functions.end(), call) ==
            needs.cmsis_nn_functions.end())
          needs.cmsis_nn_functions.push_back(call);
        if (needs.cmsis_nn_file.empty()) needs.cmsis_nn_file = name;
      }
      if (providers.functions.count(call) || c_library_function(call)) continue;
      if (const std::string sdk = sdk_heap_api(call); !sdk.empty()) {
        needs.sdk_heap_calls.emplace_back(name, call + " (" + sdk + ")");
        continue;
      }
      undefined.push_back(call);
    }
    if (!undefined.empty()) needs.undefined_calls.emplace_back(name, undefined);
  }
  return needs;
}

}  // namespace usmpx
