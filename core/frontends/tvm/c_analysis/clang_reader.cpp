#include "frontends/tvm/c_analysis/clang_reader.h"

#include <clang-c/Index.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <set>

#include "base/input_error.h"
#include "frontends/tvm/c_analysis/clang_converter.h"
#include "frontends/tvm/c_analysis/constant_data.h"
#include "frontends/tvm/c_analysis/nesting_guard.h"
#include "frontends/tvm/c_analysis/standin_headers.h"

namespace usmpx {
namespace {

// Virtual folders of the files handed to libclang; none of them exists on disk.
const std::string kArchiveRoot = "/usmpx-mlf/";
const std::string kLibcRoot = "/usmpx-standin/libc/";
const std::string kTvmRoot = "/usmpx-standin/tvm/";
const std::string kUnknownRoot = "/usmpx-standin/unknown/";  // empty files for headers the input lacks

constexpr int kMaxErrorsPerFile = 10;

std::string take(CXString s) {
  return take_cx_string(s);
}

struct IndexDeleter {
  void operator()(void* index) const { clang_disposeIndex(index); }
};

std::string display_name(const std::string& virtual_path, const std::string& root) {
  if (virtual_path.rfind(kArchiveRoot, 0) == 0) {
    const std::string rel = virtual_path.substr(kArchiveRoot.size());
    return root.empty() ? rel : root + "/" + rel;
  }
  for (const std::string* standin : {&kLibcRoot, &kTvmRoot, &kUnknownRoot}) {
    if (virtual_path.rfind(*standin, 0) == 0) return "<stand-in " + virtual_path.substr(standin->size()) + ">";
  }
  return virtual_path;
}

// What clang said about the translation unit, one text per diagnostic.
std::vector<std::string> diagnostic_texts(CXTranslationUnit tu) {
  std::vector<std::string> texts;
  const unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n; ++i) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    texts.push_back(take(clang_getDiagnosticSpelling(d)));
    clang_disposeDiagnostic(d);
  }
  return texts;
}

// The headers clang reported missing ("'x.h' file not found").
std::set<std::string> missing_includes(CXTranslationUnit tu) {
  std::set<std::string> names;
  constexpr std::string_view kSuffix = "' file not found";
  for (const std::string& text : diagnostic_texts(tu)) {
    if (text.size() > kSuffix.size() + 1 && text.front() == '\'' &&
        text.compare(text.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0) {
      const std::string name = text.substr(1, text.size() - kSuffix.size() - 1);
      if (name.find("..") == std::string::npos && !name.empty() && name.front() != '/') names.insert(name);
    }
  }
  return names;
}

// Reserved names clang took for unknown types ("unknown type name '__STATIC_FORCEINLINE'"): the
// attribute macros of a compiler or CMSIS header the input lacks. Read as empty macros, the
// functions they qualify keep their structure.
std::set<std::string> unknown_reserved_specifiers(CXTranslationUnit tu) {
  std::set<std::string> names;
  constexpr std::string_view kPrefix = "unknown type name '__";
  for (const std::string& text : diagnostic_texts(tu)) {
    if (text.rfind(kPrefix, 0) != 0 || text.back() != '\'') continue;
    const std::string name = text.substr(kPrefix.size() - 2, text.size() - (kPrefix.size() - 2) - 1);
    const bool identifier = std::all_of(name.begin(), name.end(),
                                        [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    if (identifier && name.size() <= 64) names.insert(name);
  }
  return names;
}

Diagnostic parse_note(const CParseInput& input, const CSourceFile& file, const std::string& code, std::string message) {
  Diagnostic d;
  d.severity = Severity::kNote;
  d.code = code;
  d.location = {input.display_root + "/" + file.path, 0, 0};
  d.message = std::move(message);
  return d;
}

// clang's error for a function declaration with an identifier list, `int32_t f(a, b);`.
bool identifier_list_declaration(CXDiagnostic d) {
  return take(clang_getDiagnosticSpelling(d)) ==
         "a parameter list without types is only allowed in a function definition";
}

void collect_errors(CXTranslationUnit tu, const std::string& file, int file_index, const std::string& virtual_path,
                    const std::string& root, CProgram& program) {
  int reported = 0;
  int more = 0;
  const unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n; ++i) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error && identifier_list_declaration(d)) {
      // TVM 0.8's lib0.c declares its entry `tvmgen_default_run_model(arg0,arg1);`: GCC takes it
      // (with a warning) as a declaration without a prototype, and so does clang's recovery.
      CXFile f = nullptr;
      unsigned line = 0, column = 0;
      clang_getFileLocation(clang_getDiagnosticLocation(d), &f, &line, &column, nullptr);
      Diagnostic out;
      out.severity = Severity::kNote;
      out.code = "c-identifier-list";
      out.location = {f ? display_name(take(clang_getFileName(f)), root) : root + "/" + file, static_cast<int>(line),
                      static_cast<int>(column)};
      out.message =
          "a declaration with parameter names but no types (TVM 0.8 writes its entry's so; GCC accepts it "
          "with a warning): read as declaring no prototype";
      program.diagnostics.push_back(std::move(out));
    } else if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
      CXFile at_file = nullptr;
      unsigned at_offset = 0;
      clang_getFileLocation(clang_getDiagnosticLocation(d), &at_file, nullptr, nullptr, &at_offset);
      if (at_file && take(clang_getFileName(at_file)) == virtual_path) {
        program.error_positions.emplace_back(file_index, at_offset);
      }
      if (reported < kMaxErrorsPerFile) {
        CXFile f = nullptr;
        unsigned line = 0, column = 0;
        clang_getFileLocation(clang_getDiagnosticLocation(d), &f, &line, &column, nullptr);
        Diagnostic out;
        out.severity = Severity::kWarning;
        out.code = "c-parse-error";
        out.location = {f ? display_name(take(clang_getFileName(f)), root) : root + "/" + file, static_cast<int>(line),
                        static_cast<int>(column)};
        out.message = "C parse error: " + take(clang_getDiagnosticSpelling(d));
        program.diagnostics.push_back(std::move(out));
        ++reported;
      } else {
        ++more;
      }
    }
    clang_disposeDiagnostic(d);
  }
  if (more > 0) {
    Diagnostic out;
    out.severity = Severity::kWarning;
    out.code = "c-parse-error";
    out.location = {root + "/" + file, 0, 0};
    out.message = std::to_string(more) + " more C parse errors";
    program.diagnostics.push_back(std::move(out));
  }
}

