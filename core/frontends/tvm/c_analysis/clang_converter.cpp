#include "frontends/tvm/c_analysis/clang_converter.h"

#include <algorithm>
#include <cstdlib>
#include <unordered_map>

namespace usmpx {
namespace {

constexpr size_t kMaxConvertedInitElements = 64;

std::string take(CXString s) {
  return take_cx_string(s);
}

template <typename F>
void for_each_child(CXCursor cursor, F&& f) {
  using Fn = std::remove_reference_t<F>;
  clang_visitChildren(
      cursor,
      [](CXCursor child, CXCursor, CXClientData data) {
        (*static_cast<Fn*>(data))(child);
        return CXChildVisit_Continue;
      },
      &f);
}

std::vector<CXCursor> children(CXCursor cursor) {
  std::vector<CXCursor> out;
  for_each_child(cursor, [&](CXCursor c) { out.push_back(c); });
  return out;
}

int64_t size_of(CXType type) {
  const long long n = clang_Type_getSizeOf(type);
  return n > 0 ? n : 0;
}

struct TypeInfo {
  std::string spelling;
  int64_t bytes = 0;
  int64_t array_elements = -1;
  int64_t element_bytes = 0;
  bool is_const = false;
  bool is_struct = false;
};

TypeInfo type_info(CXType type) {
  TypeInfo info;
  info.spelling = take(clang_getTypeSpelling(type));
  info.bytes = size_of(type);
  const CXType canonical = clang_getCanonicalType(type);
  info.is_const = clang_isConstQualifiedType(canonical) != 0;
  if (canonical.kind == CXType_ConstantArray) {
    info.array_elements = clang_getArraySize(canonical);
    const CXType element = clang_getArrayElementType(canonical);
    info.element_bytes = size_of(element);
    info.is_const = info.is_const || clang_isConstQualifiedType(element) != 0;
  } else if (canonical.kind == CXType_Pointer) {
    info.element_bytes = size_of(clang_getPointeeType(canonical));
  }
  info.is_struct = canonical.kind == CXType_Record;
  return info;
}

// What a file-scope and a local variable say alike: name, type and sizes.
template <typename Declared>
TypeInfo read_declaration(CXCursor decl, Declared& out) {
  TypeInfo t = type_info(clang_getCursorType(decl));
  out.name = take(clang_getCursorSpelling(decl));
  out.type = t.spelling;
  out.type_bytes = t.bytes;
  out.array_elements = t.array_elements;
  out.element_bytes = t.element_bytes;
  return t;
}

struct Token {
  uint32_t begin = 0;
  uint32_t end = 0;
  CXTokenKind kind = CXToken_Punctuation;
  std::string spelling;
};

// Converts the cursors of one translation unit's main file into the CProgram model.
class TuConverter {
 public:
  TuConverter(CXTranslationUnit tu, int file_index, const std::string& virtual_path, CProgram& program)
      : tu_(tu), file_index_(file_index), program_(program) {
    main_file_ = clang_getFile(tu, virtual_path.c_str());
  }

  void convert(bool macros) {
    for_each_child(clang_getTranslationUnitCursor(tu_), [&](CXCursor c) {
      if (!clang_Location_isFromMainFile(clang_getCursorLocation(c))) return;
      switch (clang_getCursorKind(c)) {
        case CXCursor_FunctionDecl: program_.functions.push_back(convert_function(c)); break;
        case CXCursor_VarDecl: program_.globals.push_back(convert_global(c)); break;
        case CXCursor_StructDecl:
          if (clang_isCursorDefinition(c)) {
            CRecord r{take(clang_getCursorSpelling(c)), fields_of(c), range_of(c)};
            if (!r.name.empty()) program_.records.push_back(std::move(r));
          }
          break;
        case CXCursor_MacroDefinition:
          if (macros && !clang_Cursor_isMacroBuiltin(c) && !clang_Cursor_isMacroFunctionLike(c)) add_macro(c);
          break;
        default: break;
      }
    });
  }

