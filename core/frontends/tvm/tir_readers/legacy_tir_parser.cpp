#include "frontends/tvm/tir_readers/legacy_tir_parser.h"

#include "frontends/tvm/tir/make.h"
#include "frontends/tvm/tir/printer.h"
#include "frontends/tvm/tir_readers/legacy_tir_reader.h"

namespace usmpx {

using tir::StmtRef;

tir::Module LegacyTirParser::parse() {
  tir::Module module;
  while (peek().kind != TirTokenKind::kEnd) {
    const SourceLocation at = here();
    std::string name;
    if (accept_op("@")) {
      name = expect_name("a function name after '@'").text;
      expect_op("=", "after the function name");
    } else if (peek().kind == TirTokenKind::kName && peek(1).is_op("=")) {
      name = take().text;
      take();
    }
    if (!peek().is_name("primfn")) expected("'primfn'", peek());
    tir::PrimFunc f = parse_function(std::move(name), at);
    if (module.find(f.name)) fail(f.location, "duplicate function '" + f.name + "'");
    module.functions.push_back(std::move(f));
  }
  if (module.functions.empty()) fail({lexer_.file(), 1, 1}, "no primfn function found");
  return module;
}

tir::PrimFunc LegacyTirParser::parse_function(std::string name, const SourceLocation& at) {
  names_.clear();
  var_buffers_.clear();
  params_.clear();
  tir::PrimFunc f;
  f.location = at;
  take();  // primfn
  expect_op("(", "after 'primfn'");
  while (!peek().is_op(")")) {
    f.params.push_back(parse_var());
    if (!accept_op(",")) break;
  }
  expect_op(")", "after the parameters");
  params_ = f.params;
  expect_op("->", "after the parameters");
  const Type ret = parse_type();
  f.ret_type = ret.dtype;
  while (!peek().is_op("{")) {
    const TirToken section = expect_name("'attr', 'buffers', 'buffer_map' or the body '{'");
    expect_op("=", "after '" + section.text + "'");
    if (section.text == "attr") {
      f.attrs = parse_attr_dict();
    } else if (section.text == "buffers") {
      parse_buffers_section();
    } else if (section.text == "buffer_map") {
      parse_buffer_map_section(f, true);
    } else if (section.text == "preflattened_buffer_map") {
      parse_buffer_map_section(f, false);
    } else {
      fail(loc(section), "unknown section '" + section.text + "'");
    }
  }
  const SourceLocation body_at = loc(take());
  f.body = parse_block_rest(body_at);
  f.name = !name.empty() ? name : f.global_symbol().value_or("");
  if (f.name.empty()) fail(at, "function without a name (no '@name =' prefix and no \"global_symbol\" attribute)");
  check_depth(f);
  return f;
}

void LegacyTirParser::parse_buffers_section() {
  // buffers = {name: Buffer(data: Pointer(int8), int8, [shape], [strides], ...), ...}
  expect_op("{", "to open the buffers");
  while (!peek().is_op("}")) {
    const TirToken name = expect_name("a buffer name");
    expect_op(":", "after the buffer name");
    parse_buffer_decl(name);
    if (!accept_op(",")) break;
  }
  expect_op("}", "to close the buffers");
}

void LegacyTirParser::parse_buffer_map_section(tir::PrimFunc& f, bool keep) {
  // buffer_map = {param: buffer, ...}; a parameter not printed before shows its type first
  // (`output1: handle: output1_buffer_var`), and a buffer not declared before is declared inline.
  expect_op("{", "to open the buffer map");
  while (!peek().is_op("}")) {
    const TirToken key = expect_name("a parameter name");
    tir::VarRef param;
    if (peek().is_op(":") && peek(1).kind == TirTokenKind::kName && peek(2).is_op(":")) {
      take();
      auto var = std::make_shared<tir::Var>();
      var->name = key.text;
      var->location = loc(key);
      const Type t = parse_type();
      var->dtype = t.dtype;
      var->pointee = t.pointee;
      names_[key.text] = Binding{var, nullptr};
      param = var;
    } else {
      const auto it = names_.find(key.text);
      if (it == names_.end() || !it->second.var) fail(loc(key), "undefined parameter '" + key.text + "'");
      param = it->second.var;
    }
    expect_op(":", "between the parameter and its buffer");
    const TirToken buffer_name = expect_name("a buffer name");
    std::shared_ptr<tir::Buffer> buffer;
    if (peek().is_op(":")) {
      take();
      buffer = parse_buffer_decl(buffer_name);
    } else {
      const auto it = names_.find(buffer_name.text);
      if (it == names_.end() || !it->second.buffer)
        fail(loc(buffer_name), "undefined buffer '" + buffer_name.text + "'");
      buffer = it->second.buffer;
    }
    if (keep) f.buffer_map.push_back({param, buffer});
    if (!accept_op(",")) break;
  }
  expect_op("}", "to close the buffer map");
}

StmtRef LegacyTirParser::parse_block_rest(const SourceLocation& at) {
  NestingGuard guard(*this, at);
  std::vector<StmtRef> stmts;
  while (!peek().is_op("}")) {
    if (peek().kind == TirTokenKind::kEnd)
      expected("'}' to close the block opened at line " + std::to_string(at.line), peek());
    stmts.push_back(parse_statement());
  }
  take();
  return tir::make_seq(std::move(stmts), at);
}

StmtRef LegacyTirParser::parse_statement() {
  // Headers (allocate, constant, attr, let, decl_buffer, assert) enclose either a braced block
  // or, after ';' (or directly for let/assert), the single next statement. Chains of headers
  // are collected in a loop and nested afterwards, so long chains do not recurse.
  std::vector<std::pair<std::shared_ptr<tir::Stmt>, StmtRef*>> chain;
  StmtRef body;
  while (true) {
    StmtRef* slot = nullptr;
    bool needs_semicolon = false;
    std::shared_ptr<tir::Stmt> header = parse_header(slot, needs_semicolon);
    if (!header) {
      body = parse_simple();
      break;
    }
    if (peek().is_op("{")) {
      const SourceLocation at = loc(take());
      *slot = parse_block_rest(at);
      body = header;
      break;
    }
    if (needs_semicolon) expect_op(";", "or '{' after the statement header");
    chain.emplace_back(std::move(header), slot);
  }
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    *it->second = body;
    body = it->first;
  }
  return body;
}

