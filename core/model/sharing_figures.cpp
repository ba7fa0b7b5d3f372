#include "model/sharing_figures.h"

#include "base/size_text.h"

namespace usmpx {

std::string sharing_text(const SharedPoolFigures& f) {
  std::string text;
  for (const auto& [model, bytes] : f.alone)
    text += (text.empty() ? "" : " + ") + model + " " + with_separators(bytes) + " B";
  text += " = " + with_separators(f.separate) + " B separately; shared " + (f.exact ? "" : "at least ") +
          with_separators(f.shared) + " B: ";
  return text + saving_text(f);
}

std::string saving_text(const SharedPoolFigures& f) {
  const int64_t saving = f.separate - f.shared;
  return saving >= 0 ? "saves " + with_separators(saving) + " B" : "costs " + with_separators(-saving) + " B more";
}

std::string paste_text(const SharedPoolFigures& f) {
  return "paste " + std::string(f.exact ? "" : "at least ") + with_separators(f.shared) + " as " + f.paste_as;
}

}  // namespace usmpx