 private:
  CRange range_of(CXSourceRange r) {
    CRange out;
    CXFile file = nullptr;
    unsigned line = 0, column = 0, begin = 0, end = 0;
    clang_getFileLocation(clang_getRangeStart(r), &file, &line, &column, &begin);
    if (!file || !clang_File_isEqual(file, main_file_)) return out;
    CXFile end_file = nullptr;
    clang_getFileLocation(clang_getRangeEnd(r), &end_file, nullptr, nullptr, &end);
    out.file = file_index_;
    out.begin = begin;
    out.end = std::max(begin, end_file && clang_File_isEqual(end_file, main_file_) ? end : begin);
    out.line = static_cast<int>(line);
    out.column = static_cast<int>(column);
    return out;
  }
  CRange range_of(CXCursor c) { return range_of(clang_getCursorExtent(c)); }

  std::vector<Token> tokens_in(CXSourceRange extent) {
    CXToken* tokens = nullptr;
    unsigned count = 0;
    clang_tokenize(tu_, extent, &tokens, &count);
    std::vector<Token> out;
    out.reserve(count);
    for (unsigned i = 0; i < count; ++i) {
      const CRange r = range_of(clang_getTokenExtent(tu_, tokens[i]));
      if (!r.valid()) continue;
      out.push_back({r.begin, r.end, clang_getTokenKind(tokens[i]), take(clang_getTokenSpelling(tu_, tokens[i]))});
    }
    clang_disposeTokens(tu_, tokens, count);
    std::sort(out.begin(), out.end(), [](const Token& a, const Token& b) { return a.begin < b.begin; });
    return out;
  }

  // The first (or last) operator token inside [begin, end), parentheses skipped.
  std::string operator_between(uint32_t begin, uint32_t end, bool last) const {
    auto it =
        std::lower_bound(tokens_.begin(), tokens_.end(), begin, [](const Token& t, uint32_t b) { return t.begin < b; });
    std::string found;
    for (; it != tokens_.end() && it->end <= end; ++it) {
      if (it->kind != CXToken_Punctuation || it->spelling == "(" || it->spelling == ")") continue;
      found = it->spelling;
      if (!last) break;
    }
    return found;
  }

  void add_macro(CXCursor c) {
    const std::vector<Token> tokens = tokens_in(clang_getCursorExtent(c));
    CMacro m{take(clang_getCursorSpelling(c)), "", range_of(c)};
    for (size_t i = 1; i < tokens.size(); ++i)
      m.value += (m.value.empty() ? "" : " ") + tokens[i].spelling;
    program_.macros.push_back(std::move(m));
  }

  // aligned(N) and section("...") attributes among a declaration's children.
  void read_attributes(CXCursor decl, int64_t& alignment, std::string* section) {
    for_each_child(decl, [&](CXCursor c) {
      const CXCursorKind kind = clang_getCursorKind(c);
      if (kind != CXCursor_AlignedAttr && kind != CXCursor_UnexposedAttr) return;
      const std::vector<Token> tokens = tokens_in(clang_getCursorExtent(c));
      if (kind == CXCursor_AlignedAttr) {
        for (const Token& t : tokens) {
          if (t.kind == CXToken_Literal)
            alignment = std::max<int64_t>(alignment, std::strtoll(t.spelling.c_str(), nullptr, 0));
        }
      } else if (section && !tokens.empty() && tokens.front().spelling == "section") {
        for (const Token& t : tokens) {
          if (t.kind == CXToken_Literal && t.spelling.size() >= 2 && t.spelling.front() == '"') {
            *section = t.spelling.substr(1, t.spelling.size() - 2);
          }
        }
      }
    });
  }

  std::vector<CField> fields_of(CXCursor record) {
    std::vector<CField> fields;
    for_each_child(record, [&](CXCursor c) {
      if (clang_getCursorKind(c) != CXCursor_FieldDecl) return;
      const TypeInfo t = type_info(clang_getCursorType(c));
      CField f;
      f.name = take(clang_getCursorSpelling(c));
      f.type = t.spelling;
      const long long bits = clang_Cursor_getOffsetOfField(c);
      f.offset_bytes = bits >= 0 ? bits / 8 : -1;
      f.size_bytes = t.bytes;
      f.array_elements = t.array_elements;
      f.element_bytes = t.element_bytes;
      f.range = range_of(c);
      read_attributes(c, f.alignment, nullptr);
      fields.push_back(std::move(f));
    });
    return fields;
  }