std::shared_ptr<tir::Stmt> LegacyTirParser::parse_header(StmtRef*& body, bool& needs_semicolon) {
  const TirToken& t = peek();
  if (t.is_name("allocate") && peek(1).is_op("(")) {
    needs_semicolon = true;
    return parse_allocate(body);
  }
  if (t.is_name("constant") && peek(1).is_op("(")) {
    needs_semicolon = true;
    return parse_constant(body);
  }
  if (t.is_name("attr") && peek(1).is_op("[")) {
    needs_semicolon = true;
    return parse_attr(body);
  }
  if (t.is_name("let") && peek(1).kind == TirTokenKind::kName) return parse_let(body);
  if (t.is_name("assert") && peek(1).is_op("(")) return parse_assert(body);
  if (t.kind == TirTokenKind::kName && peek(1).is_op("=") && peek(2).is_name("decl_buffer")) {
    needs_semicolon = true;
    return parse_decl_buffer(body);
  }
  return nullptr;
}

std::shared_ptr<tir::Stmt> LegacyTirParser::parse_attr(StmtRef*& body) {
  // attr [node] "key" = value
  const SourceLocation at = here();
  take();
  take();
  auto n = std::make_shared<tir::AttrStmt>();
  n->location = at;
  if (peek().is_name("IterVar") && peek(1).is_op("(")) {
    // attr [IterVar(threadIdx.x: int32, (nullptr), "ThreadIndex", "threadIdx.x")] ...
    take();
    take();
    const tir::VarRef var = parse_var();
    n->node.kind = tir::AttrValue::Kind::kRaw;
    n->node.text = "IterVar(" + var->name + (peek().is_op(")") ? "" : ", " + capture_raw()) + ")";
    expect_op(")", "to close IterVar");
  } else {
    n->node.kind = tir::AttrValue::Kind::kExpr;
    n->node.expr = parse_expr();
    if (const auto* s = n->node.expr->as<tir::StringImm>()) {
      n->node.kind = tir::AttrValue::Kind::kString;
      n->node.text = s->value;
    }
  }
  n->node.location = at;
  expect_op("]", "after the attribute node");
  const TirToken key = take();
  if (key.kind != TirTokenKind::kString) expected("the attribute key string", key);
  n->key = key.text;
  expect_op("=", "after the attribute key");
  n->value = parse_expr();
  body = &n->body;
  return n;
}

