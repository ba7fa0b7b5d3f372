#pragma once

// Private to the legacy TIR reader (legacy_tir_*.cpp). One class over two files, for a reason:
// a recursive-descent parser whose statements and expressions call each other over one token
// stream and one scope; each part of the grammar has its own file.

#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "frontends/tvm/tir_readers/tir_parser_base.h"

namespace usmpx {

class LegacyTirParser : public TirParserBase {
 public:
  LegacyTirParser(std::string_view text, const std::string& file)
      : TirParserBase(text, file, TirLexer::Mode::kLegacy) {}
  tir::Module parse();

 private:
  struct Binding {
    tir::VarRef var;
    std::shared_ptr<tir::Buffer> buffer;
  };
  struct Type {
    tir::DataType dtype;
    std::optional<tir::DataType> pointee;
    std::string scope;
  };

  // Functions and statements (legacy_tir_parser.cpp).
  tir::PrimFunc parse_function(std::string name, const SourceLocation& at);
  void parse_buffers_section();
  void parse_buffer_map_section(tir::PrimFunc& f, bool keep);
  tir::StmtRef parse_block_rest(const SourceLocation& at);  // after '{'
  tir::StmtRef parse_statement();
  // Statements that enclose the next statement or a braced block; returns null if none starts here.
  std::shared_ptr<tir::Stmt> parse_header(tir::StmtRef*& body, bool& needs_semicolon);
  std::shared_ptr<tir::Stmt> parse_allocate(tir::StmtRef*& body);
  std::shared_ptr<tir::Stmt> parse_constant(tir::StmtRef*& body);
  tir::StmtRef parse_for();
  tir::StmtRef parse_if();
  tir::StmtRef parse_simple();

  // Expressions, types and attribute values (legacy_tir_exprs.cpp).
  tir::ExprRef parse_expr();
  tir::ExprRef parse_binary(int level);
  tir::ExprRef parse_unary();
  tir::ExprRef parse_primary();
  tir::ExprRef parse_call(const SourceLocation& at);
  std::vector<tir::ExprRef> parse_expr_list(std::string_view close);
  tir::ExprRef parse_name_use(const TirToken& name);
  // NAME ':' type declares a new variable; a bare NAME refers to one declared before.
  tir::VarRef parse_var();
  std::shared_ptr<tir::Buffer> parse_buffer_decl(const TirToken& name);  // after "name:", at "Buffer"
  Type parse_type();
  tir::DataType parse_dtype_name();
  tir::AttrValue parse_attr_value();
  tir::Attrs parse_attr_dict();
  std::string capture_raw();
  tir::BufferRef buffer_for_var(const tir::VarRef& var, tir::DataType element);
  // Whether the next token continues the current expression (not the start of a new statement).
  bool continues(const TirToken& t) const { return !t.starts_line; }

  std::unordered_map<std::string, Binding> names_;
  std::unordered_map<const tir::Var*, tir::BufferRef> var_buffers_;
  std::vector<tir::VarRef> params_;
};

}  // namespace usmpx
