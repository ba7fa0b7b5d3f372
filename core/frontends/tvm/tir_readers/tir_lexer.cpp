#include "frontends/tvm/tir_readers/tir_lexer.h"

#include <array>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <limits>

#include "base/input_error.h"

namespace usmpx {
namespace {

bool is_name_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool is_digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

constexpr std::array<std::string_view, 17> kLongOps = {"//=", "**", "//", "->", "<=", ">=", "==", "!=", "&&",
                                                       "||",  "<<", ">>", "+=", "-=", "*=", "/=", "%="};
constexpr std::string_view kShortOps = "()[]{},:.;@=+-*/%<>!~&|^";

std::string printable(char c) {
  if (std::isprint(static_cast<unsigned char>(c))) return std::string("'") + c + "'";
  static const char* digits = "0123456789abcdef";
  const auto u = static_cast<unsigned char>(c);
  return std::string("byte 0x") + digits[u >> 4] + digits[u & 15];
}

}  // namespace

std::string TirToken::describe() const {
  switch (kind) {
    case TirTokenKind::kEnd: return "end of file";
    case TirTokenKind::kNewline: return "end of line";
    case TirTokenKind::kIndent: return "an indented block";
    case TirTokenKind::kDedent: return "end of block";
    case TirTokenKind::kString: return "string \"" + text + "\"";
    default: return "'" + text + "'";
  }
}

TirLexer::TirLexer(std::string_view text, std::string file, Mode mode)
    : text_(text), file_(std::move(file)), mode_(mode) {}

void TirLexer::fail(int line, int column, const std::string& message) const {
  throw InputError({file_, line, column}, message);
}

void TirLexer::advance(size_t n) {
  for (size_t i = 0; i < n && pos_ < text_.size(); ++i) {
    if (text_[pos_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++pos_;
  }
}

TirToken TirLexer::make(TirTokenKind kind, std::string text, int line, int column) {
  TirToken t;
  t.kind = kind;
  t.text = std::move(text);
  t.line = line;
  t.column = column;
  t.starts_line = first_on_line_;
  if (kind != TirTokenKind::kNewline && kind != TirTokenKind::kIndent && kind != TirTokenKind::kDedent) {
    first_on_line_ = false;
  }
  return t;
}

const TirToken& TirLexer::peek(size_t ahead) {
  while (queue_.size() <= ahead)
    produce();
  return queue_[ahead];
}

TirToken TirLexer::next() {
  peek();
  TirToken t = std::move(queue_.front());
  queue_.pop_front();
  return t;
}

void TirLexer::produce() {
  const size_t before = queue_.size();
  while (queue_.size() == before) {
    if (finished_) {
      queue_.push_back(make(TirTokenKind::kEnd, "", line_, column_));
      return;
    }
    if (mode_ == Mode::kPython && at_line_start_ && bracket_depth_ == 0) {
      lex_line_start();
      continue;
    }
    // Skip blanks and comments within the line.
    const char c = at();
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
      advance();
      continue;
    }
    if (c == '#') {
      while (pos_ < text_.size() && at() != '\n')
        advance();
      continue;
    }
    if (c == '\\' && (at(1) == '\n' || (at(1) == '\r' && at(2) == '\n'))) {
      advance(at(1) == '\r' ? 3 : 2);
      continue;
    }
    if (c == '\n' || pos_ >= text_.size()) {
      const bool eof = pos_ >= text_.size();
      if (mode_ == Mode::kPython && bracket_depth_ == 0 && line_has_tokens_) {
        queue_.push_back(make(TirTokenKind::kNewline, "", line_, column_));
        line_has_tokens_ = false;
      }
      if (eof) {
        if (mode_ == Mode::kPython) {
          while (indents_.size() > 1) {
            indents_.pop_back();
            queue_.push_back(make(TirTokenKind::kDedent, "", line_, column_));
          }
        }
        finished_ = true;
      } else {
        advance();
        first_on_line_ = true;
        if (bracket_depth_ == 0) at_line_start_ = true;
      }
      continue;
    }
    lex_token();
    line_has_tokens_ = true;
  }
}

void TirLexer::lex_line_start() {
  // Measure the indentation of the next line that holds a token.
  int width = 0;
  size_t p = pos_;
  while (p < text_.size() && (text_[p] == ' ' || text_[p] == '\t' || text_[p] == '\f')) {
    if (text_[p] == '\t') fail(line_, static_cast<int>(p - pos_) + 1, "tab in indentation (indent with spaces)");
    ++width;
    ++p;
  }
  const char c = p < text_.size() ? text_[p] : '\0';
  if (c == '\n' || c == '\r' || c == '#' || p >= text_.size()) {
    // Blank or comment-only line: no layout tokens.
    advance(p - pos_);
    if (c == '#') {
      while (pos_ < text_.size() && at() != '\n')
        advance();
    }
    if (pos_ < text_.size()) {
      if (at() == '\r') advance();
      if (at() == '\n') advance();
    } else {
      at_line_start_ = false;
    }
    return;
  }
  advance(p - pos_);
  at_line_start_ = false;
  first_on_line_ = true;
  if (width > indents_.back()) {
    indents_.push_back(width);
    queue_.push_back(make(TirTokenKind::kIndent, "", line_, column_));
    return;
  }
  while (width < indents_.back()) {
    indents_.pop_back();
    queue_.push_back(make(TirTokenKind::kDedent, "", line_, column_));
  }
  if (width != indents_.back()) fail(line_, column_, "unindent does not match any outer indentation level");
}

void TirLexer::lex_token() {
  const char c = at();
  const int line = line_;
  const int column = column_;
  if (is_name_start(c)) {
    const size_t start = pos_;
    while (is_name_char(at()) || (mode_ == Mode::kLegacy && at() == '.' && is_name_char(at(1))))
      advance();
    queue_.push_back(make(TirTokenKind::kName, std::string(text_.substr(start, pos_ - start)), line, column));
    return;
  }
  if (is_digit(c) || (c == '.' && is_digit(at(1)))) {
    lex_number();
    return;
  }
  if (c == '"' || c == '\'') {
    lex_string();
    return;
  }
  for (std::string_view op : kLongOps) {
    if (text_.substr(pos_, op.size()) == op) {
      if ((op == "&&" || op == "||") && mode_ != Mode::kLegacy) break;
      advance(op.size());
      queue_.push_back(make(TirTokenKind::kOp, std::string(op), line, column));
      return;
    }
  }
  if (kShortOps.find(c) != std::string_view::npos) {
    if (c == '(' || c == '[' || c == '{') ++bracket_depth_;
    if ((c == ')' || c == ']' || c == '}') && bracket_depth_ > 0) --bracket_depth_;
    advance();
    queue_.push_back(make(TirTokenKind::kOp, std::string(1, c), line, column));
    return;
  }
  fail(line, column, "unexpected character " + printable(c));
}

void TirLexer::lex_number() {
  const int line = line_;
  const int column = column_;
  const size_t start = pos_;
  bool is_float = false;
  if (at() == '0' && (at(1) == 'x' || at(1) == 'X')) {
    advance(2);
    while (std::isxdigit(static_cast<unsigned char>(at())))
      advance();
  } else {
    while (is_digit(at()))
      advance();
    if (at() == '.' && !is_name_start(at(1))) {
      is_float = true;
      advance();
      while (is_digit(at()))
        advance();
    }
    if ((at() == 'e' || at() == 'E') && (is_digit(at(1)) || ((at(1) == '+' || at(1) == '-') && is_digit(at(2))))) {
      is_float = true;
      advance(2);
      while (is_digit(at()))
        advance();
    }
  }
  const std::string digits(text_.substr(start, pos_ - start));
  TirToken t = make(is_float ? TirTokenKind::kFloat : TirTokenKind::kInt, digits, line, column);
  if (is_float) {
    t.float_value = std::strtod(digits.c_str(), nullptr);
  } else {
    errno = 0;
    const unsigned long long v = std::strtoull(digits.c_str(), nullptr, 0);
    if (errno == ERANGE || v > static_cast<unsigned long long>(std::numeric_limits<int64_t>::max())) {
      fail(line, column, "integer literal " + digits + " is too large");
    }
    t.int_value = static_cast<int64_t>(v);
  }
  if (mode_ == Mode::kLegacy && (at() == 'i' || at() == 'u' || at() == 'f') && is_digit(at(1))) {
    // A dtype suffix: 5i64, 1u8, 0f32, 2i8x4.
    const size_t suffix_start = pos_;
    const char code = at();
    advance();
    while (is_name_char(at()))
      advance();
    const std::string_view suffix = text_.substr(suffix_start + 1, pos_ - suffix_start - 1);
    const std::string name = std::string(code == 'i' ? "int" : code == 'u' ? "uint" : "float") + std::string(suffix);
    t.suffix = tir::DataType::parse(name);
    if (!t.suffix)
      fail(line, column, "unknown dtype suffix '" + std::string(text_.substr(suffix_start, pos_ - suffix_start)) + "'");
    if (t.suffix->is_float() && t.kind == TirTokenKind::kInt) {
      t.kind = TirTokenKind::kFloat;
      t.float_value = static_cast<double>(t.int_value);
    }
  } else if (is_name_char(at())) {
    fail(line_, column_, "unexpected character " + printable(at()) + " after number " + digits);
  }
  queue_.push_back(std::move(t));
}

void TirLexer::lex_string() {
  const int line = line_;
  const int column = column_;
  const char quote = at();
  const bool triple = at(1) == quote && at(2) == quote;
  advance(triple ? 3 : 1);
  std::string value;
  while (true) {
    if (pos_ >= text_.size() || (!triple && at() == '\n')) fail(line, column, "unterminated string");
    const char c = at();
    if (c == quote && (!triple || (at(1) == quote && at(2) == quote))) {
      advance(triple ? 3 : 1);
      break;
    }
    if (c == '\\' && pos_ + 1 < text_.size()) {
      const char e = at(1);
      advance(2);
      switch (e) {
        case 'n': value += '\n'; break;
        case 't': value += '\t'; break;
        case 'r': value += '\r'; break;
        case '0': value += '\0'; break;
        case '\n': break;
        default: value += e; break;
      }
      continue;
    }
    value += c;
    advance();
  }
  queue_.push_back(make(TirTokenKind::kString, std::move(value), line, column));
}

}  // namespace usmpx
