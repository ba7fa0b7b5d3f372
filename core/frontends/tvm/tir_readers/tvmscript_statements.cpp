#include "frontends/tvm/tir/make.h"
#include "frontends/tvm/tir_readers/tvmscript_parser.h"

namespace usmpx {

using tir::StmtRef;

namespace {

// An argument of a call kept as written (a loop iterator), by keyword or else by position.
const ScriptValue* call_arg(const ScriptValue& call, size_t position, std::string_view keyword) {
  for (const auto& [k, v] : call.keywords) {
    if (k == keyword) return &v;
  }
  return position < call.items.size() ? &call.items[position] : nullptr;
}

}  // namespace

StmtRef TvmScriptParser::build(std::vector<Item>& items, const SourceLocation& at) {
  // A frame statement (allocate, let, attr, ...) encloses everything after it in its block,
  // exactly as TVMScript's frames do; consecutive statements form a SeqStmt.
  std::vector<StmtRef> tail;  // in reverse order
  SourceLocation tail_at = at;
  for (auto it = items.rbegin(); it != items.rend(); ++it) {
    if (it->frame) {
      *it->frame_body = tir::make_seq(std::vector<StmtRef>(tail.rbegin(), tail.rend()), tail_at);
      tail.assign(1, it->frame);
    } else {
      tail.push_back(it->stmt);
    }
    tail_at = tail.back()->location;
  }
  return tir::make_seq(std::vector<StmtRef>(tail.rbegin(), tail.rend()), at);
}

StmtRef TvmScriptParser::parse_block(const SourceLocation& at) {
  NestingGuard guard(*this, here());
  std::vector<Item> items;
  push_scope();
  if (peek().kind == TirTokenKind::kNewline) {
    take();
    if (peek().kind != TirTokenKind::kIndent) expected("an indented block", peek());
    take();
    while (peek().kind != TirTokenKind::kDedent && peek().kind != TirTokenKind::kEnd)
      parse_statement(items);
    if (peek().kind == TirTokenKind::kDedent) take();
  } else {
    parse_simple_statement(items);
  }
  pop_scope();
  return build(items, at);
}

void TvmScriptParser::end_statement() {
  if (peek().kind == TirTokenKind::kEnd || peek().kind == TirTokenKind::kDedent) return;
  if (peek().kind != TirTokenKind::kNewline) expected("end of line after the statement", peek());
  take();
}

void TvmScriptParser::parse_statement(std::vector<Item>& items) {
  const TirToken& t = peek();
  if (t.kind == TirTokenKind::kNewline) {
    take();
  } else if (t.kind == TirTokenKind::kIndent) {
    fail(loc(t), "unexpected indentation");
  } else if (t.is_name("for")) {
    items.push_back({parse_for(), nullptr, nullptr});
  } else if (t.is_name("with")) {
    items.push_back({parse_with(), nullptr, nullptr});
  } else if (t.is_name("if")) {
    items.push_back({parse_if(), nullptr, nullptr});
  } else if (t.is_name("while") || t.is_name("def") || t.is_name("class") || t.is_op("@")) {
    fail(loc(t), "'" + t.text + "' is not supported inside a prim_func");
  } else {
    parse_simple_statement(items);
  }
}

void TvmScriptParser::parse_simple_statement(std::vector<Item>& items) {
  while (true) {
    const TirToken& t = peek();
    const SourceLocation at = loc(t);
    if (t.is_name("pass")) {
      take();
    } else if (t.is_name("assert")) {
      take();
      auto n = std::make_shared<tir::AssertStmt>();
      n->location = at;
      n->condition = to_expr(parse_value());
      n->message = accept_op(",") ? to_expr(parse_value()) : tir::make_string("", at);
      items.push_back({nullptr, n, &n->body});
    } else if (t.is_name("return")) {
      take();
      std::vector<tir::ExprRef> args;
      if (peek().kind != TirTokenKind::kNewline) args.push_back(to_expr(parse_value()));
      auto n = std::make_shared<tir::Evaluate>();
      n->location = at;
      n->value = tir::make_call("ret", std::move(args), tir::DataType::int_(32), at);
      items.push_back({n, nullptr, nullptr});
    } else if (t.kind == TirTokenKind::kName && (peek(1).is_op("=") || peek(1).is_op(":"))) {
      parse_assignment(items);
    } else {
      ScriptValue v = parse_value();
      static const std::pair<const char*, tir::BinaryOp> kAugmented[] = {
          {"+=", tir::BinaryOp::kAdd}, {"-=", tir::BinaryOp::kSub},       {"*=", tir::BinaryOp::kMul},
          {"/=", tir::BinaryOp::kDiv}, {"//=", tir::BinaryOp::kFloorDiv}, {"%=", tir::BinaryOp::kFloorMod}};
      const tir::BinaryOp* augmented = nullptr;
      for (const auto& [op, binary] : kAugmented) {
        if (peek().is_op(op)) augmented = &binary;
      }
      if (peek().is_op("=") || augmented) {
        const TirToken op = take();
        const tir::ExprRef target = to_expr(v);
        const auto* load = target->as<tir::BufferLoad>();
        if (!load) fail(at, "only buffer elements can be assigned, e.g. A[i] = ...");
        tir::ExprRef value = to_expr(parse_value());
        if (augmented) value = tir::make_binary(*augmented, target, value, loc(op));
        auto store = std::make_shared<tir::BufferStore>();
        store->location = at;
        store->buffer = load->buffer;
        store->indices = load->indices;
        store->value = std::move(value);
        items.push_back({store, nullptr, nullptr});
      } else if (v.kind == ScriptValue::Kind::kFrame) {
        items.push_back({nullptr, v.frame, v.frame_body});
      } else if (v.kind == ScriptValue::Kind::kExpr) {
        auto n = std::make_shared<tir::Evaluate>();
        n->location = at;
        n->value = v.expr;
        items.push_back({n, nullptr, nullptr});
      } else if (v.kind != ScriptValue::Kind::kNone && v.kind != ScriptValue::Kind::kBuffer) {
        fail(at, "expected a statement");
      }
    }
    if (!accept_op(";")) break;
    if (peek().kind == TirTokenKind::kNewline) break;
  }
  end_statement();
}

void TvmScriptParser::parse_assignment(std::vector<Item>& items) {
  const TirToken name = take();
  const SourceLocation at = loc(name);
  std::optional<ScriptValue> annotation;
  if (accept_op(":")) annotation = parse_value();
  expect_op("=", "in the assignment to '" + name.text + "'");
  ScriptValue value = parse_value();
  bind_value(name.text, std::move(value), at, items, annotation ? &*annotation : nullptr);
}

void TvmScriptParser::bind_value(const std::string& name, ScriptValue value, const SourceLocation& at,
                                 std::vector<Item>& items, const ScriptValue* annotation) {
  using Kind = ScriptValue::Kind;
  switch (value.kind) {
    case Kind::kFrame:
      value.frame->location = at;  // the statement starts at the assigned name
      if (value.buffer) {
        value.buffer->location = at;
        value.buffer->name = name;
        if (value.fresh_var) value.buffer->data->name = name;
        bind(name, Binding{nullptr, value.buffer});
      } else if (value.frame_var) {
        value.frame_var->name = name;
        value.frame_var->location = at;
        bind(name, Binding{value.frame_var, nullptr});
      }
      items.push_back({nullptr, value.frame, value.frame_body});
      return;
    case Kind::kBuffer:
      value.buffer->location = at;
      value.buffer->name = name;
      if (value.fresh_var) value.buffer->data->name = name;
      bind(name, Binding{nullptr, value.buffer});
      return;
    case Kind::kExpr: {
      if (value.fresh_var) {
        const auto* use = value.expr->as<tir::VarUse>();
        use->var->name = name;
        bind(name, Binding{use->var, nullptr});
        return;
      }
      // name = <expression> binds a new variable with a LetStmt around the rest of the block.
      auto var = std::make_shared<tir::Var>();
      var->name = name;
      var->location = at;
      var->dtype = value.expr->dtype;
      if (annotation) {
        const ScriptValue type = type_of_annotation(*annotation);
        var->dtype = type.type;
        var->pointee = type.pointee;
        var->storage_scope = type.scope;
      }
      auto let = std::make_shared<tir::LetStmt>();
      let->location = at;
      let->var = var;
      let->value = value.expr;
      bind(name, Binding{var, nullptr});
      items.push_back({nullptr, let, &let->body});
      return;
    }
    default: fail(value.location, "cannot assign this value to '" + name + "'");
  }
}

StmtRef TvmScriptParser::parse_for() {
  const SourceLocation at = loc(take());
  std::vector<TirToken> targets{expect_name("a loop variable")};
  while (accept_op(","))
    targets.push_back(expect_name("a loop variable"));
  expect_keyword("in", "after the loop variables");
  const ScriptValue iter = parse_value();
  if (iter.kind != ScriptValue::Kind::kCall || iter.path.empty()) {
    fail(iter.location, "expected T.serial, T.parallel, T.vectorized, T.unroll, T.grid, T.thread_binding or range");
  }
  expect_op(":", "after the loop header");
  const LoopHeader header = loop_header(iter, at);
  if (header.ranges.size() != targets.size()) {
    fail(at, std::to_string(targets.size()) + " loop variables for " + std::to_string(header.ranges.size()) + " loops");
  }
  tir::Attrs annotations;
  if (const ScriptValue* a = call_arg(iter, 99, "annotations")) annotations = to_attrs(*a, "loop annotations");
  push_scope();
  std::vector<std::shared_ptr<tir::For>> nest;
  for (size_t i = 0; i < header.ranges.size(); ++i) {
    auto loop = std::make_shared<tir::For>();
    loop->location = at;
    loop->loop_var = bind_loop_var(targets[i], header.ranges[i].extent->dtype);
    loop->min = header.ranges[i].min;
    loop->extent = header.ranges[i].extent;
    loop->loop_kind = header.kind;
    loop->thread_tag = header.thread;
    loop->annotations = annotations;
    nest.push_back(loop);
  }
  StmtRef body = parse_block(at);
  pop_scope();
  for (auto n = nest.rbegin(); n != nest.rend(); ++n) {
    (*n)->body = body;
    body = *n;
  }
  return body;
}

TvmScriptParser::LoopHeader TvmScriptParser::loop_header(const ScriptValue& iter, const SourceLocation& at) const {
  LoopHeader header;
  const std::string& it = iter.path;
  if (it == "grid") {
    for (const ScriptValue& e : iter.items)
      header.ranges.push_back({tir::make_int(0, to_expr(e)->dtype, at), to_expr(e)});
    return header;
  }
  if (it == "parallel") header.kind = tir::ForKind::kParallel;
  if (it == "vectorized") header.kind = tir::ForKind::kVectorized;
  if (it == "unroll") header.kind = tir::ForKind::kUnrolled;
  if (it == "thread_binding") header.kind = tir::ForKind::kThreadBinding;
  const ScriptValue* start = call_arg(iter, 0, "start");
  const ScriptValue* stop = call_arg(iter, 1, "stop");
  if (header.kind == tir::ForKind::kThreadBinding) {
    const ScriptValue* tag = call_arg(iter, 2, "thread");
    if (stop && stop->kind == ScriptValue::Kind::kExpr && stop->expr->as<tir::StringImm>()) {
      tag = stop;  // T.thread_binding(extent, "threadIdx.x")
      stop = nullptr;
    }
    if (!tag) fail(iter.location, "T.thread_binding needs a thread tag");
    header.thread = to_string_arg(*tag, "the thread tag");
  }
  if (!start) fail(iter.location, "the loop needs an extent");
  tir::ExprRef lo = to_expr(*start);
  if (!stop) {
    // range(n): from zero, n iterations.
    header.ranges.push_back({tir::make_int(0, lo->dtype, at), lo});
    return header;
  }
  tir::ExprRef hi = to_expr(*stop);
  const auto a = tir::constant_int(lo.get());
  const auto b = tir::constant_int(hi.get());
  tir::ExprRef extent = a && b ? tir::make_int(*b - *a, hi->dtype, hi->location)
                               : tir::make_binary(tir::BinaryOp::kSub, hi, lo, hi->location);
  header.ranges.push_back({lo, extent});
  return header;
}

tir::VarRef TvmScriptParser::bind_loop_var(const TirToken& target, const tir::DataType& extent_type) {
  auto var = std::make_shared<tir::Var>();
  var->name = target.text;
  var->location = loc(target);
  var->dtype = extent_type.is_int() ? extent_type : tir::DataType::int_(32);
  bind(var->name, Binding{var, nullptr});
  return var;
}

StmtRef TvmScriptParser::parse_with() {
  const SourceLocation at = loc(take());
  ScriptValue v = parse_value();
  if (v.kind != ScriptValue::Kind::kFrame) {
    fail(v.location, "expected T.allocate, T.decl_buffer, T.allocate_const, T.attr or T.LetStmt after 'with'");
  }
  push_scope();
  if (accept_name("as")) {
    const TirToken target = expect_name("a name after 'as'");
    if (v.buffer) {
      v.buffer->name = target.text;
      if (v.fresh_var) v.buffer->data->name = target.text;
      bind(target.text, Binding{nullptr, v.buffer});
    } else if (v.frame_var) {
      v.frame_var->name = target.text;
      bind(target.text, Binding{v.frame_var, nullptr});
    }
  }
  expect_op(":", "after the with-statement");
  v.frame->location = at;
  *v.frame_body = parse_block(at);
  pop_scope();
  return v.frame;
}

StmtRef TvmScriptParser::parse_if() {
  const SourceLocation at = loc(take());  // if / elif
  auto n = std::make_shared<tir::IfThenElse>();
  n->location = at;
  n->condition = to_expr(parse_value());
  expect_op(":", "after the condition");
  n->then_case = parse_block(at);
  if (peek().is_name("elif")) {
    n->else_case = parse_if();
  } else if (accept_name("else")) {
    expect_op(":", "after 'else'");
    n->else_case = parse_block(at);
  }
  return n;
}

}  // namespace usmpx