// One parse of a program: the files clang may see (by virtual path), the flags, and what the
// rounds of parsing learnt (headers the input lacks, specifiers no header defines).
class ProgramParser {
 public:
  explicit ProgramParser(const CParseInput& input) : input_(input), index_(clang_createIndex(0, 0)) {}

  CProgram run() {
    gather_files();
    if (input_.standin_runtime) add_runtime_headers();
    prepare();
    for (const CSourceFile& f : input_.sources)
      parse(f, false);
    for (const CSourceFile& f : input_.macro_headers)
      parse(f, true);
    return std::move(program_);
  }

 private:
  // Whether clang may see the file: one nested beyond what it parses safely is left out, with a warning.
  bool guard(const CSourceFile& f, std::string_view text) {
    const std::optional<CNestingFinding> finding = find_excessive_c_nesting(text);
    if (!finding) return true;
    Diagnostic d;
    d.severity = Severity::kWarning;
    d.code = "c-too-deep";
    d.location = location_in_text(text, finding->offset, input_.display_root + "/" + f.path);
    d.message = finding->message + " is beyond what the C analysis reads safely; the file is left out";
    program_.diagnostics.push_back(std::move(d));
    too_deep_.insert(f.path);
    return false;
  }

  void gather_files() {
    blanked_.reserve(input_.sources.size());
    for (const CSourceFile& f : input_.sources) {
      blanked_.push_back(input_.skip_constant_data ? blank_constant_data(f.text) : std::string(f.text));
      guard(f, blanked_.back());
      files_.emplace_back(kArchiveRoot + f.path, blanked_.back());
    }
    for (const CSourceFile& f : input_.macro_headers)
      files_.emplace_back(kArchiveRoot + f.path, guard(f, f.text) ? f.text : std::string_view());
    for (const CSourceFile& f : input_.include_files) {
      const bool safe = !too_deep_.count(f.path) && guard(f, f.text);
      files_.emplace_back(kArchiveRoot + f.path, safe ? f.text : std::string_view());
    }
    for (const StandinHeader& h : standin_libc_headers())
      files_.emplace_back(kLibcRoot + std::string(h.path), h.text);
    for (const StandinHeader& h : standin_kernel_headers())
      files_.emplace_back(kLibcRoot + std::string(h.path), h.text);
  }

  // TVM's runtime headers as stand-ins, and for a runtime header a source includes by a path
  // relative to its own folder, as firmware trees include TVM's from where they keep it: a file at
  // exactly the path clang looks up (the source's folder, "/", the include's text) that includes
  // our stand-in.
  void add_runtime_headers() {
    for (const StandinHeader& h : standin_tvm_headers())
      files_.emplace_back(kTvmRoot + std::string(h.path), h.text);
    std::set<std::string> seen;
    for (const CSourceFile& f : input_.sources) {
      const std::string folder = (kArchiveRoot + f.path).substr(0, (kArchiveRoot + f.path).rfind('/'));
      for (const std::string& include : quoted_includes(f.text)) {
        const std::string_view standin = standin_for_relative_include(include);
        if (standin.empty() || !seen.insert(folder + "/" + include).second) continue;
        forwarding_.push_back(std::make_unique<std::string>("#include <" + std::string(standin) + ">\n"));
        files_.emplace_back(folder + "/" + include, *forwarding_.back());
      }
    }
  }

