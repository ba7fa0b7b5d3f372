#pragma once

#include <string>

namespace usmpx {

// A place in an input file; 0 = unknown line or column.
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;
  bool operator==(const SourceLocation&) const = default;
};

}  // namespace usmpx
