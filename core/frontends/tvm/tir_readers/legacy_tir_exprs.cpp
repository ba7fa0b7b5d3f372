#include <limits>

#include "frontends/tvm/tir/make.h"
#include "frontends/tvm/tir_readers/legacy_tir_parser.h"

namespace usmpx {

using tir::BinaryOp;
using tir::DataType;
using tir::ExprRef;

namespace {

bool is_type_start(const TirToken& t) {
  return t.is_op("(") || (t.kind == TirTokenKind::kName && (t.text == "Pointer" || DataType::parse(t.text)));
}

}  // namespace

tir::VarRef LegacyTirParser::parse_var() {
  // The printer writes `name: Type` at a variable's first occurrence and `name` afterwards.
  const TirToken name = expect_name("a variable name");
  if (peek().is_op(":") && is_type_start(peek(1))) return declare_var(name);
  const auto it = names_.find(name.text);
  if (it == names_.end() || !it->second.var) fail(loc(name), "undefined variable '" + name.text + "'");
  return it->second.var;
}

tir::VarRef LegacyTirParser::declare_var(const TirToken& name) {
  take();
  auto var = std::make_shared<tir::Var>();
  var->name = name.text;
  var->location = loc(name);
  const Type t = parse_type();
  var->dtype = t.dtype;
  var->pointee = t.pointee;
  var->storage_scope = t.scope;
  names_[name.text] = Binding{var, nullptr};
  return var;
}

LegacyTirParser::Type LegacyTirParser::parse_type() {
  Type t;
  if (accept_op("(")) {
    // A tuple type; "()" is the return type of functions returning nothing.
    int depth = 1;
    while (depth > 0) {
      const TirToken tok = take();
      if (tok.kind == TirTokenKind::kEnd) expected("')' to close the type", tok);
      if (tok.is_op("(")) ++depth;
      if (tok.is_op(")")) --depth;
    }
    t.dtype = DataType::void_();
    return t;
  }
  const TirToken name = expect_name("a type");
  if (name.text == "Pointer") {
    expect_op("(", "after 'Pointer'");
    t.dtype = DataType::handle();
    if (peek().is_name("Pointer")) {
      parse_type();
      t.pointee = DataType::handle();
    } else {
      TirToken first = expect_name("a storage scope or dtype");
      if (peek().kind == TirTokenKind::kName) {
        t.scope = first.text;
        first = take();
      }
      t.pointee = dtype_from(loc(first), first.text);
    }
    expect_op(")", "to close the pointer type");
    return t;
  }
  t.dtype = dtype_from(loc(name), name.text);
  return t;
}

DataType LegacyTirParser::parse_dtype_name() {
  const TirToken name = expect_name("a dtype");
  return dtype_from(loc(name), name.text);
}

std::shared_ptr<tir::Buffer> LegacyTirParser::parse_buffer_decl(const TirToken& name) {
  // name: Buffer(data[: Pointer(...)], dtype, [shape], [strides][, elem_offset=e][, scope="s"]
  //              [, align=N][, offset_factor=N][, type="auto"][, axis_separators=[...]])
  if (!peek().is_name("Buffer")) expected("'Buffer'", peek());
  take();
  expect_op("(", "after 'Buffer'");
  auto buffer = std::make_shared<tir::Buffer>();
  buffer->name = name.text;
  buffer->location = loc(name);
  buffer->data = parse_var();
  expect_op(",", "after the buffer's data variable");
  buffer->dtype = parse_dtype_name();
  expect_op(",", "after the buffer's dtype");
  expect_op("[", "to open the buffer's shape");
  buffer->shape = parse_expr_list("]");
  bool more = accept_op(",");
  if (more && accept_op("[")) {
    buffer->strides = parse_expr_list("]");
    more = accept_op(",");
  }
  for (; more; more = accept_op(",")) {
    const TirToken key = expect_name("a buffer attribute");
    expect_op("=", "after '" + key.text + "'");
    if (key.text == "elem_offset") {
      buffer->elem_offset = parse_expr();
      if (tir::constant_int(buffer->elem_offset.get()) == 0) buffer->elem_offset = nullptr;
    } else if (key.text == "scope") {
      const TirToken s = take();
      if (s.kind != TirTokenKind::kString) expected("the scope string", s);
      buffer->scope = s.text;
    } else if (key.text == "align" || key.text == "offset_factor") {
      const TirToken v = take();
      if (v.kind != TirTokenKind::kInt) expected("an integer", v);
      (key.text == "align" ? buffer->data_alignment : buffer->offset_factor) = v.int_value;
    } else {
      parse_attr_value();  // type="auto", axis_separators=[...]
    }
  }
  expect_op(")", "to close the buffer");
  if (!buffer->data->pointee) buffer->data->pointee = buffer->dtype;
  names_[name.text] = Binding{nullptr, buffer};
  return buffer;
}

ExprRef LegacyTirParser::parse_expr() {
  NestingGuard guard(*this, here());
  return parse_binary(0);
}

ExprRef LegacyTirParser::parse_binary(int level) {
  static const std::vector<std::vector<std::pair<const char*, BinaryOp>>> kLevels = {
      {{"||", BinaryOp::kOr}},
      {{"&&", BinaryOp::kAnd}},
      {{"==", BinaryOp::kEq}, {"!=", BinaryOp::kNe}},
      {{"<", BinaryOp::kLt}, {"<=", BinaryOp::kLe}, {">", BinaryOp::kGt}, {">=", BinaryOp::kGe}},
      {{"+", BinaryOp::kAdd}, {"-", BinaryOp::kSub}},
      {{"*", BinaryOp::kMul}, {"/", BinaryOp::kDiv}, {"%", BinaryOp::kMod}}};
  if (level >= static_cast<int>(kLevels.size())) return parse_unary();
  ExprRef left = parse_binary(level + 1);
  while (true) {
    const BinaryOp* op = nullptr;
    for (const auto& [text, binary] : kLevels[static_cast<size_t>(level)]) {
      if (peek().is_op(text) && continues(peek())) op = &binary;
    }
    if (!op) return left;
    const SourceLocation at = loc(take());
    left = tir::make_binary(*op, left, parse_binary(level + 1), at);
  }
}

ExprRef LegacyTirParser::parse_unary() {
  if (peek().is_op("!") || peek().is_op("-")) {
    const TirToken op = take();
    const SourceLocation at = loc(op);
    NestingGuard guard(*this, at);
    const ExprRef e = parse_unary();
    if (op.text == "!") return tir::make_not(e, at);
    if (const auto* i = e->as<tir::IntImm>()) return tir::make_int(-i->value, e->dtype, at);
    if (const auto* f = e->as<tir::FloatImm>()) return tir::make_float(-f->value, e->dtype, at);
    const ExprRef zero = e->dtype.is_float() ? tir::make_float(0, e->dtype, at) : tir::make_int(0, e->dtype, at);
    return tir::make_binary(BinaryOp::kSub, zero, e, at);
  }
  return parse_primary();
}

ExprRef LegacyTirParser::parse_primary() {
  const TirToken t = take();
  const SourceLocation at = loc(t);
  switch (t.kind) {
    case TirTokenKind::kInt: {
      DataType dtype = t.suffix.value_or(DataType::int_(32));
      if (!t.suffix && t.int_value > std::numeric_limits<int32_t>::max()) dtype = DataType::int_(64);
      return tir::make_int(t.int_value, dtype, at);
    }
    case TirTokenKind::kFloat: return tir::make_float(t.float_value, t.suffix.value_or(DataType::float_(32)), at);
    case TirTokenKind::kString: return tir::make_string(t.text, at);
    case TirTokenKind::kOp:
      if (t.text == "(") {
        if (peek().is_name("nullptr") && peek(1).is_op(")")) {
          take();
          take();
          auto n = std::make_shared<tir::Opaque>();
          n->text = "(nullptr)";
          n->dtype = DataType::handle();
          n->location = at;
          return n;
        }
        ExprRef e = parse_expr();
        expect_op(")", "to close the parenthesis");
        return e;
      }
      if (t.text == "@") return parse_call(at);
      break;
    case TirTokenKind::kName: return parse_name_use(t);
    default: break;
  }
  expected("an expression", t);
}

ExprRef LegacyTirParser::parse_name_use(const TirToken& t) {
  const SourceLocation at = loc(t);
  const std::string& name = t.text;
  if (name == "True" || name == "False") return tir::make_int(name == "True", DataType::boolean(), at);
  if (peek().is_op(":") && peek(1).is_name("Buffer")) {
    // A buffer printed in full at its first use: name: Buffer(...)[indices]
    take();
    const std::shared_ptr<tir::Buffer> buffer = parse_buffer_decl(t);
    expect_op("[", "after the buffer declaration");
    return tir::make_load(buffer, parse_expr_list("]"), at);
  }
  // A variable printed with its type at its first occurrence.
  if (peek().is_op(":") && is_type_start(peek(1))) return tir::make_var_use(declare_var(t), at);
  if (peek().is_op("(") && continues(peek())) {
    if (ExprRef e = parse_builtin_op(name, at)) return e;
  }
  return parse_bound_name(name, at);
}

ExprRef LegacyTirParser::parse_builtin_op(const std::string& name, const SourceLocation& at) {
  const auto binary = [&](BinaryOp op) {
    take();
    NestingGuard guard(*this, at);
    const ExprRef a = parse_expr();
    expect_op(",", "between the operands");
    const ExprRef b = parse_expr();
    expect_op(")", "to close " + name);
    return tir::make_binary(op, a, b, at);
  };
  if (name == "floordiv") return binary(BinaryOp::kFloorDiv);
  if (name == "floormod") return binary(BinaryOp::kFloorMod);
  if (name == "min") return binary(BinaryOp::kMin);
  if (name == "max") return binary(BinaryOp::kMax);
  if (name == "cast") {
    take();
    NestingGuard guard(*this, at);
    const DataType dtype = parse_dtype_name();
    expect_op(",", "after the cast dtype");
    const ExprRef value = parse_expr();
    expect_op(")", "to close cast");
    return tir::make_cast(dtype, value, at);
  }
  if (name == "select" || name == "ramp" || name == "broadcast") {
    take();
    NestingGuard guard(*this, at);
    return make_select_or_vector(name, parse_expr_list(")"), at);
  }
  return nullptr;
}

ExprRef LegacyTirParser::make_select_or_vector(const std::string& name, const std::vector<ExprRef>& args,
                                               const SourceLocation& at) const {
  const size_t arity = name == "broadcast" ? 2 : 3;
  if (args.size() != arity) fail(at, name + " takes " + std::to_string(arity) + " arguments");
  if (name == "select") {
    auto n = std::make_shared<tir::Select>();
    n->condition = args[0];
    n->true_value = args[1];
    n->false_value = args[2];
    n->dtype = args[1]->dtype;
    n->location = at;
    return n;
  }
  const auto lanes = tir::constant_int(args.back().get());
  if (!lanes || *lanes < 1 || *lanes > 1024) fail(args.back()->location, "expected a constant number of lanes");
  if (name == "ramp") {
    auto n = std::make_shared<tir::Ramp>();
    n->base = args[0];
    n->stride = args[1];
    n->lanes = static_cast<int>(*lanes);
    n->dtype = args[0]->dtype.with_lanes(n->lanes);
    n->location = at;
    return n;
  }
  auto n = std::make_shared<tir::Broadcast>();
  n->value = args[0];
  n->lanes = static_cast<int>(*lanes);
  n->dtype = args[0]->dtype.with_lanes(n->lanes);
  n->location = at;
  return n;
}

ExprRef LegacyTirParser::parse_bound_name(const std::string& name, const SourceLocation& at) {
  const auto it = names_.find(name);
  if (it == names_.end()) {
    if ((name == "meta" || name == "metadata") && peek().is_op("[")) {
      take();
      auto n = std::make_shared<tir::Opaque>();
      n->text = name + "[" + capture_raw() + "]";
      expect_op("]", "to close the metadata reference");
      n->dtype = DataType::handle();
      n->location = at;
      return n;
    }
    fail(at, "undefined name '" + name + "'");
  }
  if (it->second.buffer) {
    const std::shared_ptr<tir::Buffer> buffer = it->second.buffer;
    expect_op("[", "after buffer '" + name + "'");
    return tir::make_load(buffer, parse_expr_list("]"), at);
  }
  const tir::VarRef var = it->second.var;
  if (peek().is_op("[") && continues(peek()) && var->dtype.is_handle()) {
    // Older printers index the pointer itself (Load/Store on a variable).
    take();
    return tir::make_load(buffer_for_var(var, var->pointee.value_or(DataType::int_(8))), parse_expr_list("]"), at);
  }
  return tir::make_var_use(var, at);
}

ExprRef LegacyTirParser::parse_call(const SourceLocation& at) {
  // @tir.call_extern("f", a, b, dtype=int32), @tir.if_then_else(c, a, b, dtype=int16), @f(..., dtype=...)
  const TirToken name = expect_name("a function name after '@'");
  expect_op("(", "after the called name");
  NestingGuard guard(*this, at);
  std::vector<ExprRef> args;
  DataType dtype = DataType::int_(32);
  while (!peek().is_op(")")) {
    if (peek().kind == TirTokenKind::kName && peek(1).is_op("=")) {
      const TirToken key = take();
      take();
      if (key.text == "dtype") {
        dtype = parse_dtype_name();
      } else {
        parse_attr_value();
      }
    } else {
      args.push_back(parse_expr());
    }
    if (!accept_op(",")) break;
  }
  expect_op(")", "to close the call");
  const bool builtin = name.text.rfind("tir.", 0) == 0;
  return tir::make_call(builtin ? name.text.substr(4) : name.text, std::move(args), dtype, at, !builtin);
}

std::vector<ExprRef> LegacyTirParser::parse_expr_list(std::string_view close) {
  std::vector<ExprRef> items;
  while (!peek().is_op(close)) {
    items.push_back(parse_expr());
    if (!accept_op(",")) break;
  }
  expect_op(close, "to close the list");
  return items;
}

tir::Attrs LegacyTirParser::parse_attr_dict() {
  const SourceLocation at = loc(expect_op("{", "to open the dict"));
  NestingGuard guard(*this, at);
  tir::Attrs attrs;
  while (!peek().is_op("}")) {
    const TirToken key = take();
    if (key.kind != TirTokenKind::kString) expected("a quoted key", key);
    expect_op(":", "after the key");
    attrs.emplace_back(key.text, parse_attr_value());
    if (!accept_op(",")) break;
  }
  expect_op("}", "to close the dict");
  return attrs;
}

tir::AttrValue LegacyTirParser::parse_attr_value() {
  using AK = tir::AttrValue::Kind;
  tir::AttrValue v;
  const TirToken& t = peek();
  v.location = loc(t);
  const bool negative = t.is_op("-") && (peek(1).kind == TirTokenKind::kInt || peek(1).kind == TirTokenKind::kFloat);
  if (negative) take();
  const TirToken& n = peek();
  if (n.kind == TirTokenKind::kString && !negative) {
    v.kind = AK::kString;
    v.text = take().text;
  } else if (n.kind == TirTokenKind::kInt) {
    v.kind = AK::kInt;
    v.int_value = negative ? -take().int_value : take().int_value;
  } else if (n.kind == TirTokenKind::kFloat) {
    v.kind = AK::kFloat;
    v.float_value = negative ? -take().float_value : take().float_value;
  } else if ((n.is_name("True") || n.is_name("False")) && !negative) {
    v.kind = AK::kBool;
    v.bool_value = take().text == "True";
  } else if (n.is_op("{") && !negative) {
    v.kind = AK::kDict;
    v.entries = parse_attr_dict();
  } else if (n.is_op("[") && !negative) {
    take();
    NestingGuard guard(*this, v.location);
    v.kind = AK::kList;
    while (!peek().is_op("]")) {
      v.items.push_back(parse_attr_value());
      if (!accept_op(",")) break;
    }
    expect_op("]", "to close the list");
  } else {
    // Targets print their debug string, pools and executors a meta reference: keep the text.
    v.kind = AK::kRaw;
    v.text = capture_raw();
  }
  return v;
}

std::string LegacyTirParser::capture_raw() {
  std::string text;
  int depth = 0;
  bool previous_word = false;
  while (true) {
    const TirToken& t = peek();
    if (t.kind == TirTokenKind::kEnd) expected("the end of the value", t);
    if (depth == 0 && (t.is_op(",") || t.is_op("}") || t.is_op(")") || t.is_op("]"))) break;
    const TirToken tok = take();
    if (tok.is_op("(") || tok.is_op("[") || tok.is_op("{")) ++depth;
    if (tok.is_op(")") || tok.is_op("]") || tok.is_op("}")) --depth;
    if (depth > kMaxNesting) fail(loc(tok), "nesting deeper than " + std::to_string(kMaxNesting) + " levels");
    const bool word =
        tok.kind == TirTokenKind::kName || tok.kind == TirTokenKind::kInt || tok.kind == TirTokenKind::kFloat;
    if (word && previous_word) text += ' ';
    text += tok.kind == TirTokenKind::kString ? "'" + tok.text + "'" : tok.text;
    previous_word = word;
  }
  return text;
}

tir::BufferRef LegacyTirParser::buffer_for_var(const tir::VarRef& var, DataType element) {
  auto& slot = var_buffers_[var.get()];
  if (!slot) {
    auto buffer = std::make_shared<tir::Buffer>();
    buffer->name = var->name;
    buffer->data = var;
    buffer->dtype = element;
    buffer->location = var->location;
    slot = buffer;
  }
  return slot;
}

}  // namespace usmpx