  CGlobal convert_global(CXCursor c) {
    CGlobal g;
    const TypeInfo t = read_declaration(c, g);
    g.is_const = t.is_const;
    g.is_static = clang_Cursor_getStorageClass(c) == CX_SC_Static;
    g.is_struct = t.is_struct;
    if (t.is_struct) {
      g.fields = fields_of(clang_getTypeDeclaration(clang_getCanonicalType(clang_getCursorType(c))));
    }
    read_attributes(c, g.alignment, &g.section);
    g.range = range_of(c);
    const CXCursor init = clang_Cursor_getVarDeclInitializer(c);
    if (!clang_Cursor_isNull(init)) g.init_range = range_of(init);
    if (!clang_Cursor_isNull(init) && clang_getCanonicalType(clang_getCursorType(c)).kind == CXType_Pointer)
      g.fixed_address = integer_behind_casts(init);
    return g;
  }

  // `(int16_t*)0x24000000u`: the integer a pointer is made from, -1 when it is not a constant.
  static int64_t integer_behind_casts(CXCursor c) {
    for (int depth = 0; depth < 8; ++depth) {
      const CXCursorKind kind = clang_getCursorKind(c);
      if (kind == CXCursor_IntegerLiteral) {
        CXEvalResult r = clang_Cursor_Evaluate(c);
        int64_t value = -1;
        if (r && clang_EvalResult_getKind(r) == CXEval_Int)
          value = static_cast<int64_t>(clang_EvalResult_getAsUnsigned(r));
        if (r) clang_EvalResult_dispose(r);
        return value;
      }
      std::vector<CXCursor> kids;
      for (CXCursor k : children(c)) {
        if (clang_isExpression(clang_getCursorKind(k))) kids.push_back(k);
      }
      if (kids.size() != 1 ||
          (kind != CXCursor_CStyleCastExpr && kind != CXCursor_ParenExpr && kind != CXCursor_UnexposedExpr))
        return -1;
      c = kids.front();
    }
    return -1;
  }

  int add_variable(CXCursor decl, bool param) {
    CVariable v;
    read_declaration(decl, v);
    v.is_param = param;
    v.range = range_of(decl);
    const int id = static_cast<int>(fn_->variables.size());
    unsigned offset = 0;
    clang_getFileLocation(clang_getCursorLocation(decl), nullptr, nullptr, nullptr, &offset);
    var_ids_[offset] = id;
    fn_->variables.push_back(std::move(v));
    if (!param) {
      const CXCursor init = clang_Cursor_getVarDeclInitializer(decl);
      if (!clang_Cursor_isNull(init)) {
        CExpr e = convert_expr(init);
        CVariable& var = fn_->variables[static_cast<size_t>(id)];
        var.init_range = range_of(init);
        var.init = std::move(e);
      }
    }
    return id;
  }

  CFunction convert_function(CXCursor c) {
    CFunction f;
    fn_ = &f;
    var_ids_.clear();
    f.name = take(clang_getCursorSpelling(c));
    f.return_type = take(clang_getTypeSpelling(clang_getResultType(clang_getCursorType(c))));
    f.is_static = clang_Cursor_getStorageClass(c) == CX_SC_Static;
    f.is_definition = clang_isCursorDefinition(c) != 0;
    f.range = range_of(c);
    const int n = clang_Cursor_getNumArguments(c);
    for (int i = 0; i < n; ++i)
      f.params.push_back(add_variable(clang_Cursor_getArgument(c, static_cast<unsigned>(i)), true));
    if (f.is_definition) {
      for (CXCursor child : children(c)) {
        if (clang_getCursorKind(child) != CXCursor_CompoundStmt) continue;
        tokens_ = tokens_in(clang_getCursorExtent(child));
        f.body_range = range_of(child);
        f.body = convert_stmt(child);
      }
    }
    tokens_.clear();
    fn_ = nullptr;
    return f;
  }

