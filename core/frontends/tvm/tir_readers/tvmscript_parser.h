#pragma once

// Private to the TVMScript reader (tvmscript_*.cpp). One class over several files, for a reason:
// it is a recursive-descent parser, and the parts of the grammar (module and functions,
// statements, expressions) call each other over one token stream and one scope; each part of
// the grammar has its own file.

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "frontends/tvm/tir_readers/tir_parser_base.h"

namespace usmpx {

// What a TVMScript expression evaluates to while parsing: a TIR expression, a buffer, a dotted
// name not bound to anything (T.serial, T.int8), a Python list/tuple/dict/None, the frame of a
// statement that encloses the rest of the block (T.allocate, T.attr, ...), or the result of a
// call that is not an expression (T.target(...), T.handle("int8")).
struct ScriptEntry;
struct ScriptKeyword;

struct ScriptValue {
  enum class Kind { kExpr, kBuffer, kPath, kList, kTuple, kDict, kNone, kFrame, kCall, kType };

  // Special members are defined below ScriptEntry and ScriptKeyword, which must be complete first.
  ScriptValue();
  ~ScriptValue();
  ScriptValue(const ScriptValue&);
  ScriptValue(ScriptValue&&) noexcept;
  ScriptValue& operator=(const ScriptValue&);
  ScriptValue& operator=(ScriptValue&&) noexcept;

  Kind kind = Kind::kNone;
  SourceLocation location;
  tir::ExprRef expr;
  std::shared_ptr<tir::Buffer> buffer;
  std::string path;  // kPath, kCall name
  std::vector<ScriptValue> items;
  std::vector<ScriptEntry> entries;     // kDict
  std::vector<ScriptKeyword> keywords;  // kCall
  // kFrame: the outermost new statement, where the enclosed statements go, and what it names.
  std::shared_ptr<tir::Stmt> frame;
  tir::StmtRef* frame_body = nullptr;
  tir::VarRef frame_var;
  bool fresh_var = false;  // kExpr: a variable declared by T.int32() and the like
  // kType: a parameter or let annotation (T.handle("int8"), T.int32).
  tir::DataType type;
  std::optional<tir::DataType> pointee;
  std::string scope;
};

// Pair-like entries of a ScriptValue: std::pair may not be instantiated while ScriptValue is still
// incomplete (clang refuses; GCC lets it pass).
struct ScriptEntry {
  ScriptValue first;
  ScriptValue second;
  ScriptEntry(ScriptValue key, ScriptValue value) : first(std::move(key)), second(std::move(value)) {}
};
struct ScriptKeyword {
  std::string first;
  ScriptValue second;
  ScriptKeyword(std::string key, ScriptValue value) : first(std::move(key)), second(std::move(value)) {}
};

inline ScriptValue::ScriptValue() = default;
inline ScriptValue::~ScriptValue() = default;
inline ScriptValue::ScriptValue(const ScriptValue&) = default;
inline ScriptValue::ScriptValue(ScriptValue&&) noexcept = default;
inline ScriptValue& ScriptValue::operator=(const ScriptValue&) = default;
inline ScriptValue& ScriptValue::operator=(ScriptValue&&) noexcept = default;

struct ScriptArgs {
  std::vector<ScriptValue> positional;
  std::vector<ScriptKeyword> keywords;
  SourceLocation location;

  const ScriptValue* get(size_t position, std::string_view keyword) const;
};

class TvmScriptParser : public TirParserBase {
 public:
  TvmScriptParser(std::string_view text, const std::string& file)
      : TirParserBase(text, file, TirLexer::Mode::kPython) {}
  tir::Module parse();

 private:
  struct Binding {
    tir::VarRef var;
    std::shared_ptr<tir::Buffer> buffer;
  };
  // One statement of a block: a finished statement, a frame enclosing the rest, or nothing.
  struct Item {
    tir::StmtRef stmt;
    std::shared_ptr<tir::Stmt> frame;
    tir::StmtRef* frame_body = nullptr;
  };

  // Module and functions (tvmscript_parser.cpp).
  void parse_decorated(tir::Module& module);
  void skip_statement();
  void parse_class(tir::Module& module);
  tir::PrimFunc parse_function();
  void parse_parameter(tir::PrimFunc& function);
  void add_function(tir::Module& module, tir::PrimFunc function);

  // Statements (tvmscript_statements.cpp).
  tir::StmtRef parse_block(const SourceLocation& at);
  tir::StmtRef parse_suite_items(std::vector<Item>& items, const SourceLocation& at);
  void parse_statement(std::vector<Item>& items);
  void parse_simple_statement(std::vector<Item>& items);
  tir::StmtRef parse_for();
  tir::StmtRef parse_with();
  tir::StmtRef parse_if();
  void parse_assignment(std::vector<Item>& items);
  void bind_value(const std::string& name, ScriptValue value, const SourceLocation& at, std::vector<Item>& items,
                  const ScriptValue* annotation);
  void end_statement();
  static tir::StmtRef build(std::vector<Item>& items, const SourceLocation& at);

  // Expressions (tvmscript_exprs.cpp).
  ScriptValue parse_value();
  ScriptValue parse_or();
  ScriptValue parse_and();
  ScriptValue parse_not();
  ScriptValue parse_comparison();
  ScriptValue parse_bitwise(int level);
  ScriptValue parse_sum();
  ScriptValue parse_term();
  ScriptValue parse_factor();
  ScriptValue parse_power();
  ScriptValue parse_postfix();
  ScriptValue parse_atom();
  ScriptValue parse_subscript(ScriptValue base);
  ScriptArgs parse_call_args();
  ScriptValue call(const ScriptValue& callee, const ScriptArgs& args);
  ScriptValue call_builtin(const std::string& name, const ScriptArgs& args, const SourceLocation& at);
  ScriptValue make_buffer(const ScriptArgs& args, size_t first, const SourceLocation& at, bool allow_data);
  ScriptValue make_allocate(const ScriptArgs& args, const SourceLocation& at);
  ScriptValue make_decl_buffer(const ScriptArgs& args, const SourceLocation& at);
  ScriptValue make_allocate_const(const ScriptArgs& args, const SourceLocation& at);
  ScriptValue make_attr(const ScriptArgs& args, const SourceLocation& at);
  ScriptValue make_let(const ScriptArgs& args, const SourceLocation& at);
  ScriptValue make_match_buffer(const ScriptArgs& args, const SourceLocation& at);

  // Conversions.
  tir::ExprRef to_expr(const ScriptValue& v) const;
  std::vector<tir::ExprRef> to_exprs(const ScriptValue& v) const;  // a shape: list, tuple or one expression
  std::string to_string_arg(const ScriptValue& v, std::string_view what) const;
  tir::DataType to_dtype(const ScriptValue& v) const;
  int64_t to_int_arg(const ScriptValue& v, std::string_view what) const;
  tir::AttrValue to_attr(const ScriptValue& v) const;
  tir::Attrs to_attrs(const ScriptValue& v, std::string_view what) const;
  ScriptValue expr_value(tir::ExprRef e) const;
  ScriptValue type_of_annotation(const ScriptValue& v) const;

  // Names.
  void push_scope() { scopes_.emplace_back(); }
  void pop_scope() { scopes_.pop_back(); }
  void bind(const std::string& name, Binding binding) { scopes_.back()[name] = std::move(binding); }
  const Binding* lookup(const std::string& name) const;

  std::vector<std::unordered_map<std::string, Binding>> scopes_;
  tir::PrimFunc* function_ = nullptr;  // the function being parsed
};

}  // namespace usmpx
