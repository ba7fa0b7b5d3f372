#include "base/text_table.h"

#include <algorithm>
#include <atomic>
#include <stdexcept>

namespace usmpx {
namespace {

constexpr size_t kNarrowestElided = 12;
std::atomic<size_t> g_line_width{0};

// Characters shown: UTF-8 code points (continuation bytes 10xxxxxx do not count).
size_t shown_width(const std::string& text) {
  return static_cast<size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// The first `count` code points of `text` (from the end with `from_end`).
std::string code_points(const std::string& text, size_t count, bool from_end) {
  size_t seen = 0;
  if (!from_end) {
    for (size_t i = 0; i < text.size(); ++i) {
      if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 && seen++ == count) return text.substr(0, i);
    }
    return text;
  }
  for (size_t i = text.size(); i-- > 0;) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 && ++seen == count) return text.substr(i);
  }
  return text;
}

// `text` cut to `width` characters in the middle, "…" where the cut is.
std::string elided_middle(const std::string& text, size_t width) {
  if (shown_width(text) <= width || width < 3) return text;
  const size_t head = (width - 1) / 2;
  return code_points(text, head, false) + "\u2026" + code_points(text, width - 1 - head, true);
}

}  // namespace

TextTable::TextTable(std::vector<std::pair<std::string, Align>> columns) : columns_(std::move(columns)) {}

TextTable::TextTable(const std::vector<std::string>& headers, std::string_view aligns) {
  if (aligns.size() != headers.size()) throw std::logic_error("TextTable: one alignment letter per column");
  for (size_t c = 0; c < headers.size(); ++c)
    columns_.emplace_back(headers[c], aligns[c] == 'r' ? Align::kRight : Align::kLeft);
}

void TextTable::add_row(std::vector<std::string> cells) {
  cells.resize(columns_.size());
  rows_.push_back(std::move(cells));
}

void TextTable::add_separator() {
  rows_.emplace_back();
}

void TextTable::set_line_width(size_t width) {
  g_line_width = width;
}

size_t TextTable::line_width() {
  return g_line_width;
}

void TextTable::fit_width(size_t max_width, std::vector<size_t> elidable) {
  max_width_ = max_width;
  elidable_ = std::move(elidable);
}

void TextTable::print(std::ostream& out, const std::string& indent) const {
  std::vector<size_t> width(columns_.size());
  for (size_t c = 0; c < columns_.size(); ++c)
    width[c] = shown_width(columns_[c].first);
  for (const auto& row : rows_) {
    for (size_t c = 0; c < row.size(); ++c)
      width[c] = std::max(width[c], shown_width(row[c]));
  }
  // Too wide for the limit: the widest elidable column gives up a character at a time. Only when
  // that brings the table within the limit: a table too wide anyway (long paths in other columns)
  // keeps its names whole.
  size_t line_width = shown_width(indent) + 2 * (columns_.empty() ? 0 : columns_.size() - 1);
  for (size_t w : width)
    line_width += w;
  size_t spare = 0;
  for (size_t c : elidable_)
    spare += c < width.size() && width[c] > kNarrowestElided ? width[c] - kNarrowestElided : 0;
  while (max_width_ > 0 && line_width > max_width_ && line_width - max_width_ <= spare) {
    size_t widest = columns_.size();
    for (size_t c : elidable_) {
      if (c < width.size() && width[c] > kNarrowestElided && (widest == columns_.size() || width[c] > width[widest]))
        widest = c;
    }
    if (widest == columns_.size()) break;
    --width[widest];
    --line_width;
  }
  auto print_row = [&](const std::vector<std::string>& row) {
    std::string line = indent;
    for (size_t c = 0; c < columns_.size(); ++c) {
      const std::string cell = elided_middle(row[c], width[c]);
      const std::string pad(width[c] - std::min(width[c], shown_width(cell)), ' ');
      line += columns_[c].second == Align::kRight ? pad + cell : cell + pad;
      if (c + 1 < columns_.size()) line += "  ";
    }
    while (!line.empty() && line.back() == ' ')
      line.pop_back();
    out << line << '\n';
  };
  std::vector<std::string> header;
  for (const auto& column : columns_)
    header.push_back(column.first);
  print_row(header);
  size_t total = 0;
  for (size_t w : width)
    total += w + 2;
  for (const auto& row : rows_) {
    if (row.empty()) {
      out << indent << std::string(total > 2 ? total - 2 : 0, '-') << '\n';
    } else {
      print_row(row);
    }
  }
}

}  // namespace usmpx
