#include "frontends/problem_files/minimalloc_csv.h"

#include <charconv>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "base/input_error.h"
#include "base/utf8_check.h"
#include "model/live_bytes.h"
#include "model/problem_limits.h"

namespace usmpx {
namespace {

struct Field {
  std::string_view text;
  int column = 1;  // 1-based column where the field starts
};

std::vector<Field> split_fields(std::string_view line) {
  std::vector<Field> fields;
  size_t start = 0;
  while (true) {
    const size_t comma = line.find(',', start);
    std::string_view raw = line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    size_t lead = 0;
    while (lead < raw.size() && (raw[lead] == ' ' || raw[lead] == '\t'))
      ++lead;
    size_t trail = raw.size();
    while (trail > lead && (raw[trail - 1] == ' ' || raw[trail - 1] == '\t'))
      --trail;
    fields.push_back({raw.substr(lead, trail - lead), static_cast<int>(start + lead + 1)});
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return fields;
}

class CsvReader {
 public:
  CsvReader(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  Problem read() {
    Problem problem;
    Pool pool;
    pool.name = "default";
    problem.pools.push_back(pool);
    problem.conflict_source = ConflictSource::kLifetimes;

    std::set<std::string, std::less<>> ids;
    size_t pos = 0;
    int line_number = 0;
    bool have_header = false;
    while (pos <= text_.size()) {
      size_t eol = text_.find('\n', pos);
      if (eol == std::string_view::npos) eol = text_.size();
      std::string_view line = text_.substr(pos, eol - pos);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      ++line_number;
      pos = eol + 1;
      if (line.find_first_not_of(" \t") == std::string_view::npos) {
        if (eol == text_.size()) break;
        continue;
      }
      const std::vector<Field> fields = split_fields(line);
      if (!have_header) {
        read_header(fields, line_number);
        have_header = true;
        continue;
      }
      if (fields.size() != columns_.size()) {
        fail(line_number, 1,
             "expected " + std::to_string(columns_.size()) + " fields, found " + std::to_string(fields.size()));
      }
      Buffer b = read_row(fields, line_number);
      if (!ids.insert(b.name).second) fail(line_number, fields[column("id")].column, "duplicate id \"" + b.name + "\"");
      problem.buffers.push_back(std::move(b));
      if (eol == text_.size()) break;
    }
    if (!have_header) fail(1, 1, "empty file: expected a header such as id,lower,upper,size");
    if (auto error = problem_limit_error(problem)) throw InputError({file_, 0, 0}, *error);
    problem.memory_pressure = lifetime_memory_pressure(problem);
    return problem;
  }

 private:
  [[noreturn]] void fail(int line, int column, const std::string& message) const {
    throw InputError({file_, line, column}, message);
  }

  size_t column(const std::string& name) const { return columns_.at(name); }
  bool has(const std::string& name) const { return columns_.count(name) != 0; }

  void read_header(const std::vector<Field>& fields, int line) {
    static const std::set<std::string> known = {"id",   "lower",  "upper", "size",  "alignment",
                                                "hint", "offset", "gaps",  "begin", "end"};
    for (size_t i = 0; i < fields.size(); ++i) {
      const std::string name(fields[i].text);
      if (!known.count(name)) {
        fail(line, fields[i].column,
             "unknown column \"" + name + "\" (expected id, lower, upper, size, alignment, hint, offset)");
      }
      if (!columns_.emplace(name, i).second) fail(line, fields[i].column, "column \"" + name + "\" appears twice");
    }
    inclusive_end_ = has("begin") && has("end");
    const bool half_open = has("lower") && has("upper");
    if (!has("id") || !has("size") || (!half_open && !inclusive_end_)) {
      fail(line, 1, "the header needs the columns id, lower, upper and size (or id, begin, end, size)");
    }
    if (half_open && inclusive_end_) fail(line, 1, "give either lower,upper or begin,end, not both");
  }

  int64_t integer(const Field& f, int line, const char* what) const {
    int64_t value = 0;
    const char* first = f.text.data();
    const char* last = first + f.text.size();
    const auto [ptr, ec] = std::from_chars(first, last, value);
    if (f.text.empty() || ec != std::errc() || ptr != last) {
      fail(line, f.column, std::string("expected an integer ") + what + ", found \"" + std::string(f.text) + "\"");
    }
    return value;
  }

  std::optional<int64_t> optional_integer(const std::vector<Field>& fields, const std::string& name, int line,
                                          const char* what) const {
    if (!has(name) || fields[column(name)].text.empty()) return std::nullopt;
    return integer(fields[column(name)], line, what);
  }

  Buffer read_row(const std::vector<Field>& fields, int line) const {
    Buffer b;
    b.name = std::string(fields[column("id")].text);
    if (b.name.empty()) fail(line, fields[column("id")].column, "empty id");
    b.pool_candidates = {0};
    const Field& lo = fields[column(inclusive_end_ ? "begin" : "lower")];
    const Field& hi = fields[column(inclusive_end_ ? "end" : "upper")];
    const int64_t lower = integer(lo, line, "lifetime start");
    const int64_t upper = integer(hi, line, "lifetime end") + (inclusive_end_ ? 1 : 0);
    if (upper < lower) fail(line, hi.column, "lifetime ends before it starts");
    b.lifetime = Lifetime{lower, upper};
    b.size_bytes = integer(fields[column("size")], line, "size");
    if (b.size_bytes < 0) fail(line, fields[column("size")].column, "size must not be negative");
    if (auto alignment = optional_integer(fields, "alignment", line, "alignment")) {
      if (*alignment < 1) fail(line, fields[column("alignment")].column, "alignment must be at least 1");
      b.alignment = *alignment;
    }
    b.hint = optional_integer(fields, "hint", line, "hint");
    if (auto offset = optional_integer(fields, "offset", line, "offset")) {
      if (*offset < 0) fail(line, fields[column("offset")].column, "offset must not be negative");
      b.pin = Pin{0, *offset};
    }
    if (has("gaps") && !fields[column("gaps")].text.empty()) {
      fail(line, fields[column("gaps")].column, "the gaps column is not supported; split the buffer instead");
    }
    return b;
  }

  std::string_view text_;
  std::string file_;
  std::map<std::string, size_t> columns_;
  bool inclusive_end_ = false;
};

}  // namespace

Problem read_minimalloc_csv(std::string_view text, const std::string& file_name) {
  require_utf8(text, file_name);
  return CsvReader(text, file_name).read();
}

std::string write_minimalloc_csv(const Problem& problem, const Plan* plan) {
  bool any_alignment = false;
  bool any_hint = false;
  bool any_offset = plan != nullptr;
  for (const Buffer& b : problem.buffers) {
    if (!b.lifetime) throw std::invalid_argument("buffer '" + b.name + "' has no lifetime; MiniMalloc CSV needs one");
    any_alignment = any_alignment || b.alignment != 1;
    any_hint = any_hint || b.hint.has_value();
    any_offset = any_offset || (b.pin && b.pin->offset);
  }
  std::ostringstream out;
  out << "id,lower,upper,size" << (any_alignment ? ",alignment" : "") << (any_hint ? ",hint" : "")
      << (any_offset ? ",offset" : "") << "\n";
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    const Buffer& b = problem.buffers[i];
    out << b.name << ',' << b.lifetime->begin << ',' << b.lifetime->end << ',' << b.size_bytes;
    if (any_alignment) out << ',' << b.alignment;
    if (any_hint) {
      out << ',';
      if (b.hint) out << *b.hint;
    }
    if (any_offset) {
      out << ',';
      if (plan && i < plan->allocations.size() && plan->allocations[i].placed()) {
        out << plan->allocations[i].offset;
      } else if (b.pin && b.pin->offset) {
        out << *b.pin->offset;
      }
    }
    out << '\n';
  }
  return out.str();
}

}  // namespace usmpx