  CStmt convert_stmt(CXCursor c) {
    CStmt s;
    s.range = range_of(c);
    const CXCursorKind kind = clang_getCursorKind(c);
    if (clang_isExpression(kind)) {
      s.kind = CStmtKind::kExpr;
      s.exprs.push_back(convert_expr(c));
      return s;
    }
    const std::vector<CXCursor> kids = children(c);
    auto stmt_at = [&](size_t i) { return i < kids.size() ? convert_stmt(kids[i]) : CStmt{}; };
    auto expr_at = [&](size_t i) { return i < kids.size() ? convert_expr(kids[i]) : CExpr{}; };
    switch (kind) {
      case CXCursor_CompoundStmt:
        s.kind = CStmtKind::kCompound;
        for (CXCursor k : kids)
          s.body.push_back(convert_stmt(k));
        break;
      case CXCursor_DeclStmt:
        s.kind = CStmtKind::kDecl;
        for (CXCursor k : kids) {
          if (clang_getCursorKind(k) == CXCursor_VarDecl) s.decls.push_back(add_variable(k, false));
        }
        break;
      case CXCursor_IfStmt:
        s.kind = CStmtKind::kIf;
        s.exprs.push_back(expr_at(0));
        s.body.push_back(stmt_at(1));
        if (kids.size() > 2) s.body.push_back(stmt_at(2));
        break;
      case CXCursor_ForStmt: convert_for(c, kids, s); break;
      case CXCursor_WhileStmt:
      case CXCursor_SwitchStmt:
        s.kind = kind == CXCursor_WhileStmt ? CStmtKind::kWhile : CStmtKind::kSwitch;
        s.exprs.push_back(expr_at(0));
        s.body.push_back(stmt_at(kids.size() - 1));
        break;
      case CXCursor_DoStmt:
        s.kind = CStmtKind::kDo;
        s.body.push_back(stmt_at(0));
        s.exprs.push_back(expr_at(1));
        break;
      case CXCursor_CaseStmt:
        s.kind = CStmtKind::kCase;
        s.exprs.push_back(expr_at(0));
        s.body.push_back(stmt_at(kids.size() - 1));
        break;
      case CXCursor_DefaultStmt:
      case CXCursor_LabelStmt:
        s.kind = kind == CXCursor_DefaultStmt ? CStmtKind::kDefault : CStmtKind::kLabel;
        if (kind == CXCursor_LabelStmt) s.text = take(clang_getCursorSpelling(c));
        s.body.push_back(stmt_at(kids.size() - 1));
        break;
      default:
        if (!convert_jump(kind, kids, s)) {
          s.kind = CStmtKind::kOther;
          for (CXCursor k : kids) {
            if (clang_isStatement(clang_getCursorKind(k))) s.body.push_back(convert_stmt(k));
          }
        }
        break;
    }
    return s;
  }

  // return, goto, break, continue and the empty statement; false for any other kind.
  bool convert_jump(CXCursorKind kind, const std::vector<CXCursor>& kids, CStmt& s) {
    switch (kind) {
      case CXCursor_ReturnStmt:
        s.kind = CStmtKind::kReturn;
        if (!kids.empty()) s.exprs.push_back(convert_expr(kids[0]));
        return true;
      case CXCursor_GotoStmt:
        s.kind = CStmtKind::kGoto;
        if (!kids.empty()) s.text = take(clang_getCursorSpelling(kids[0]));
        return true;
      case CXCursor_BreakStmt: s.kind = CStmtKind::kBreak; return true;
      case CXCursor_ContinueStmt: s.kind = CStmtKind::kContinue; return true;
      case CXCursor_NullStmt: s.kind = CStmtKind::kNull; return true;
      default: return false;
    }
  }

