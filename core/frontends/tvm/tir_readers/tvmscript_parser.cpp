#include "frontends/tvm/tir_readers/tvmscript_parser.h"

#include "base/input_error.h"
#include "frontends/tvm/tir_readers/tvmscript_reader.h"

namespace usmpx {
namespace {

// The dotted name after '@': "T.prim_func", "tvm.script.ir_module".

}  // namespace

const ScriptValue* ScriptArgs::get(size_t position, std::string_view keyword) const {
  for (const auto& [name, value] : keywords) {
    if (name == keyword) return &value;
  }
  return position < positional.size() ? &positional[position] : nullptr;
}

const ScriptValue& ScriptArgs::required(size_t position, std::string_view keyword, const std::string& builtin,
                                        const SourceLocation& at) const {
  const ScriptValue* v = get(position, keyword);
  if (!v) throw InputError(at, "T." + builtin + " needs the argument '" + std::string(keyword) + "'");
  return *v;
}

const TvmScriptParser::Binding* TvmScriptParser::lookup(const std::string& name) const {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    const auto found = it->find(name);
    if (found != it->end()) return &found->second;
  }
  return nullptr;
}

tir::Module TvmScriptParser::parse() {
  tir::Module module;
  push_scope();
  while (peek().kind != TirTokenKind::kEnd) {
    const TirToken& t = peek();
    if (t.kind == TirTokenKind::kNewline) {
      take();
    } else if (t.is_op("@")) {
      parse_decorated(module);
    } else {
      skip_statement();
    }
  }
  if (module.functions.empty()) {
    fail({lexer_.file(), 1, 1},
         "no @T.prim_func function found (expected TVMScript with @I.ir_module or @T.prim_func)");
  }
  return module;
}

void TvmScriptParser::skip_statement() {
  // Skips one logical line and, when it opens a block, the whole block.
  int depth = 0;
  while (true) {
    const TirToken t = take();
    if (t.kind == TirTokenKind::kEnd) return;
    if (t.kind == TirTokenKind::kIndent) ++depth;
    if (t.kind == TirTokenKind::kDedent && --depth <= 0) return;
    if (t.kind == TirTokenKind::kNewline && depth == 0 && peek().kind != TirTokenKind::kIndent) return;
  }
}

void TvmScriptParser::parse_decorated(tir::Module& module) {
  bool prim_func = false;
  bool ir_module = false;
  while (accept_op("@")) {
    std::string path = expect_name("a decorator name").text;
    while (accept_op("."))
      path += "." + expect_name("a name after '.'").text;
    prim_func = prim_func || path.ends_with("prim_func");
    ir_module = ir_module || path.ends_with("ir_module");
    if (peek().is_op("(")) parse_call_args();  // @T.prim_func(private=True)
    if (peek().kind != TirTokenKind::kNewline) expected("end of line after the decorator", peek());
    take();
  }
  if (peek().is_name("class")) {
    if (ir_module) {
      parse_class(module);
    } else {
      skip_statement();
    }
  } else if (peek().is_name("def")) {
    if (prim_func) {
      add_function(module, parse_function());
    } else {
      skip_statement();
    }
  } else {
    expected("'def' or 'class' after decorators", peek());
  }
}

void TvmScriptParser::parse_class(tir::Module& module) {
  take();  // class
  expect_name("a class name");
  if (peek().is_op("(")) parse_call_args();
  expect_op(":", "after the class name");
  if (peek().kind != TirTokenKind::kNewline) expected("end of line after 'class ...:'", peek());
  take();
  if (peek().kind != TirTokenKind::kIndent) expected("an indented class body", peek());
  take();
  while (peek().kind != TirTokenKind::kDedent && peek().kind != TirTokenKind::kEnd) {
    if (peek().kind == TirTokenKind::kNewline) {
      take();
    } else if (peek().is_op("@")) {
      parse_decorated(module);
    } else if (peek().is_name("I") || peek().is_name("ir")) {
      // I.module_attrs({...})
      const ScriptValue v = parse_value();
      if (v.kind == ScriptValue::Kind::kCall && v.path.ends_with("module_attrs") && !v.items.empty()) {
        module.attrs = to_attrs(v.items.front(), "module attributes");
      }
      end_statement();
    } else {
      skip_statement();
    }
  }
  if (peek().kind == TirTokenKind::kDedent) take();
}

void TvmScriptParser::add_function(tir::Module& module, tir::PrimFunc function) {
  if (module.find(function.name)) fail(function.location, "duplicate function '" + function.name + "'");
  module.functions.push_back(std::move(function));
}

tir::PrimFunc TvmScriptParser::parse_function() {
  tir::PrimFunc f;
  f.location = here();
  take();  // def
  f.name = expect_name("a function name").text;
  function_ = &f;
  push_scope();
  expect_op("(", "after the function name");
  while (!peek().is_op(")")) {
    parse_parameter(f);
    if (!accept_op(",")) break;
  }
  expect_op(")", "after the parameters");
  if (accept_op("->")) {
    const ScriptValue ret = parse_value();
    f.ret_type = ret.kind == ScriptValue::Kind::kNone ? tir::DataType::void_() : type_of_annotation(ret).type;
  }
  expect_op(":", "after the function signature");
  f.body = parse_block(f.location);
  pop_scope();
  function_ = nullptr;
  check_depth(f);
  return f;
}

void TvmScriptParser::parse_parameter(tir::PrimFunc& f) {
  const TirToken name = expect_name("a parameter name");
  const SourceLocation at = loc(name);
  expect_op(":", "and a type after parameter '" + name.text + "'");
  ScriptValue annotation = parse_value();
  auto var = std::make_shared<tir::Var>();
  var->name = name.text;
  var->location = at;
  if (annotation.kind == ScriptValue::Kind::kBuffer) {
    // `A: T.Buffer((n,), "int8")`: a handle parameter bound to a buffer of the same name.
    var->dtype = tir::DataType::handle();
    annotation.buffer->name = name.text;
    if (annotation.fresh_var) annotation.buffer->data->name = name.text;
    f.buffer_map.push_back({var, annotation.buffer});
    bind(name.text, Binding{nullptr, annotation.buffer});
  } else {
    const ScriptValue type = type_of_annotation(annotation);
    var->dtype = type.type;
    var->pointee = type.pointee;
    var->storage_scope = type.scope;
    bind(name.text, Binding{var, nullptr});
  }
  f.params.push_back(var);
}

tir::Module read_tvmscript(std::string_view text, const std::string& file) {
  return TvmScriptParser(text, file).parse();
}

bool looks_like_tvmscript(std::string_view text) {
  for (std::string_view marker : {"@I.ir_module", "@tvm.script.ir_module", "@T.prim_func", "@ir_module"}) {
    if (text.find(marker) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace usmpx
