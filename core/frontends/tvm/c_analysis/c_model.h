#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/diagnostic.h"

namespace usmpx {

// A span of one parsed source file: byte offsets [begin, end) into CProgram::files[file].text
// and the 1-based line and column of `begin`. Code that rewrites the sources (the exporter)
// replaces exactly these bytes.
struct CRange {
  int file = -1;
  uint32_t begin = 0;
  uint32_t end = 0;
  int line = 0;
  int column = 0;

  bool valid() const { return file >= 0; }
  bool operator==(const CRange&) const = default;
};

enum class CExprKind {
  kIntLiteral,
  kFloatLiteral,
  kStringLiteral,
  kName,         // a variable, parameter, function or enumerator
  kCall,         // text = callee name; args = arguments
  kBinary,       // text = operator ("+", "=", "+=", "==", ","); args = {lhs, rhs}
  kUnary,        // text = operator ("&", "*", "-", "!", "~", "++", "--"); args = {operand}
  kCast,         // type = the target type; args = {operand}
  kSubscript,    // args = {base, index}; type_bytes = size of one element
  kConditional,  // args = {condition, then, else}
  kMember,       // text = member name; args = {base}
  kOther,        // sizeof, initializer lists, statement expressions, ...; args = sub-expressions
};

// One C expression. Parentheses and implicit conversions are not kept as nodes.
struct CExpr {
  CExprKind kind = CExprKind::kOther;
  std::string text;
  int64_t value = 0;          // kIntLiteral
  bool postfix = false;       // kUnary: x++ rather than ++x
  int decl = -1;              // kName: index into the enclosing CFunction::variables; -1 for file scope
  std::string type;           // spelling of the expression's type
  int64_t type_bytes = 0;     // sizeof that type, 0 when incomplete (void)
  int64_t pointee_bytes = 0;  // for a pointer: sizeof what it points to (0 for void*), else 0
  std::vector<CExpr> args;
  CRange range;
};

enum class CStmtKind {
  kCompound,  // body = statements
  kDecl,      // decls = declared variables (their initializers are in CFunction::variables)
  kExpr,      // exprs = {expression}
  kIf,        // exprs = {condition}; body = {then[, else]}
  kFor,       // exprs = {condition, increment} (kOther without range when absent); body = {init, body}
  kWhile,     // exprs = {condition}; body = {body}
  kDo,        // exprs = {condition}; body = {body}
  kSwitch,    // exprs = {condition}; body = {body}
  kCase,      // exprs = {value}; body = {statement}
  kDefault,   // body = {statement}
  kLabel,     // text = label; body = {statement}
  kReturn,    // exprs = {value} or {}
  kGoto,      // text = label
  kBreak,
  kContinue,
  kNull,  // ";" (also stands for an absent for-init)
  kOther,
};

struct CStmt {
  CStmtKind kind = CStmtKind::kNull;
  std::string text;
  std::vector<CStmt> body;
  std::vector<CExpr> exprs;
  std::vector<int> decls;
  CRange range;
};

// A parameter or local variable of a function.
struct CVariable {
  std::string name;
  std::string type;
  int64_t type_bytes = 0;       // sizeof the variable's type (the whole array for arrays)
  int64_t array_elements = -1;  // -1 when not an array of constant size
  int64_t element_bytes = 0;    // arrays: one element; pointers: the pointee
  bool is_param = false;
  std::optional<CExpr> init;
  CRange range;       // the declaration
  CRange init_range;  // the initializer, when there is one
};

struct CFunction {
  std::string name;
  std::string return_type;
  bool is_static = false;
  bool is_definition = false;
  std::vector<int> params;           // indices into variables, in order
  std::vector<CVariable> variables;  // parameters first, then locals in declaration order
  CStmt body;                        // kCompound; empty for declarations
  CRange range;                      // the whole definition or declaration
  CRange body_range;
};

// A field of a struct, with the layout clang computes for it.
struct CField {
  std::string name;
  std::string type;
  int64_t offset_bytes = 0;
  int64_t size_bytes = 0;
  int64_t array_elements = -1;
  int64_t element_bytes = 0;
  int64_t alignment = 0;  // from __attribute__((aligned(N))), 0 when absent
  CRange range;
};

// A variable declared at file scope, e.g. a constant array or an internal memory pool.
struct CGlobal {
  std::string name;
  std::string type;
  int64_t type_bytes = 0;
  int64_t array_elements = -1;
  int64_t element_bytes = 0;
  bool is_const = false;
  bool is_static = false;
  bool is_struct = false;
  std::vector<CField> fields;  // when the type is a struct
  std::string section;         // from __attribute__((section("..."))), "" when absent
  int64_t fixed_address = -1;  // a pointer initialised with an integer constant: that address
  int64_t alignment = 0;       // from __attribute__((aligned(N))), 0 when absent
  CRange range;
  CRange init_range;
};

// A struct declared at file scope (e.g. tvmgen_<mod>_inputs in the interface header).
struct CRecord {
  std::string name;
  std::vector<CField> fields;
  CRange range;
};

// An object-like #define of a parsed file: name and the spelling of its tokens joined by spaces.
struct CMacro {
  std::string name;
  std::string value;
  CRange range;
};

struct CSourceFile {
  std::string path;       // relative to the archive root, e.g. "codegen/host/src/default_lib1.c"
  std::string_view text;  // the bytes that were parsed (owned by the caller)
};

// Everything read from the C files of a model: only what was written in those files, not in
// the headers they include.
struct CProgram {
  std::vector<CSourceFile> files;
  std::vector<CFunction> functions;  // in file order, then source order
  std::vector<CGlobal> globals;
  std::vector<CRecord> records;
  std::vector<CMacro> macros;
  std::vector<Diagnostic> diagnostics;  // parse errors, as warnings naming file:line:column
  // Where in the sources clang reported errors: (index into files, byte offset). A function
  // holding one may have lost statements, so the analysis cannot trust what it sees of it.
  std::vector<std::pair<int, uint32_t>> error_positions;
  std::vector<std::string> left_out_files;  // sources not parsed at all (too deep, libclang failed)

  // The definition of `name` when there is one, else its first declaration, else nullptr.
  const CFunction* find_function(std::string_view name) const;
  const CGlobal* find_global(std::string_view name) const;
  const CRecord* find_record(std::string_view name) const;
  const CMacro* find_macro(std::string_view name) const;
  // "codegen/host/src/default_lib1.c:12:3" for a range.
  std::string where(const CRange& range) const;
};

}  // namespace usmpx