  // libclang omits absent parts of `for (init; cond; inc)`, so each child is placed by where it
  // lies relative to the two semicolons of the header.
  void convert_for(CXCursor c, const std::vector<CXCursor>& kids, CStmt& s) {
    s.kind = CStmtKind::kFor;
    const CRange whole = range_of(c);
    std::vector<uint32_t> semicolons;
    int depth = 0;
    uint32_t header_end = whole.end;
    auto it = std::lower_bound(tokens_.begin(), tokens_.end(), whole.begin,
                               [](const Token& t, uint32_t b) { return t.begin < b; });
    for (; it != tokens_.end() && it->begin < whole.end; ++it) {
      if (it->spelling == "(") ++depth;
      if (it->spelling == ")" && --depth == 0) {
        header_end = it->begin;
        break;
      }
      if (it->spelling == ";" && depth == 1) semicolons.push_back(it->begin);
    }
    CStmt init;
    CExpr cond, inc;
    CStmt body;
    for (CXCursor k : kids) {
      const CRange r = range_of(k);
      if (semicolons.size() == 2 && r.valid() && r.begin < semicolons[0]) {
        init = convert_stmt(k);
      } else if (semicolons.size() == 2 && r.valid() && r.begin < semicolons[1]) {
        cond = convert_expr(k);
      } else if (semicolons.size() == 2 && r.valid() && r.begin < header_end) {
        inc = convert_expr(k);
      } else {
        body = convert_stmt(k);
      }
    }
    s.exprs = {std::move(cond), std::move(inc)};
    s.body.push_back(std::move(init));
    s.body.push_back(std::move(body));
  }

  CExpr convert_expr(CXCursor c) {
    const CXCursorKind kind = clang_getCursorKind(c);
    std::vector<CXCursor> kids = children(c);
    if (kind == CXCursor_ParenExpr || (kind == CXCursor_UnexposedExpr && kids.size() == 1)) {
      return convert_expr(kids.front());  // parentheses and implicit conversions
    }
    CExpr e = typed_expr(c);
    switch (kind) {
      case CXCursor_IntegerLiteral:
      case CXCursor_CharacterLiteral:
      case CXCursor_UnaryExpr:  // sizeof/alignof: a constant when it evaluates to one
        read_int_constant(c, e);
        break;
      case CXCursor_FloatingLiteral: e.kind = CExprKind::kFloatLiteral; break;
      case CXCursor_StringLiteral:
        e.kind = CExprKind::kStringLiteral;
        e.text = take(clang_getCursorSpelling(c));
        break;
      case CXCursor_DeclRefExpr:
        e.kind = CExprKind::kName;
        e.text = take(clang_getCursorSpelling(c));
        e.decl = local_variable_id(c, e.text);
        break;
      case CXCursor_CallExpr: {
        e.kind = CExprKind::kCall;
        e.text = take(clang_getCursorSpelling(c));
        const int n = clang_Cursor_getNumArguments(c);
        for (int i = 0; i < n; ++i)
          e.args.push_back(convert_expr(clang_Cursor_getArgument(c, static_cast<unsigned>(i))));
        break;
      }
      case CXCursor_BinaryOperator:
      case CXCursor_CompoundAssignOperator:
      case CXCursor_UnaryOperator: convert_operator(kind, kids, e); break;
      case CXCursor_CStyleCastExpr:
        e.kind = CExprKind::kCast;
        convert_operands(kids, e);
        if (e.args.size() > 1) e.args.erase(e.args.begin(), e.args.end() - 1);
        break;
      case CXCursor_ArraySubscriptExpr:
        e.kind = CExprKind::kSubscript;
        convert_operands(kids, e);
        break;
      case CXCursor_ConditionalOperator:
        e.kind = CExprKind::kConditional;
        convert_operands(kids, e);
        break;
      case CXCursor_MemberRefExpr:
        e.kind = CExprKind::kMember;
        e.text = take(clang_getCursorSpelling(c));
        convert_operands(kids, e);
        break;
      case CXCursor_InitListExpr:
        // Inside functions (struct arguments of external operators, e.g. CMSIS-NN's
        // `cmsis_nn_context ctx = {buffer, 108};`); file-scope data is never converted.
        if (fn_ && kids.size() <= kMaxConvertedInitElements) {
          e.text = "{}";
          convert_operands(kids, e);
        }
        break;
      default: convert_operands(kids, e); break;
    }
    return e;
  }

