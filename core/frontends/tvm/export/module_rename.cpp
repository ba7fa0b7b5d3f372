#include "frontends/tvm/export/module_rename.h"

#include <algorithm>
#include <cctype>
#include <regex>

#include "base/archive_path.h"

namespace usmpx {
namespace {

bool identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

std::string upper(std::string s) {
  for (char& c : s)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// `from` replaced by `to` wherever it starts a name (no identifier character before it).
std::string replace_prefix(const std::string& text, const std::string& from, const std::string& to) {
  std::string out;
  out.reserve(text.size());
  size_t done = 0;
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + from.size())) {
    if (at > 0 && identifier_char(text[at - 1])) continue;
    out.append(text, done, at - done);
    out += to;
    done = at + from.size();
  }
  out.append(text, done, std::string::npos);
  return out;
}

std::string renamed_text(std::string text, const std::string& from, const std::string& to) {
  text = replace_prefix(text, "tvmgen_" + from + "_", "tvmgen_" + to + "_");
  text = replace_prefix(text, "TVMGEN_" + upper(from) + "_", "TVMGEN_" + upper(to) + "_");
  text = replace_prefix(text, "tvmgen_" + from + ".h", "tvmgen_" + to + ".h");
  // Source paths in a harness Makefile: .../src/<from>_lib0.c
  return replace_prefix(text, from + "_lib", to + "_lib");
}

// metadata.json names the module in "model_name" and, from version 7, as the key of "modules".
std::string renamed_metadata(const std::string& text, const std::string& from, const std::string& to) {
  std::string out =
      std::regex_replace(text, std::regex("(\"model_name\"\\s*:\\s*)\"" + from + "\""), "$1\"" + to + "\"");
  const size_t modules = out.find("\"modules\"");
  if (modules == std::string::npos) return out;
  std::smatch key;
  const std::string tail = out.substr(modules);
  if (std::regex_search(tail, key, std::regex("\"" + from + "\"(\\s*:\\s*\\{)")))
    out.replace(modules + static_cast<size_t>(key.position(0)), static_cast<size_t>(key.length(0)),
                "\"" + to + "\"" + key[1].str());
  return out;
}

std::string renamed_path(const std::string& path, const std::string& from, const std::string& to) {
  const std::string name = base_name(path);
  const std::string folder = path.substr(0, path.size() - name.size());
  if (name == "tvmgen_" + from + ".h") return folder + "tvmgen_" + to + ".h";
  if (name.starts_with(from + "_lib") && name.ends_with(".c")) return folder + to + name.substr(from.size());
  if (name == from + ".params" || name == from + ".relay") return folder + to + name.substr(from.size());
  return path;
}

}  // namespace

bool valid_module_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), identifier_char);
}

void rename_tvm_module(ExportBundle& bundle, const std::string& from, const std::string& to) {
  if (from == to) return;
  std::vector<std::string> changed;
  for (ExportFile& f : bundle.files) {
    const std::string path = renamed_path(f.path, from, to);
    const bool text = f.path.ends_with(".c") || f.path.ends_with(".h") || f.path.ends_with(".cc") ||
                      f.path.ends_with(".ld") || base_name(f.path) == "Makefile" || f.path.ends_with(".txt");
    std::string data = f.path.ends_with("metadata.json") ? renamed_metadata(renamed_text(f.data, from, to), from, to)
                       : text                            ? renamed_text(f.data, from, to)
                                                         : f.data;
    const bool was_changed = std::find(bundle.changed.begin(), bundle.changed.end(), f.path) != bundle.changed.end();
    if (path != f.path || data != f.data || was_changed) changed.push_back(path);
    f.path = path;
    f.data = std::move(data);
  }
  std::sort(changed.begin(), changed.end());
  bundle.changed = std::move(changed);
  bundle.sort();
}

}  // namespace usmpx