std::shared_ptr<tir::Stmt> LegacyTirParser::parse_let(StmtRef*& body) {
  // let name: type = value
  auto n = std::make_shared<tir::LetStmt>();
  n->location = here();
  take();
  n->var = parse_var();
  expect_op("=", "after the let variable");
  n->value = parse_expr();
  if (!n->var->pointee && !n->var->dtype.is_handle()) n->var->dtype = n->value->dtype;
  body = &n->body;
  return n;
}

std::shared_ptr<tir::Stmt> LegacyTirParser::parse_assert(StmtRef*& body) {
  // assert(condition, message)
  auto n = std::make_shared<tir::AssertStmt>();
  n->location = here();
  take();
  take();
  n->condition = parse_expr();
  expect_op(",", "after the assert condition");
  n->message = parse_expr();
  expect_op(")", "to close assert");
  body = &n->body;
  return n;
}

std::shared_ptr<tir::Stmt> LegacyTirParser::parse_decl_buffer(StmtRef*& body) {
  // name = decl_buffer(data, dtype, [shape])
  auto n = std::make_shared<tir::DeclBuffer>();
  n->location = here();
  const TirToken name = take();
  take();
  take();
  expect_op("(", "after decl_buffer");
  auto buffer = std::make_shared<tir::Buffer>();
  buffer->name = name.text;
  buffer->location = loc(name);
  buffer->data = parse_var();
  expect_op(",", "after the data variable");
  buffer->dtype = parse_dtype_name();
  expect_op(",", "after the dtype");
  expect_op("[", "to open the shape");
  buffer->shape = parse_expr_list("]");
  expect_op(")", "to close decl_buffer");
  names_[name.text] = Binding{nullptr, buffer};
  n->buffer = buffer;
  body = &n->body;
  return n;
}

std::shared_ptr<tir::Stmt> LegacyTirParser::parse_allocate(StmtRef*& body) {
  // allocate(var: Pointer(global int8), int8, [n]), storage_scope = global[, annotations = {...})][ if cond]
  auto n = std::make_shared<tir::Allocate>();
  n->location = here();
  take();
  take();
  n->var = parse_var();
  expect_op(",", "after the allocated variable");
  n->dtype = parse_dtype_name();
  expect_op(",", "after the dtype");
  expect_op("[", "to open the extents");
  n->extents = parse_expr_list("]");
  expect_op(")", "to close allocate");
  n->scope = n->var->storage_scope.empty() ? "global" : n->var->storage_scope;
  if (!n->var->pointee) n->var->pointee = n->dtype;
  while (accept_op(",")) {
    const TirToken key = expect_name("'storage_scope' or 'annotations'");
    expect_op("=", "after '" + key.text + "'");
    if (key.text == "storage_scope") {
      n->scope = expect_name("a storage scope").text;
    } else if (key.text == "annotations") {
      n->annotations = parse_attr_dict();
      accept_op(")");  // the printer closes the annotations with an unmatched ')'
    } else {
      fail(loc(key), "unknown allocate attribute '" + key.text + "'");
    }
  }
  if (peek().is_name("if") && continues(peek())) {
    take();
    n->condition = parse_expr();
  }
  body = &n->body;
  return n;
}

