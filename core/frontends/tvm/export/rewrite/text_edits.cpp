#include "frontends/tvm/export/rewrite/text_edits.h"

#include <algorithm>
#include <stdexcept>

namespace usmpx {

void TextEdits::replace(uint32_t begin, uint32_t end, std::string text) {
  edits_.push_back({begin, end, std::move(text), edits_.size()});
}

void TextEdits::append(const TextEdits& other) {
  for (const Edit& e : other.edits_)
    edits_.push_back({e.begin, e.end, e.text, edits_.size()});
}

void TextEdits::erase_statement(std::string_view text, uint32_t begin, uint32_t end) {
  auto blank = [](char c) { return c == ' ' || c == '\t'; };
  size_t e = end;
  size_t after = e;
  while (after < text.size() && blank(text[after]))
    ++after;
  if (after < text.size() && text[after] == ';') e = ++after;
  while (after < text.size() && blank(text[after]))
    ++after;
  size_t b = begin;
  while (b > 0 && blank(text[b - 1]))
    --b;
  const bool line_start = b == 0 || text[b - 1] == '\n';
  const bool line_end = after >= text.size() || text[after] == '\n' || text[after] == '\r';
  if (line_start && line_end) {
    if (after < text.size() && text[after] == '\r') ++after;
    if (after < text.size() && text[after] == '\n') ++after;
    replace(static_cast<uint32_t>(b), static_cast<uint32_t>(after), "");
  } else {
    replace(begin, static_cast<uint32_t>(e), "");
  }
}

std::string TextEdits::apply(std::string_view text) const {
  std::vector<const Edit*> sorted;
  for (const Edit& e : edits_)
    sorted.push_back(&e);
  std::sort(sorted.begin(), sorted.end(), [](const Edit* a, const Edit* b) {
    return a->begin != b->begin ? a->begin < b->begin : a->order < b->order;
  });
  std::string out;
  out.reserve(text.size());
  size_t at = 0;
  for (const Edit* e : sorted) {
    if (e->begin < at || e->end < e->begin || e->end > text.size())
      throw std::logic_error("overlapping or out-of-range text edits at byte " + std::to_string(e->begin));
    out.append(text.substr(at, e->begin - at));
    out += e->text;
    at = e->end;
  }
  out.append(text.substr(at));
  return out;
}

}  // namespace usmpx
