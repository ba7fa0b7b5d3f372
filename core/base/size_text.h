#pragma once

// Sizes as people read them, the same in the charts, tables, dialogs, reports and messages.

#include <cstdint>
#include <string>

namespace usmpx {

// 1234567 -> "1,234,567" (negative values keep their sign).
std::string with_separators(int64_t value);

// Below 10,000 bytes: "9,999 B"; below 1 MiB: "37.5 KiB"; below 1 GiB: "4 MiB", "12.25 MiB";
// above: "2.24 GiB" (trailing zeros dropped). Negative sizes mean "no limit" and read "unlimited".
std::string format_size(int64_t bytes);

// `bytes` in the unit the larger of it and `other` reads in, for two sizes shown side by side
// ("16.5 KiB of 8 KiB", not "16.5 KiB of 8,192 B").
std::string format_size_alike(int64_t bytes, int64_t other);

// The size in KiB or MiB followed by the exact bytes, for tables and dialogs where both matter:
// "37.5 KiB (38,400 B)"; small sizes read as format_size.
std::string format_size_exact(int64_t bytes);

// How far `size` is above a lower bound, in percent of the bound: "4.4%", "0.0%" only when equal,
// "<0.1%" when above by less; "-" without a bound. The same in CLI, explorer and reports.
std::string format_gap(int64_t size, int64_t bound);

// A signed difference: "−37.5 KiB", "+512 B", "±0 B" (a real minus sign, U+2212).
std::string format_size_delta(int64_t bytes);

}  // namespace usmpx
