#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frontends/tvm/tir/dtype.h"
#include "model/buffer.h"

namespace usmpx {

enum class TirTokenKind { kName, kInt, kFloat, kString, kOp, kNewline, kIndent, kDedent, kEnd };

struct TirToken {
  TirTokenKind kind = TirTokenKind::kEnd;
  std::string text;  // name, operator, or the decoded string value
  int64_t int_value = 0;
  double float_value = 0.0;
  std::optional<tir::DataType> suffix;  // legacy typed literal: 5i64, 0f32, 1u8
  int line = 1;
  int column = 1;
  bool starts_line = false;  // first token on its source line

  bool is(TirTokenKind k, std::string_view t) const { return kind == k && text == t; }
  bool is_op(std::string_view t) const { return is(TirTokenKind::kOp, t); }
  bool is_name(std::string_view t) const { return is(TirTokenKind::kName, t); }
  // "'foo'", "end of line", "end of file", ... for "expected X, got Y" messages.
  std::string describe() const;
};

// Tokenizer for both TIR dump formats, producing tokens on demand with lookahead.
//
// kPython (TVMScript): Python layout. NEWLINE ends a logical line outside brackets, INDENT and
// DEDENT follow leading spaces (tabs are rejected), blank and comment lines are skipped, a
// backslash joins lines. kLegacy (the `primfn` printer): layout is free, names may contain dots
// ("i0.i1.fused", "tir.call_extern"), numbers may carry a dtype suffix ("5i64", "0f32") and the
// C operators && || ! are tokens. Both: # starts a comment. Errors throw InputError with the
// position.
class TirLexer {
 public:
  enum class Mode { kPython, kLegacy };

  TirLexer(std::string_view text, std::string file, Mode mode);

  const TirToken& peek(size_t ahead = 0);
  TirToken next();
  SourceLocation location(const TirToken& token) const { return {file_, token.line, token.column}; }
  const std::string& file() const { return file_; }

 private:
  void produce();  // appends at least one token to queue_
  void lex_line_start();
  void lex_token();
  void lex_number();
  void lex_string();
  [[noreturn]] void fail(int line, int column, const std::string& message) const;
  char at(size_t offset = 0) const { return pos_ + offset < text_.size() ? text_[pos_ + offset] : '\0'; }
  void advance(size_t n = 1);
  TirToken make(TirTokenKind kind, std::string text, int line, int column);

  std::string_view text_;
  std::string file_;
  Mode mode_;
  size_t pos_ = 0;
  int line_ = 1;
  int column_ = 1;
  int bracket_depth_ = 0;
  bool at_line_start_ = true;  // python: indentation not yet measured for this line
  bool line_has_tokens_ = false;
  bool first_on_line_ = true;
  bool finished_ = false;
  std::vector<int> indents_{0};
  std::deque<TirToken> queue_;
};

}  // namespace usmpx