std::shared_ptr<tir::Stmt> LegacyTirParser::parse_constant(StmtRef*& body) {
  // constant(var: Pointer(global int8), int8, [n]): the printer writes no data.
  auto n = std::make_shared<tir::AllocateConst>();
  n->location = here();
  take();
  take();
  n->var = parse_var();
  expect_op(",", "after the constant's variable");
  n->dtype = parse_dtype_name();
  expect_op(",", "after the dtype");
  expect_op("[", "to open the extents");
  n->extents = parse_expr_list("]");
  expect_op(")", "to close constant");
  if (!n->var->pointee) n->var->pointee = n->dtype;
  body = &n->body;
  return n;
}

StmtRef LegacyTirParser::parse_for() {
  // for (i: int32, min, min + extent) ["parallel"] { body }
  auto n = std::make_shared<tir::For>();
  n->location = loc(take());
  expect_op("(", "after 'for'");
  n->loop_var = parse_var();
  expect_op(",", "after the loop variable");
  n->min = parse_expr();
  expect_op(",", "after the loop start");
  const tir::ExprRef end = parse_expr();
  expect_op(")", "to close the loop header");
  const auto lo = tir::constant_int(n->min.get());
  const auto hi = tir::constant_int(end.get());
  const auto* add = end->as<tir::Binary>();
  if (lo && hi) {
    n->extent = tir::make_int(*hi - *lo, end->dtype, end->location);
  } else if (add && add->op == tir::BinaryOp::kAdd && tir::print_expr(*add->a) == tir::print_expr(*n->min)) {
    n->extent = add->b;
  } else {
    n->extent = tir::make_binary(tir::BinaryOp::kSub, end, n->min, end->location);
  }
  if (peek().kind == TirTokenKind::kString) {
    const TirToken kind = take();
    static const std::pair<const char*, tir::ForKind> kKinds[] = {{"serial", tir::ForKind::kSerial},
                                                                  {"parallel", tir::ForKind::kParallel},
                                                                  {"vectorized", tir::ForKind::kVectorized},
                                                                  {"unroll", tir::ForKind::kUnrolled},
                                                                  {"thread_binding", tir::ForKind::kThreadBinding}};
    bool known = false;
    for (const auto& [text, k] : kKinds) {
      if (kind.text == text) {
        n->loop_kind = k;
        known = true;
      }
    }
    if (!known) fail(loc(kind), "unknown loop kind \"" + kind.text + "\"");
  }
  const SourceLocation at = loc(expect_op("{", "to open the loop body"));
  n->body = parse_block_rest(at);
  return n;
}

StmtRef LegacyTirParser::parse_if() {
  auto n = std::make_shared<tir::IfThenElse>();
  n->location = loc(take());
  n->condition = parse_expr();
  SourceLocation at = loc(expect_op("{", "after the if condition"));
  n->then_case = parse_block_rest(at);
  if (accept_name("else")) {
    at = loc(expect_op("{", "after 'else'"));
    n->else_case = parse_block_rest(at);
  }
  return n;
}

StmtRef LegacyTirParser::parse_simple() {
  const TirToken& t = peek();
  const SourceLocation at = loc(t);
  if (t.is_name("for") && peek(1).is_op("(")) return parse_for();
  if (t.is_name("if") && !peek(1).is_op("=")) return parse_if();
  if (t.is_op("{")) {
    take();
    return parse_block_rest(at);
  }
  const tir::ExprRef e = parse_expr();
  if (peek().is_op("=") && continues(peek())) {
    take();
    const auto* load = e->as<tir::BufferLoad>();
    if (!load) fail(at, "only buffer elements can be assigned");
    auto store = std::make_shared<tir::BufferStore>();
    store->location = at;
    store->buffer = load->buffer;
    store->indices = load->indices;
    store->value = parse_expr();
    return store;
  }
  auto n = std::make_shared<tir::Evaluate>();
  n->location = at;
  n->value = e;
  return n;
}

tir::Module read_legacy_tir(std::string_view text, const std::string& file) {
  return LegacyTirParser(text, file).parse();
}

bool looks_like_legacy_tir(std::string_view text) {
  return text.find("primfn(") != std::string_view::npos;
}

}  // namespace usmpx
