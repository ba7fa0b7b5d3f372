#pragma once

#include <string>
#include <string_view>

#include "frontends/tvm/tir/node.h"
#include "frontends/tvm/tir_readers/tir_lexer.h"

namespace usmpx {

// Token handling, error reporting and recursion limits shared by the two TIR dump readers.
class TirParserBase {
 protected:
  TirParserBase(std::string_view text, std::string file, TirLexer::Mode mode) : lexer_(text, std::move(file), mode) {}

  const TirToken& peek(size_t ahead = 0) { return lexer_.peek(ahead); }
  TirToken take() { return lexer_.next(); }
  SourceLocation loc(const TirToken& token) const { return lexer_.location(token); }
  SourceLocation here() { return loc(peek()); }

  bool accept_op(std::string_view op);
  bool accept_name(std::string_view name);
  // Consumes the operator or throws "expected 'op' <context>, got ...".
  TirToken expect_op(std::string_view op, std::string_view context = "");
  TirToken expect_name(std::string_view what);
  void expect_keyword(std::string_view keyword, std::string_view context = "");

  [[noreturn]] void fail(const SourceLocation& at, const std::string& message) const;
  [[noreturn]] void expected(std::string_view what, const TirToken& got) const;
  tir::DataType dtype_from(const SourceLocation& at, std::string_view text) const;
  // Refuses function bodies nested deeper than the analyses may recurse.
  void check_depth(const tir::PrimFunc& function) const;

  // Counts syntactic nesting (blocks, brackets, operator operands) and refuses input nested
  // deeper than kMaxNesting, so that deeply nested text cannot exhaust the stack.
  class NestingGuard {
   public:
    NestingGuard(TirParserBase& parser, const SourceLocation& at);
    ~NestingGuard() { --parser_.nesting_; }
    NestingGuard(const NestingGuard&) = delete;
    NestingGuard& operator=(const NestingGuard&) = delete;

   private:
    TirParserBase& parser_;
  };
  static constexpr int kMaxNesting = 256;

  TirLexer lexer_;

 private:
  int nesting_ = 0;
};

}  // namespace usmpx
