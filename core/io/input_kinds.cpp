#include "io/input_kinds.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <optional>

#include "io/input_error.h"
#include "io/text_file.h"
#include "io/tir_input.h"
#include "mlf/archive_reader.h"
#include "mlf/firmware_tree.h"

namespace usmpx {
namespace {

bool ends_with_lower(std::string_view text, std::string_view suffix) {
  if (text.size() < suffix.size()) return false;
  return std::equal(suffix.begin(), suffix.end(), text.end() - static_cast<std::ptrdiff_t>(suffix.size()),
                    [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
}

bool is_archive_name(std::string_view path) {
  return ends_with_lower(path, ".tar") || ends_with_lower(path, ".tar.gz") || ends_with_lower(path, ".tgz");
}

// What recognition looks at, each part read at most once.
class Probe {
 public:
  explicit Probe(std::string path) : path_(std::move(path)) {
    std::error_code ec;
    folder_ = std::filesystem::is_directory(path_, ec);
    file_ = std::filesystem::is_regular_file(path_, ec);
  }

  const std::string& path() const { return path_; }
  bool folder() const { return folder_; }
  bool file() const { return file_; }
  bool archive() const { return file_ && is_archive_name(path_); }

  // Every regular file of a folder or archive (names only).
  const std::vector<std::string>& members() {
    if (!members_) {
      const MemberFilter none = [](std::string_view) { return false; };
      members_ = folder_ ? read_folder(path_, none).members : read_archive_file(path_, none).members;
    }
    return *members_;
  }

  bool has_member(std::string_view name) {
    if (folder_) {
      std::error_code ec;
      return std::filesystem::is_regular_file(std::filesystem::path(path_) / name, ec);
    }
    const auto& m = members();
    return std::find(m.begin(), m.end(), name) != m.end();
  }

  // The flatbuffer identifier "TFL3" at bytes 4..8.
  bool tflite_identifier() {
    if (!tflite_) {
      char header[8] = {};
      std::ifstream in(path_, std::ios::binary);
      tflite_ = file_ && in.read(header, 8) && std::string_view(header + 4, 4) == "TFL3";
    }
    return *tflite_;
  }

  std::optional<InputFormat> tir_format() {
    if (!tir_) tir_ = file_ ? detect_tir_format(read_text_file(path_)) : std::nullopt;
    return *tir_;
  }

 private:
  std::string path_;
  bool folder_ = false;
  bool file_ = false;
  std::optional<std::vector<std::string>> members_;
  std::optional<std::optional<InputFormat>> tir_;
  std::optional<bool> tflite_;
};

bool matches(InputFormat format, Probe& p) {
  switch (format) {
    case InputFormat::kSession:
      return p.file() && ends_with_lower(p.path(), ".usmpx.json");
    case InputFormat::kMlf:
      return (p.folder() || p.archive()) && p.has_member("metadata.json");
    case InputFormat::kFirmwareTree:
      return (p.folder() || p.archive()) && !find_firmware_modules(p.members()).modules.empty();
    case InputFormat::kTflite:
      return p.file() && !p.archive() && (ends_with_lower(p.path(), ".tflite") || p.tflite_identifier());
    case InputFormat::kProblemJson:
      return p.file() && ends_with_lower(p.path(), ".json");
    case InputFormat::kMinimallocCsv:
      return p.file() && ends_with_lower(p.path(), ".csv");
    case InputFormat::kTvmScript:
    case InputFormat::kLegacyTir:
      return p.file() && !p.archive() && p.tir_format() == format;
  }
  return false;
}

}  // namespace

const std::vector<InputKind>& input_kinds() {
  static const std::vector<InputKind> kinds = {
      {InputFormat::kSession, "explorer session", "a .usmpx.json file saved by the explorer"},
      {InputFormat::kMlf, "Model Library Format",
       "a .tar, .tar.gz or .tgz archive, or a folder, with metadata.json at its root"},
      {InputFormat::kFirmwareTree, "firmware tree",
       "a folder or archive holding tvmgen_<mod>.h and <mod>_lib<N>.c files somewhere below it"},
      {InputFormat::kTflite, "TFLite model",
       "a .tflite file, or a file with the flatbuffer identifier TFL3 at bytes 4..8"},
      {InputFormat::kProblemJson, "problem JSON", "a .json file in the usmpx-problem format"},
      {InputFormat::kMinimallocCsv, "MiniMalloc CSV", "a .csv file (id,lower,upper,size[,alignment])"},
      {InputFormat::kTvmScript, "TVMScript TIR",
       "a text file with @I.ir_module, @tvm.script.ir_module or @T.prim_func"},
      {InputFormat::kLegacyTir, "legacy TIR text", "a text file with primfn( functions (TVM 0.11 and older)"},
  };
  return kinds;
}

std::string_view to_string(InputFormat format) {
  for (const InputKind& k : input_kinds()) {
    if (k.format == format) return k.name;
  }
  return "unknown";
}

InputFormat recognise_input(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw InputError({path, 0, 0}, "no such file or folder");
  Probe probe(path);
  for (const InputKind& k : input_kinds()) {
    if (matches(k.format, probe)) return k.format;
  }
  std::string expected;
  for (const InputKind& k : input_kinds())
    expected += "\n  " + std::string(k.name) + ": " + std::string(k.identified_by);
  throw InputError({path, 0, 0}, "unknown input kind; expected one of:" + expected);
}

bool holds_generated_c(InputFormat format) {
  return format == InputFormat::kMlf || format == InputFormat::kFirmwareTree;
}

}  // namespace usmpx
