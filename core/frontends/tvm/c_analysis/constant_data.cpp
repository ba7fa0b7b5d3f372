#include "frontends/tvm/c_analysis/constant_data.h"

#include <cctype>

namespace usmpx {
namespace {

bool is_space(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

// Characters of literal data: numbers in any notation TVM prints (+0x7f, -0x1.4p+2, 1.5e-3f,
// 12345LL), the INFINITY/NAN names, commas and blanks.
bool is_data(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '+' || c == '-' || c == ',' || c == '_' ||
         is_space(c);
}

class Blanker {
 public:
  Blanker(std::string_view src, size_t min_bytes) : src_(src), out_(src), min_bytes_(min_bytes) {}

  std::string run() {
    const size_t n = src_.size();
    bool line_start = true;
    while (i_ < n) {
      const char c = src_[i_];
      if (c == '\n') {
        line_start = true;
        ++i_;
        continue;
      }
      if (is_space(c)) {
        ++i_;
        continue;
      }
      if (line_start && c == '#') {
        const size_t start = i_;
        skip_line();
        // TVM wraps its C in `#ifdef __cplusplus extern "C" { #endif` pairs; C never sees them.
        if (directive(start) == "ifdef __cplusplus") skip_cplusplus_block();
        continue;
      }
      line_start = false;
      if (c == '/' && peek(1) == '/') {
        skip_line();
        continue;
      }
      if (c == '/' && peek(1) == '*') {
        const size_t end = src_.find("*/", i_ + 2);
        i_ = end == std::string_view::npos ? n : end + 2;
        continue;
      }
      if (c == '"' || c == '\'') {
        skip_quoted(c);
        note(kOther);
        continue;
      }
      const bool file_scope = braces_ == 0 && parens_ == 0;
      if (c == '[' && file_scope) {
        bracket();
        continue;
      }
      if (c == '=' && file_scope && peek(1) != '=') {
        note(kAssign);
        ++i_;
        continue;
      }
      if (c == '{') {
        // A file-scope initializer's outer group may be cleared only when the array's extent is
        // written out; groups nested in an initializer keep their count, so they always may.
        const bool outer = file_scope && last_ == kAssign;
        if (outer) in_initializer_ = true;
        if ((outer && before_last_ == kSizedArray) || (!outer && in_initializer_)) {
          if (try_blank()) continue;
        }
        ++braces_;
        ++i_;
        note(kOther);
        continue;
      }
      if (c == '}') {
        if (braces_ > 0) --braces_;
        if (braces_ == 0) in_initializer_ = false;
      } else if (c == '(') {
        ++parens_;
      } else if (c == ')') {
        if (parens_ > 0) --parens_;
      }
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
        while (i_ < n && (std::isalnum(static_cast<unsigned char>(src_[i_])) || src_[i_] == '_'))
          ++i_;
      } else {
        ++i_;
      }
      note(kOther);
    }
    return std::move(out_);
  }

 private:
  enum Token { kNone, kOther, kAssign, kSizedArray };

  char peek(size_t k) const { return i_ + k < src_.size() ? src_[i_ + k] : '\0'; }
  void note(Token t) {
    before_last_ = last_;
    last_ = t;
  }

  void skip_line() {  // to the end of the line, following backslash continuations
    while (i_ < src_.size() && src_[i_] != '\n')
      i_ += src_[i_] == '\\' && peek(1) == '\n' ? 2 : 1;
  }

  // The directive from `start` (at '#') to i_, with blanks collapsed: "ifdef __cplusplus".
  std::string directive(size_t start) const {
    std::string out;
    for (size_t k = start + 1; k < i_; ++k) {
      const char c = src_[k];
      if (is_space(c) || c == '\\') {
        if (!out.empty() && out.back() != ' ') out += ' ';
      } else {
        out += c;
      }
    }
    while (!out.empty() && out.back() == ' ')
      out.pop_back();
    return out;
  }

  // From after `#ifdef __cplusplus` to its #endif (or #else, whose branch C does see).
  void skip_cplusplus_block() {
    int nesting = 0;
    while (i_ < src_.size()) {
      ++i_;  // past the newline
      size_t k = i_;
      while (k < src_.size() && (src_[k] == ' ' || src_[k] == '\t'))
        ++k;
      i_ = k;
      skip_line();
      if (k >= src_.size() || src_[k] != '#') continue;
      const std::string d = directive(k);
      if (d.rfind("if", 0) == 0) {
        ++nesting;
      } else if (d.rfind("endif", 0) == 0) {
        if (nesting-- == 0) return;
      } else if (d.rfind("else", 0) == 0 && nesting == 0) {
        return;
      }
    }
  }

  void skip_quoted(char quote) {
    ++i_;
    while (i_ < src_.size() && src_[i_] != quote && src_[i_] != '\n')
      i_ += src_[i_] == '\\' ? 2 : 1;
    ++i_;
  }

  // "[512]" is a written-out extent; "[]" or an expression is not.
  void bracket() {
    const size_t close = src_.find(']', i_);
    if (close == std::string_view::npos) {
      i_ = src_.size();
      return;
    }
    bool digits = false;
    bool only_number = true;
    for (size_t k = i_ + 1; k < close; ++k) {
      const char c = src_[k];
      if (std::isdigit(static_cast<unsigned char>(c))) {
        digits = true;
      } else if (!is_space(c) && c != 'u' && c != 'U' && c != 'l' && c != 'L') {
        only_number = false;
      }
    }
    i_ = close + 1;
    note(digits && only_number ? kSizedArray : kOther);
  }

  // Clears the group opening at i_ when it holds only data and is long enough.
  bool try_blank() {
    size_t k = i_ + 1;
    while (k < src_.size() && is_data(src_[k]))
      ++k;
    if (k >= src_.size() || src_[k] != '}' || k - i_ - 1 < min_bytes_) return false;
    for (size_t j = i_ + 1; j < k; ++j) {
      if (out_[j] != '\n' && out_[j] != '\r') out_[j] = ' ';
    }
    i_ = k + 1;
    note(kOther);
    return true;
  }

  std::string_view src_;
  std::string out_;
  size_t min_bytes_;
  size_t i_ = 0;
  int braces_ = 0;
  int parens_ = 0;
  bool in_initializer_ = false;
  Token last_ = kNone;
  Token before_last_ = kNone;
};

}  // namespace

std::string blank_constant_data(std::string_view source, size_t min_bytes) {
  return Blanker(source, min_bytes).run();
}

}  // namespace usmpx