  // The unsaved files and the command line for the next parse.
  void prepare() {
    unsaved_.clear();
    for (const auto& [path, text] : files_)
      unsaved_.push_back({path.c_str(), text.data(), static_cast<unsigned long>(text.size())});
    unknown_paths_.clear();
    for (const std::string& name : unknown_headers_)
      unknown_paths_.push_back(kUnknownRoot + name);
    for (const std::string& path : unknown_paths_)
      unsaved_.push_back({path.c_str(), "", 0});
    // Calls to functions no header declares stay calls (an error by default in newer clang).
    args_ = {"-xc",
             "-std=gnu11",
             "-nostdinc",
             "-w",
             "-ferror-limit=0",
             "-fno-spell-checking",
             "-Wno-implicit-function-declaration",
             "-Wno-implicit-int"};
    for (const std::string& dir : input_.include_dirs)
      args_.push_back("-I" + kArchiveRoot + dir);
    for (const std::string& name : empty_macros_)
      args_.push_back("-D" + name + "=");
    if (input_.standin_runtime) args_.push_back("-I" + kTvmRoot);
    args_.push_back("-I" + kLibcRoot);
    args_.push_back("-I" + kUnknownRoot);
    if (!input_.target_triple.empty()) args_.insert(args_.begin(), {"-target", input_.target_triple});
    argv_.clear();
    for (const std::string& a : args_)
      argv_.push_back(a.c_str());
  }

  CXErrorCode parse_once(const std::string& path, unsigned options, CXTranslationUnit* tu) {
    return clang_parseTranslationUnit2(index_.get(), path.c_str(), argv_.data(), static_cast<int>(argv_.size()),
                                       unsaved_.data(), static_cast<unsigned>(unsaved_.size()), options, tu);
  }

  // Whether the parse found headers or specifiers not known before (each noted once).
  bool learn_from(CXTranslationUnit tu, const CSourceFile& file) {
    bool learnt = false;
    for (const std::string& name : missing_includes(tu)) {
      if (!unknown_headers_.insert(name).second) continue;
      learnt = true;
      program_.diagnostics.push_back(parse_note(
          input_, file, "c-missing-header",
          "'" + name + "' is not in the input; parsed without it (calls into it count as external operators)"));
    }
    for (const std::string& name : unknown_reserved_specifiers(tu)) {
      if (!empty_macros_.insert(name).second) continue;
      learnt = true;
      program_.diagnostics.push_back(parse_note(input_, file, "c-unknown-specifier",
                                                "'" + name + "' is defined by no header here; read as an empty macro"));
    }
    return learnt;
  }

  void parse(const CSourceFile& file, bool macros) {
    if (too_deep_.count(file.path)) {
      if (!macros) program_.left_out_files.push_back(file.path);
      return;
    }
    program_.files.push_back(file);
    const int file_index = static_cast<int>(program_.files.size()) - 1;
    const std::string path = kArchiveRoot + file.path;
    unsigned options = CXTranslationUnit_KeepGoing;
    if (macros) options |= CXTranslationUnit_DetailedPreprocessingRecord;
    CXTranslationUnit tu = nullptr;
    CXErrorCode status = parse_once(path, options, &tu);
    // Headers the input lacks (an operator library's, a vendor's) are supplied empty and the file
    // parsed again: its statements stay visible, unknown declarations become parse errors. A
    // missing header hides what follows it, so a second round may find reserved specifiers.
    for (int round = 0; round < 3 && status == CXError_Success && tu && learn_from(tu, file); ++round) {
      clang_disposeTranslationUnit(tu);
      tu = nullptr;
      prepare();
      status = parse_once(path, options, &tu);
    }
    if (status != CXError_Success || !tu) {
      Diagnostic d;
      d.severity = Severity::kWarning;
      d.code = "c-parse-error";
      d.location = {input_.display_root + "/" + file.path, 0, 0};
      d.message = "libclang could not parse this file (error " + std::to_string(static_cast<int>(status)) + ")";
      program_.diagnostics.push_back(std::move(d));
      if (!macros) program_.left_out_files.push_back(file.path);
      return;
    }
    collect_errors(tu, file.path, file_index, path, input_.display_root, program_);
    convert_translation_unit(tu, file_index, path, macros, program_);
    clang_disposeTranslationUnit(tu);
  }

  const CParseInput& input_;
  CProgram program_;
  std::vector<std::pair<std::string, std::string_view>> files_;  // the strings must outlive the parses
  std::vector<std::string> blanked_;  // what clang sees of the sources; offsets equal the originals'
  std::set<std::string> too_deep_;    // files clang must not see (it would overflow its stack)
  std::vector<std::unique_ptr<std::string>> forwarding_;  // the texts of the forwarding headers
  std::set<std::string> unknown_headers_;                 // includes the input lacks, supplied empty
  std::set<std::string> empty_macros_;                    // reserved specifiers no header defines, read as empty macros
  std::vector<std::string> unknown_paths_;
  std::vector<CXUnsavedFile> unsaved_;
  std::vector<std::string> args_;
  std::vector<const char*> argv_;
  std::unique_ptr<void, IndexDeleter> index_;
};

}  // namespace

CProgram parse_c_program(const CParseInput& input) {
  return ProgramParser(input).run();
}

}  // namespace usmpx
