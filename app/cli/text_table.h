#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace usmpx::cli {

// A plain-text table with aligned columns: text columns left-aligned, numeric ones right-aligned.
class TextTable {
 public:
  enum class Align { kLeft, kRight };
  explicit TextTable(std::vector<std::pair<std::string, Align>> columns);

  void add_row(std::vector<std::string> cells);
  void add_separator();
  void print(std::ostream& out, const std::string& indent = "") const;

 private:
  std::vector<std::pair<std::string, Align>> columns_;
  std::vector<std::vector<std::string>> rows_;  // an empty row is a separator
};

// 1048576 -> "1,048,576"; -1 -> "-".
std::string format_bytes(int64_t bytes);
// Percentage with one decimal, e.g. "12.5%"; "-" when the base is not positive.
std::string format_percent(double numerator, double denominator);
std::string format_ms(double ms);

}  // namespace usmpx::cli
