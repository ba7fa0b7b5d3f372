#include <cstdlib>
#include <limits>

#include "frontends/tvm/tir/make.h"
#include "frontends/tvm/tir/printer.h"
#include "frontends/tvm/tir_readers/tvmscript_parser.h"

namespace usmpx {

using tir::BinaryOp;
using tir::DataType;
using tir::ExprRef;
using Kind = ScriptValue::Kind;

namespace {

// The builtin an attribute path names ("T.serial" -> "serial"), or "" when it is not under T.
std::string builtin_name(const std::string& path) {
  for (std::string_view prefix : {"tvm.script.tir.", "tvm.tir.", "tir.", "T."}) {
    if (path.starts_with(prefix)) return path.substr(prefix.size());
  }
  return path == "range" ? path : "";
}

bool is_namespace(const std::string& name) {
  return name == "T" || name == "I" || name == "tir" || name == "tvm" || name == "ir" || name == "range" ||
         name == "metadata";
}

std::optional<BinaryOp> binary_builtin(const std::string& name) {
  static const std::pair<const char*, BinaryOp> kTable[] = {
      {"min", BinaryOp::kMin},           {"max", BinaryOp::kMax},           {"Min", BinaryOp::kMin},
      {"Max", BinaryOp::kMax},           {"floordiv", BinaryOp::kFloorDiv}, {"floormod", BinaryOp::kFloorMod},
      {"FloorDiv", BinaryOp::kFloorDiv}, {"FloorMod", BinaryOp::kFloorMod}, {"truncdiv", BinaryOp::kDiv},
      {"truncmod", BinaryOp::kMod},      {"Div", BinaryOp::kDiv},           {"Mod", BinaryOp::kMod}};
  for (const auto& [n, op] : kTable) {
    if (name == n) return op;
  }
  return std::nullopt;
}

bool is_loop_iterator(const std::string& name) {
  return name == "serial" || name == "parallel" || name == "vectorized" || name == "unroll" || name == "grid" ||
         name == "thread_binding" || name == "range";
}

const tir::StringImm* string_imm(const ScriptValue& v) {
  return v.kind == Kind::kExpr ? v.expr->as<tir::StringImm>() : nullptr;
}

// A call kept as written, for attribute values and loop iterators.
ScriptValue kept_call(const std::string& path, const ScriptArgs& args, const SourceLocation& at) {
  ScriptValue v;
  v.kind = Kind::kCall;
  v.location = at;
  v.path = path;
  v.items = args.positional;
  v.keywords = args.keywords;
  return v;
}

// The type of an intrinsic call that does not state it.
DataType result_type(const std::string& name, const std::vector<ExprRef>& args) {
  if (name == "address_of" || name == "lookup_param") return DataType::handle();
  if (name == "if_then_else" && args.size() == 3) return args[1]->dtype;
  if (!args.empty() && !args.front()->as<tir::StringImm>()) return args.front()->dtype;
  return DataType::int_(32);
}

}  // namespace

ScriptValue TvmScriptParser::expr_value(ExprRef e) const {
  ScriptValue v;
  v.kind = Kind::kExpr;
  v.location = e->location;
  v.expr = std::move(e);
  return v;
}

ScriptValue TvmScriptParser::parse_value() {
  NestingGuard guard(*this, here());
  return parse_or();
}

ScriptValue TvmScriptParser::parse_or() {
  ScriptValue left = parse_and();
  while (peek().is_name("or")) {
    const SourceLocation at = loc(take());
    const ScriptValue right = parse_and();
    left = expr_value(tir::make_binary(BinaryOp::kOr, to_expr(left), to_expr(right), at));
  }
  return left;
}

ScriptValue TvmScriptParser::parse_and() {
  ScriptValue left = parse_not();
  while (peek().is_name("and")) {
    const SourceLocation at = loc(take());
    const ScriptValue right = parse_not();
    left = expr_value(tir::make_binary(BinaryOp::kAnd, to_expr(left), to_expr(right), at));
  }
  return left;
}

ScriptValue TvmScriptParser::parse_not() {
  if (!peek().is_name("not")) return parse_comparison();
  const SourceLocation at = loc(take());
  NestingGuard guard(*this, at);
  return expr_value(tir::make_not(to_expr(parse_not()), at));
}

ScriptValue TvmScriptParser::parse_comparison() {
  static const std::pair<const char*, BinaryOp> kOps[] = {{"<", BinaryOp::kLt},  {"<=", BinaryOp::kLe},
                                                          {">", BinaryOp::kGt},  {">=", BinaryOp::kGe},
                                                          {"==", BinaryOp::kEq}, {"!=", BinaryOp::kNe}};
  ScriptValue left = parse_bitwise(0);
  ExprRef result;
  while (true) {
    const BinaryOp* op = nullptr;
    for (const auto& [text, binary] : kOps) {
      if (peek().is_op(text)) op = &binary;
    }
    if (!op) break;
    const SourceLocation at = loc(take());
    ScriptValue right = parse_bitwise(0);
    // Python chains comparisons: a < b < c means a < b and b < c.
    ExprRef cmp = tir::make_binary(*op, to_expr(left), to_expr(right), at);
    result = result ? tir::make_binary(BinaryOp::kAnd, result, cmp, at) : cmp;
    left = std::move(right);
  }
  return result ? expr_value(result) : left;
}

ScriptValue TvmScriptParser::parse_bitwise(int level) {
  static const std::vector<std::vector<std::pair<const char*, const char*>>> kLevels = {
      {{"|", "bitwise_or"}},
      {{"^", "bitwise_xor"}},
      {{"&", "bitwise_and"}},
      {{"<<", "shift_left"}, {">>", "shift_right"}}};
  if (level >= static_cast<int>(kLevels.size())) return parse_sum();
  ScriptValue left = parse_bitwise(level + 1);
  while (true) {
    const char* builtin = nullptr;
    for (const auto& [text, name] : kLevels[static_cast<size_t>(level)]) {
      if (peek().is_op(text)) builtin = name;
    }
    if (!builtin) return left;
    const SourceLocation at = loc(take());
    const ExprRef a = to_expr(left);
    const ExprRef b = to_expr(parse_bitwise(level + 1));
    left = expr_value(tir::make_call(builtin, {a, b}, a->dtype, at));
  }
}

ScriptValue TvmScriptParser::parse_sum() {
  ScriptValue left = parse_term();
  while (peek().is_op("+") || peek().is_op("-")) {
    const TirToken op = take();
    const ScriptValue right = parse_term();
    left = expr_value(
        tir::make_binary(op.text == "+" ? BinaryOp::kAdd : BinaryOp::kSub, to_expr(left), to_expr(right), loc(op)));
  }
  return left;
}

ScriptValue TvmScriptParser::parse_term() {
  ScriptValue left = parse_factor();
  while (true) {
    BinaryOp op;
    if (peek().is_op("*")) {
      op = BinaryOp::kMul;
    } else if (peek().is_op("/")) {
      op = BinaryOp::kDiv;
    } else if (peek().is_op("//")) {
      op = BinaryOp::kFloorDiv;
    } else if (peek().is_op("%")) {
      op = BinaryOp::kFloorMod;
    } else {
      return left;
    }
    const SourceLocation at = loc(take());
    const ScriptValue right = parse_factor();
    left = expr_value(tir::make_binary(op, to_expr(left), to_expr(right), at));
  }
}

ScriptValue TvmScriptParser::parse_factor() {
  if (peek().is_op("-") || peek().is_op("+") || peek().is_op("~")) {
    const TirToken op = take();
    const SourceLocation at = loc(op);
    NestingGuard guard(*this, at);
    const ExprRef e = to_expr(parse_factor());
    if (op.text == "+") return expr_value(e);
    if (op.text == "~") return expr_value(tir::make_call("bitwise_not", {e}, e->dtype, at));
    if (const auto* i = e->as<tir::IntImm>()) return expr_value(tir::make_int(-i->value, e->dtype, at));
    if (const auto* f = e->as<tir::FloatImm>()) return expr_value(tir::make_float(-f->value, e->dtype, at));
    const ExprRef zero = e->dtype.is_float() ? tir::make_float(0, e->dtype, at) : tir::make_int(0, e->dtype, at);
    return expr_value(tir::make_binary(BinaryOp::kSub, zero, e, at));
  }
  return parse_power();
}

ScriptValue TvmScriptParser::parse_power() {
  ScriptValue base = parse_postfix();
  if (!peek().is_op("**")) return base;
  const SourceLocation at = loc(take());
  NestingGuard guard(*this, at);
  const ExprRef a = to_expr(base);
  return expr_value(tir::make_call("pow", {a, to_expr(parse_factor())}, a->dtype, at));
}

ScriptValue TvmScriptParser::parse_postfix() {
  ScriptValue v = parse_atom();
  while (true) {
    if (peek().is_op(".")) {
      take();
      const TirToken name = expect_name("an attribute name after '.'");
      if (v.kind == Kind::kPath) {
        v.path += "." + name.text;
      } else if (v.kind == Kind::kBuffer && name.text == "data") {
        v = expr_value(tir::make_var_use(v.buffer->data, v.location));
      } else {
        fail(loc(name), "unknown attribute '." + name.text + "'");
      }
    } else if (peek().is_op("(")) {
      const ScriptArgs args = parse_call_args();
      v = call(v, args);
    } else if (peek().is_op("[")) {
      v = parse_subscript(std::move(v));
    } else {
      return v;
    }
  }
}

ScriptValue TvmScriptParser::parse_atom() {
  const TirToken t = take();
  const SourceLocation at = loc(t);
  ScriptValue v;
  v.location = at;
  switch (t.kind) {
    case TirTokenKind::kName: {
      if (t.text == "True" || t.text == "False")
        return expr_value(tir::make_int(t.text == "True", DataType::boolean(), at));
      if (t.text == "None") return v;
      if (const Binding* b = lookup(t.text)) {
        if (b->var) return expr_value(tir::make_var_use(b->var, at));
        v.kind = Kind::kBuffer;
        v.buffer = b->buffer;
        return v;
      }
      if (!is_namespace(t.text)) fail(at, "undefined name '" + t.text + "'");
      v.kind = Kind::kPath;
      v.path = t.text;
      return v;
    }
    case TirTokenKind::kInt: {
      const bool fits32 = t.int_value <= std::numeric_limits<int32_t>::max();
      return expr_value(tir::make_int(t.int_value, fits32 ? DataType::int_(32) : DataType::int_(64), at));
    }
    case TirTokenKind::kFloat: return expr_value(tir::make_float(t.float_value, DataType::float_(32), at));
    case TirTokenKind::kString: return expr_value(tir::make_string(t.text, at));
    case TirTokenKind::kOp:
      if (t.text == "(" || t.text == "[") {
        const std::string close = t.text == "(" ? ")" : "]";
        v.kind = t.text == "(" ? Kind::kTuple : Kind::kList;
        bool comma = false;
        while (!peek().is_op(close)) {
          v.items.push_back(parse_value());
          if (!accept_op(",")) break;
          comma = true;
        }
        expect_op(close, t.text == "(" ? "to close the parenthesis" : "to close the list");
        if (t.text == "(" && v.items.size() == 1 && !comma) return v.items.front();  // (expr)
        return v;
      }
      if (t.text == "{") {
        v.kind = Kind::kDict;
        while (!peek().is_op("}")) {
          ScriptValue key = parse_value();
          expect_op(":", "after the dict key");
          ScriptValue value = parse_value();
          v.entries.emplace_back(std::move(key), std::move(value));
          if (!accept_op(",")) break;
        }
        expect_op("}", "to close the dict");
        return v;
      }
      break;
    default: break;
  }
  expected("an expression", t);
}

ScriptValue TvmScriptParser::parse_subscript(ScriptValue base) {
  const SourceLocation at = loc(take());  // [
  NestingGuard guard(*this, at);
  if (base.kind == Kind::kBuffer) {
    std::vector<ExprRef> indices;
    while (!peek().is_op("]")) {
      ExprRef index = to_expr(parse_value());
      if (accept_op(":")) {
        // A[i:i + 4]: a vector access with a constant number of lanes.
        const ExprRef stop = to_expr(parse_value());
        std::optional<int64_t> lanes;
        const auto a = tir::constant_int(index.get());
        const auto b = tir::constant_int(stop.get());
        if (a && b) lanes = *b - *a;
        if (const auto* add = stop->as<tir::Binary>(); add && add->op == BinaryOp::kAdd) {
          if (tir::print_expr(*add->a) == tir::print_expr(*index)) lanes = tir::constant_int(add->b.get());
        }
        if (!lanes || *lanes < 1 || *lanes > 1024)
          fail(stop->location, "a slice must cover a constant number of elements");
        auto ramp = std::make_shared<tir::Ramp>();
        ramp->location = index->location;
        ramp->base = index;
        ramp->stride = tir::make_int(1, index->dtype, index->location);
        ramp->lanes = static_cast<int>(*lanes);
        ramp->dtype = index->dtype.with_lanes(ramp->lanes);
        index = ramp;
      }
      indices.push_back(std::move(index));
      if (!accept_op(",")) break;
    }
    expect_op("]", "to close the buffer index");
    return expr_value(tir::make_load(base.buffer, std::move(indices), base.location));
  }
  const tir::Opaque* opaque = base.kind == Kind::kExpr ? base.expr->as<tir::Opaque>() : nullptr;
  if (base.kind == Kind::kPath || opaque) {
    // metadata["relay.Constant"][0]: a reference into metadata the dump does not contain.
    const ScriptValue key = parse_value();
    expect_op("]", "to close the index");
    std::string text = opaque ? opaque->text : base.path;
    if (const auto* s = string_imm(key)) {
      text += "[\"" + s->value + "\"]";
    } else {
      text += "[" + tir::print_expr(*to_expr(key)) + "]";
    }
    auto n = std::make_shared<tir::Opaque>();
    n->text = std::move(text);
    n->dtype = DataType::handle();
    n->location = base.location;
    return expr_value(n);
  }
  fail(at, "this value cannot be indexed");
}

ScriptArgs TvmScriptParser::parse_call_args() {
  ScriptArgs args;
  args.location = loc(expect_op("("));
  NestingGuard guard(*this, args.location);
  while (!peek().is_op(")")) {
    if (peek().kind == TirTokenKind::kName && peek(1).is_op("=")) {
      std::string name = take().text;
      take();
      args.keywords.emplace_back(std::move(name), parse_value());
    } else {
      if (!args.keywords.empty()) fail(here(), "positional argument after keyword arguments");
      args.positional.push_back(parse_value());
    }
    if (!accept_op(",")) break;
  }
  expect_op(")", "to close the argument list");
  return args;
}

ScriptValue TvmScriptParser::call(const ScriptValue& callee, const ScriptArgs& args) {
  if (callee.kind != Kind::kPath) fail(callee.location, "this value cannot be called");
  const std::string name = builtin_name(callee.path);
  // Not a TIR builtin (I.module_attrs, tvm.target.Target): kept for attribute values.
  if (name.empty()) return kept_call(callee.path, args, callee.location);
  return call_builtin(name, args, callee.location);
}

ScriptValue TvmScriptParser::call_builtin(const std::string& name, const ScriptArgs& args, const SourceLocation& at) {
  if (name != "handle" && name != "void") {
    if (const std::optional<DataType> dt = DataType::parse(name)) return typed_value(*dt, args, at);
  }
  if (name == "handle" || name == "Ptr") return pointer_type(args, at);
  if (name == "Buffer" || name == "buffer" || name == "buffer_decl") return make_buffer(args, 0, at, true);
  if (name == "match_buffer") return make_match_buffer(args, at);
  if (name == "allocate") return make_allocate(args, at);
  if (name == "decl_buffer") return make_decl_buffer(args, at);
  if (name == "allocate_const") return make_allocate_const(args, at);
  if (name == "attr") return make_attr(args, at);
  if (name == "LetStmt") return make_let(args, at);
  if (name == "func_attr") {
    if (!function_) fail(at, "T.func_attr outside a function");
    for (auto& entry : to_attrs(args.required(0, "attrs", name, at), "T.func_attr"))
      function_->attrs.push_back(std::move(entry));
    return ScriptValue{};
  }
  if (name == "preflattened_buffer") return ScriptValue{};
  if (std::optional<ScriptValue> e = expression_builtin(name, args, at)) return std::move(*e);
  if (is_loop_iterator(name) || name == "target") return kept_call(name == "target" ? "T.target" : name, args, at);
  return intrinsic_call(name, args, at);
}

ScriptValue TvmScriptParser::typed_value(const DataType& dt, const ScriptArgs& args, const SourceLocation& at) {
  if (args.positional.empty()) {
    // n = T.int32(): declares a variable.
    auto var = std::make_shared<tir::Var>();
    var->dtype = dt;
    var->location = at;
    ScriptValue v = expr_value(tir::make_var_use(var, at));
    v.fresh_var = true;
    return v;
  }
  // T.int32(x): a constant of that type, or a cast.
  const ScriptValue& arg = args.positional.front();
  if (const auto* s = string_imm(arg); s && dt.is_float()) {
    return expr_value(tir::make_float(std::strtod(s->value.c_str(), nullptr), dt, at));
  }
  const ExprRef e = to_expr(arg);
  if (const auto* i = e->as<tir::IntImm>()) {
    return expr_value(dt.is_float() ? tir::make_float(static_cast<double>(i->value), dt, at)
                                    : tir::make_int(i->value, dt, at));
  }
  if (const auto* f = e->as<tir::FloatImm>(); f && dt.is_float()) return expr_value(tir::make_float(f->value, dt, at));
  return expr_value(tir::make_cast(dt, e, at));
}

ScriptValue TvmScriptParser::pointer_type(const ScriptArgs& args, const SourceLocation& at) {
  ScriptValue v;
  v.kind = Kind::kType;
  v.location = at;
  v.type = DataType::handle();
  if (const ScriptValue* p = args.get(0, "dtype")) v.pointee = to_dtype(*p);
  if (const ScriptValue* s = args.get(1, "storage_scope")) v.scope = to_string_arg(*s, "the storage scope");
  return v;
}

std::optional<ScriptValue> TvmScriptParser::expression_builtin(const std::string& name, const ScriptArgs& args,
                                                               const SourceLocation& at) {
  const auto required = [&](size_t position, std::string_view keyword) {
    return to_expr(args.required(position, keyword, name, at));
  };
  if (name == "evaluate") return expr_value(required(0, "value"));
  if (name == "cast")
    return expr_value(tir::make_cast(to_dtype(args.required(1, "dtype", name, at)), required(0, "value"), at));
  if (name == "Cast")
    return expr_value(tir::make_cast(to_dtype(args.required(0, "dtype", name, at)), required(1, "value"), at));
  if (const std::optional<BinaryOp> op = binary_builtin(name)) {
    return expr_value(tir::make_binary(*op, required(0, "a"), required(1, "b"), at));
  }
  if (name == "Select") {
    auto n = std::make_shared<tir::Select>();
    n->location = at;
    n->condition = required(0, "condition");
    n->true_value = required(1, "true_value");
    n->false_value = required(2, "false_value");
    n->dtype = n->true_value->dtype;
    return expr_value(n);
  }
  const auto lanes = [&](size_t position) {
    return static_cast<int>(to_int_arg(args.required(position, "lanes", name, at), "the number of lanes"));
  };
  if (name == "Ramp") {
    auto n = std::make_shared<tir::Ramp>();
    n->location = at;
    n->base = required(0, "base");
    n->stride = required(1, "stride");
    n->lanes = lanes(2);
    n->dtype = n->base->dtype.with_lanes(n->lanes);
    return expr_value(n);
  }
  if (name == "Broadcast") {
    auto n = std::make_shared<tir::Broadcast>();
    n->location = at;
    n->value = required(0, "value");
    n->lanes = lanes(1);
    n->dtype = n->value->dtype.with_lanes(n->lanes);
    return expr_value(n);
  }
  return std::nullopt;
}

ScriptValue TvmScriptParser::intrinsic_call(const std::string& name, const ScriptArgs& args, const SourceLocation& at) {
  // Every other builtin or intrinsic is kept as a call: call_extern, tvm_call_cpacked,
  // address_of, if_then_else, lookup_param, exp, q_multiply_shift, and calls unknown here.
  std::vector<ScriptValue> positional = args.positional;
  std::optional<DataType> dtype;
  if (const ScriptValue* d = args.get(std::numeric_limits<size_t>::max(), "dtype")) dtype = to_dtype(*d);
  if (!dtype && positional.size() >= 2 && string_imm(positional[0]) && string_imm(positional[1]) &&
      DataType::parse(string_imm(positional[0])->value)) {
    // The printer's form puts the dtype first: T.call_extern("int32", "f", ...).
    dtype = DataType::parse(string_imm(positional[0])->value);
    positional.erase(positional.begin());
  }
  std::vector<ExprRef> exprs;
  for (const ScriptValue& p : positional)
    exprs.push_back(to_expr(p));
  if (!dtype) dtype = result_type(name, exprs);
  return expr_value(tir::make_call(name, std::move(exprs), *dtype, at));
}

}  // namespace usmpx
