#include "frontends/tvm/tir_readers/tir_parser_base.h"

#include "base/input_error.h"
#include "frontends/tvm/tir/depth.h"

namespace usmpx {

bool TirParserBase::accept_op(std::string_view op) {
  if (!peek().is_op(op)) return false;
  take();
  return true;
}

bool TirParserBase::accept_name(std::string_view name) {
  if (!peek().is_name(name)) return false;
  take();
  return true;
}

TirToken TirParserBase::expect_op(std::string_view op, std::string_view context) {
  if (!peek().is_op(op)) {
    std::string what = "'" + std::string(op) + "'";
    if (!context.empty()) what += " " + std::string(context);
    expected(what, peek());
  }
  return take();
}

TirToken TirParserBase::expect_name(std::string_view what) {
  if (peek().kind != TirTokenKind::kName) expected(what, peek());
  return take();
}

void TirParserBase::expect_keyword(std::string_view keyword, std::string_view context) {
  if (!peek().is_name(keyword)) {
    std::string what = "'" + std::string(keyword) + "'";
    if (!context.empty()) what += " " + std::string(context);
    expected(what, peek());
  }
  take();
}

void TirParserBase::fail(const SourceLocation& at, const std::string& message) const {
  throw InputError(at, message);
}

void TirParserBase::expected(std::string_view what, const TirToken& got) const {
  fail(loc(got), "expected " + std::string(what) + ", got " + got.describe());
}

tir::DataType TirParserBase::dtype_from(const SourceLocation& at, std::string_view text) const {
  const std::optional<tir::DataType> t = tir::DataType::parse(text);
  if (!t) fail(at, "unknown dtype '" + std::string(text) + "'");
  return *t;
}

void TirParserBase::check_depth(const tir::PrimFunc& function) const {
  if (const auto at = tir::find_too_deep(function, tir::kMaxTreeDepth)) {
    fail(*at, "statements and expressions nested more than " + std::to_string(tir::kMaxTreeDepth) +
                  " levels deep in function '" + function.name + "'");
  }
}

TirParserBase::NestingGuard::NestingGuard(TirParserBase& parser, const SourceLocation& at) : parser_(parser) {
  if (++parser_.nesting_ > kMaxNesting) {
    --parser_.nesting_;
    parser_.fail(at, "nesting deeper than " + std::to_string(kMaxNesting) + " levels");
  }
}

}  // namespace usmpx
