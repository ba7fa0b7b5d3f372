#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "base/text_table.h"

namespace usmpx::cli {

// 1048576 -> "1,048,576"; -1 -> "-".
std::string format_bytes(int64_t bytes);
// Percentage with one decimal, e.g. "12.5%"; "-" when the base is not positive.
std::string format_percent(double numerator, double denominator);
std::string format_ms(double ms);

// How wide the terminal is, in columns: $COLUMNS when set, else the width of the terminal on
// standard output, else (not a terminal: a pipe, a file) 100.
size_t terminal_columns();

}  // namespace usmpx::cli
