#include "frontends/tflite/tflm_log.h"

#include <algorithm>
#include <charconv>

#include "base/input_error.h"

namespace usmpx {
namespace {

// The integer after `key` in `line`, or nullopt.
std::optional<int64_t> number_after(std::string_view line, std::string_view key) {
  const size_t at = line.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  const char* begin = line.data() + at + key.size();
  const char* end = line.data() + line.size();
  int64_t value = 0;
  const auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc() || ptr == begin) return std::nullopt;
  return value;
}

}  // namespace

TflmLog parse_tflm_log(std::string_view text, const std::string& path) {
  TflmLog log;
  int line_number = 0;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    ++line_number;
    start = end + 1;
    if (line.find("(id=") != std::string_view::npos && line.find("size=") != std::string_view::npos) {
      const auto id = number_after(line, "(id=");
      const auto size = number_after(line, "size=");
      const auto offset = number_after(line, "offset=");
      const auto first = number_after(line, "first_used=");
      const auto last = number_after(line, "last_used=");
      if (!id || !size || !offset || !first || !last || *id < 0 || *id > 10'000'000 || *size < 0)
        throw InputError({path, line_number, 0},
                         "not a PrintMemoryPlan buffer line (expected 'id=, size=, offset=, first_used=, last_used=')");
      log.buffers.push_back({static_cast<int>(*id), *size, *offset, *first, *last});
    } else if (line.find("Arena allocation") != std::string_view::npos) {
      if (auto v = number_after(line, "Arena allocation total ")) log.total_bytes = *v;
      if (auto v = number_after(line, "Arena allocation head ")) log.head_bytes = *v;
      if (auto v = number_after(line, "Arena allocation tail ")) log.tail_bytes = *v;
    }
    if (end == text.size()) break;
  }
  if (log.buffers.empty() && !log.tail_bytes && !log.head_bytes)
    throw InputError({path, 0, 0},
                     "holds no TFLM memory plan (PrintMemoryPlan lines '(id=N): size=...') and no allocation totals "
                     "('Arena allocation head|tail N bytes')");
  // PrintMemoryPlan prints each buffer once; a log of several runs repeats them: keep the last run.
  std::vector<TflmLog::Buffer> last_run;
  for (const TflmLog::Buffer& b : log.buffers) {
    if (b.id == 0) last_run.clear();
    last_run.push_back(b);
  }
  for (size_t i = 0; i < last_run.size(); ++i) {
    if (last_run[i].id != static_cast<int>(i))
      throw InputError({path, 0, 0}, "the memory plan's buffer ids are not 0, 1, 2, ...: id " +
                                         std::to_string(last_run[i].id) + " where " + std::to_string(i) +
                                         " was expected");
  }
  log.buffers = std::move(last_run);
  return log;
}

}  // namespace usmpx
