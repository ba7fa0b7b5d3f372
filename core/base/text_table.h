#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace usmpx {

// A plain-text table with aligned columns: text columns left-aligned, numeric ones right-aligned.
// Widths count characters (UTF-8 code points), not bytes.
class TextTable {
 public:
  enum class Align { kLeft, kRight };
  explicit TextTable(std::vector<std::pair<std::string, Align>> columns);
  // The columns' headers and their alignments, one letter a column as in LaTeX's tabular: 'l'
  // left, 'r' right ({"pool", "bytes"}, "lr").
  TextTable(const std::vector<std::string>& headers, std::string_view aligns);

  void add_row(std::vector<std::string> cells);
  void add_separator();
  // Keeps printed lines within `max_width` columns (a terminal's width) by eliding the cells of
  // `elidable` columns in the middle ("model/…/Conv2D"), the widest first, none below 12 columns;
  // when that cannot bring the table within the width, nothing is elided.
  void fit_width(size_t max_width, std::vector<size_t> elidable);
  // The same to the line width a command set for its output (its terminal's; 0, the default: no
  // limit), for tables printed far from the command (a frontend's `info` sections).
  void fit_line_width(std::vector<size_t> elidable) { fit_width(line_width(), std::move(elidable)); }
  static void set_line_width(size_t width);
  static size_t line_width();
  void print(std::ostream& out, const std::string& indent = "") const;

 private:
  std::vector<std::pair<std::string, Align>> columns_;
  std::vector<std::vector<std::string>> rows_;  // an empty row is a separator
  size_t max_width_ = 0;                        // 0: no limit
  std::vector<size_t> elidable_;
};

}  // namespace usmpx