  // An expression's place and type, before its kind is known.
  CExpr typed_expr(CXCursor c) {
    CExpr e;
    e.range = range_of(c);
    const CXType type = clang_getCursorType(c);
    e.type = take(clang_getTypeSpelling(type));
    e.type_bytes = size_of(type);
    if (const CXType canonical = clang_getCanonicalType(type); canonical.kind == CXType_Pointer)
      e.pointee_bytes = size_of(clang_getPointeeType(canonical));
    return e;
  }

  void convert_operands(const std::vector<CXCursor>& kids, CExpr& e) {
    for (CXCursor k : kids) {
      if (clang_isExpression(clang_getCursorKind(k))) e.args.push_back(convert_expr(k));
    }
  }

  static void read_int_constant(CXCursor c, CExpr& e) {
    CXEvalResult r = clang_Cursor_Evaluate(c);
    if (r && clang_EvalResult_getKind(r) == CXEval_Int) {
      e.kind = CExprKind::kIntLiteral;
      e.value = clang_EvalResult_isUnsignedInt(r) ? static_cast<int64_t>(clang_EvalResult_getAsUnsigned(r))
                                                  : clang_EvalResult_getAsLongLong(r);
    }
    if (r) clang_EvalResult_dispose(r);
  }

  // The id of the function's variable or parameter a name refers to, -1 for anything else.
  int local_variable_id(CXCursor ref, const std::string& name) {
    const CXCursor decl = clang_getCursorReferenced(ref);
    const CXCursorKind dk = clang_getCursorKind(decl);
    if (dk != CXCursor_VarDecl && dk != CXCursor_ParmDecl) return -1;
    CXFile file = nullptr;
    unsigned offset = 0;
    clang_getFileLocation(clang_getCursorLocation(decl), &file, nullptr, nullptr, &offset);
    const auto it = var_ids_.find(offset);
    if (file && clang_File_isEqual(file, main_file_) && it != var_ids_.end() &&
        fn_->variables[static_cast<size_t>(it->second)].name == name) {
      return it->second;
    }
    return -1;
  }

  // A binary or unary operator: its operands, and its spelling read from the tokens between them.
  void convert_operator(CXCursorKind kind, const std::vector<CXCursor>& kids, CExpr& e) {
    convert_operands(kids, e);
    if (kind != CXCursor_UnaryOperator) {
      e.kind = CExprKind::kBinary;
      if (e.args.size() == 2) e.text = operator_between(e.args[0].range.end, e.args[1].range.begin, false);
      return;
    }
    e.kind = CExprKind::kUnary;
    if (e.args.size() == 1) {
      const CRange& operand = e.args[0].range;
      e.postfix = operand.valid() && operand.begin <= e.range.begin;
      e.text = e.postfix ? operator_between(operand.end, e.range.end, true)
                         : operator_between(e.range.begin, operand.valid() ? operand.begin : e.range.end, false);
    }
  }

  CXTranslationUnit tu_;
  int file_index_;
  CProgram& program_;
  CXFile main_file_ = nullptr;
  CFunction* fn_ = nullptr;
  std::unordered_map<unsigned, int> var_ids_;  // declaration offset -> variable id
  std::vector<Token> tokens_;                  // of the function being converted
};

}  // namespace

std::string take_cx_string(CXString s) {
  const char* c = clang_getCString(s);
  std::string out = c ? c : "";
  clang_disposeString(s);
  return out;
}

void convert_translation_unit(CXTranslationUnit tu, int file_index, const std::string& virtual_path, bool macros,
                              CProgram& program) {
  TuConverter(tu, file_index, virtual_path, program).convert(macros);
}

}  // namespace usmpx
