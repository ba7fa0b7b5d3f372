#pragma once

#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace usmpx {

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

}  // namespace usmpx
