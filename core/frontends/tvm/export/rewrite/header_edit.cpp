#include "frontends/tvm/export/rewrite/header_edit.h"

#include <cctype>
#include <map>
#include <vector>

#include "frontends/tvm/export/rewrite/text_edits.h"

namespace usmpx {
namespace {

struct MacroValue {
  size_t begin = 0;  // the value's first byte (after the name and its blanks)
  size_t end = 0;    // the end of the definition's last line (before its '\n')
};

// The object-like macros of a header: "#define NAME value", with '\'-continued lines.
std::map<std::string, MacroValue, std::less<>> macros(std::string_view text) {
  std::map<std::string, MacroValue, std::less<>> out;
  for (size_t line = 0; line < text.size();) {
    size_t stop = line;
    while (true) {  // the logical line
      stop = text.find('\n', stop);
      if (stop == std::string_view::npos) stop = text.size();
      if (stop > line && text[stop - 1] == '\\' && stop < text.size()) {
        ++stop;
        continue;
      }
      break;
    }
    size_t i = text.find_first_not_of(" \t", line);
    if (i < stop && text.compare(i, 7, "#define") == 0) {
      i = text.find_first_not_of(" \t", i + 7);
      size_t name_end = i;
      while (name_end < stop && (std::isalnum(static_cast<unsigned char>(text[name_end])) || text[name_end] == '_'))
        ++name_end;
      if (name_end > i && name_end < stop && text[name_end] != '(') {
        const size_t value = text.find_first_not_of(" \t", name_end);
        out[std::string(text.substr(i, name_end - i))] = {std::min(value, stop), stop};
      } else if (name_end > i && name_end == stop) {
        out[std::string(text.substr(i, name_end - i))] = {stop, stop};
      }
    }
    line = stop + 1;
  }
  return out;
}

}  // namespace

std::optional<std::string> edit_header_macros(std::string_view input, std::string_view generated, bool skip_missing) {
  const auto before = macros(input);
  TextEdits edits;
  for (const auto& [name, value] : macros(generated)) {
    const auto it = before.find(name);
    if (it == before.end()) {
      if (skip_missing) continue;
      return std::nullopt;
    }
    const std::string_view want = generated.substr(value.begin, value.end - value.begin);
    const std::string_view have = input.substr(it->second.begin, it->second.end - it->second.begin);
    if (want != have)
      edits.replace(static_cast<uint32_t>(it->second.begin), static_cast<uint32_t>(it->second.end), std::string(want));
  }
  return edits.apply(input);
}

}  // namespace usmpx
