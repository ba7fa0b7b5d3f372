#include "export/firmware_sources.h"

#include <cctype>
#include <filesystem>

#include "export/export_error.h"

namespace usmpx {
namespace {

constexpr size_t kCommentWidth = 100;
constexpr int kBytesPerLine = 12;

std::string upper(std::string_view text) {
  std::string out;
  for (char c : text)
    out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// `text` as "// " comment lines of at most kCommentWidth columns, broken at spaces.
std::string comment_lines(std::string_view text, std::string_view indent, std::string_view continuation = "") {
  std::string out;
  std::string line = std::string(indent) + "//";
  const size_t fresh = line.size();
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(start, end - start);
    if (line.size() > fresh && line.size() + 1 + word.size() > kCommentWidth) {
      out += line + "\n";
      line = std::string(indent) + "//" + std::string(continuation);
    }
    line += " " + std::string(word);
    start = end + 1;
  }
  return out + line + "\n";
}

std::string banner(std::string_view file) {
  return "// " + std::string(file) + ": written by usmpx " + USMPX_VERSION +
         " (do not edit: `usmpx export` writes it again).\n";
}

std::string guard(std::string_view file) {
  std::string macro = "USMPX_";
  for (char c : upper(file))
    macro += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return macro + "_";
}

std::string array_header(const ExportBundle& bundle, const ModelSourcesSpec& spec) {
  const ExportFile& model = bundle.files.front();
  const std::string file = model_data_header(spec.name);
  const std::string symbol = spec.name + "_model_data";
  std::string out = banner(file);
  out += comment_lines(model.path + " as planned (the copy beside this file) as a C++ array for the firmware: " +
                           std::to_string(model.data.size()) + " bytes, 16-byte aligned" +
                           (spec.section.empty() ? "" : ", in the linker section " + spec.section) + ".",
                       "");
  out += "#ifndef " + guard(file) + "\n#define " + guard(file) + "\n\n";
  out += "inline constexpr unsigned int " + symbol + "_len = " + std::to_string(model.data.size()) + ";\n";
  out += "alignas(16) extern const unsigned char " + symbol + "[" + symbol + "_len];\n";
  return out + "\n#endif  // " + guard(file) + "\n";
}

std::string array_source(const ExportBundle& bundle, const ModelSourcesSpec& spec) {
  const ExportFile& model = bundle.files.front();
  const std::string symbol = spec.name + "_model_data";
  std::string out = banner(model_data_source(spec.name));
  out += "// The bytes of " + model.path + ".\n";
  out += "#include \"" + model_data_header(spec.name) + "\"\n\n";
  out += "alignas(16) const unsigned char " + symbol + "[" + symbol + "_len]";
  if (!spec.section.empty()) out += "\n    __attribute__((section(\"" + spec.section + "\")))";
  out += " = {";
  static constexpr char kHex[] = "0123456789abcdef";
  for (size_t i = 0; i < model.data.size(); ++i) {
    const auto byte = static_cast<unsigned char>(model.data[i]);
    out += i % kBytesPerLine == 0 ? "\n    " : " ";
    out += "0x";
    out += kHex[byte >> 4];
    out += kHex[byte & 15];
    out += ',';
  }
  return out + "\n};\n";
}

std::string memory_source(const ModelSourcesSpec& spec) {
  const std::string file = memory_header(spec.name);
  std::string out = banner(file);
  for (const std::string& line : spec.provenance)
    out += comment_lines(line, "", "  ");
  if (!spec.limits.empty()) {
    out += "//\n// Where these figures hold, and how to check them on the board:\n";
    for (const std::string& line : spec.limits)
      out += comment_lines("- " + line, "", "  ");
  }
  out += "#ifndef " + guard(file) + "\n#define " + guard(file) + "\n\n#include <cstddef>\n\n";
  if (!spec.preamble.empty()) out += spec.preamble + "\n";
  out += "namespace " + spec.name + " {\n\n" + spec.figures + "}  // namespace " + spec.name + "\n";
  return out + "\n#endif  // " + guard(file) + "\n";
}

void check_section(const std::string& section) {
  for (char c : section) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '$' && c != '-')
      throw ExportError("--model-section \"" + section +
                        "\": a linker section name holds letters, digits and . _ $ - only");
  }
}

}  // namespace

std::string cpp_identifier(std::string_view name) {
  std::string id;
  for (char c : name)
    id += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id.front()))) id = "m_" + id;
  return id;
}

std::string model_sources_name(const ExportOptions& options, const std::string& input_path) {
  return cpp_identifier(options.model_name.empty() ? std::filesystem::path(input_path).stem().string()
                                                   : options.model_name);
}

std::string figure_declaration(const MemoryConstant& f, std::string_view indent) {
  std::string out;
  for (const std::string& line : f.comment)
    out += comment_lines(line, indent, "  ");
  const std::string basis = "usmpx " USMPX_VERSION + (f.basis.empty() ? "" : "; " + f.basis);
  if (f.exact) {
    out += comment_lines("Exact (" + basis + ").", indent, "  ");
  } else {
    std::string unknown;
    for (const std::string& u : f.unknown)
      unknown += (unknown.empty() ? "" : "; ") + u;
    out += comment_lines("AT LEAST this many bytes, not an exact figure (" + basis + "): it does not count " +
                             (unknown.empty() ? std::string("what the tool cannot model") : unknown) +
                             ". Declare more, and measure it on the board.",
                         indent, "  ");
  }
  return out + std::string(indent) + "constexpr " + f.type + " " + f.name + (f.exact ? "" : "AtLeast") + " = " +
         f.value + ";\n";
}

std::string model_data_header(std::string_view name) {
  return std::string(name) + "_model_data.h";
}

std::string model_data_source(std::string_view name) {
  return std::string(name) + "_model_data.cc";
}

std::string memory_header(std::string_view name) {
  return std::string(name) + "_memory.h";
}

void add_model_sources(ExportBundle& bundle, const ModelSourcesSpec& spec) {
  if (bundle.files.size() != 1) throw ExportError("internal: firmware sources are for one model file");
  if (spec.name != cpp_identifier(spec.name))
    throw ExportError("internal: '" + spec.name + "' is not a C++ identifier");
  check_section(spec.section);
  ExportBundle folder;
  folder.notes = std::move(bundle.notes);
  folder.summary = std::move(bundle.summary);
  folder.put(bundle.files.front().path, bundle.files.front().data);
  folder.put(model_data_header(spec.name), array_header(bundle, spec));
  folder.put(model_data_source(spec.name), array_source(bundle, spec));
  folder.put(memory_header(spec.name), memory_source(spec));
  folder.sort();
  for (const ExportFile& f : folder.files)
    folder.changed.push_back(f.path);
  bundle = std::move(folder);
}

void add_model_sources(ExportBundle& bundle, ModelSourcesSpec spec, const ExportOptions& options,
                       const std::string& input_path) {
  spec.name = model_sources_name(options, input_path);
  spec.section = options.model_section;
  add_model_sources(bundle, spec);
}

}  // namespace usmpx
