#include "base/text_table.h"

#include <algorithm>

namespace usmpx {

TextTable::TextTable(std::vector<std::pair<std::string, Align>> columns) : columns_(std::move(columns)) {}

void TextTable::add_row(std::vector<std::string> cells) {
  cells.resize(columns_.size());
  rows_.push_back(std::move(cells));
}

void TextTable::add_separator() {
  rows_.emplace_back();
}

void TextTable::print(std::ostream& out, const std::string& indent) const {
  std::vector<size_t> width(columns_.size());
  for (size_t c = 0; c < columns_.size(); ++c)
    width[c] = columns_[c].first.size();
  for (const auto& row : rows_) {
    for (size_t c = 0; c < row.size(); ++c)
      width[c] = std::max(width[c], row[c].size());
  }
  auto print_row = [&](const std::vector<std::string>& cells) {
    std::string line = indent;
    for (size_t c = 0; c < columns_.size(); ++c) {
      const std::string& cell = cells[c];
      const std::string pad(width[c] - cell.size(), ' ');
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
